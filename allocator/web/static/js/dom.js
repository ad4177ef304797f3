// Small helpers for building the page: elements, lists, numbers as people read them (rounded as
// the server says: the digits come from GET /api/terms).

/** The element with this id. */
export function $(id) {
  return document.getElementById(id);
}

/** The children worth adding: nested lists flattened, null, undefined and false left out. */
function present(children) {
  return children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
}

/** Build an element: attributes (text, class, on<event>, others) and children. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...present(children));
  return node;
}

/** Replace a node's children. */
export function fill(node, ...children) {
  node.replaceChildren(...present(children));
}

export function plural(count, word, words = `${word}s`) {
  return `${count} ${count === 1 ? word : words}`;
}

/** ``a``, ``a and b``, ``a, b and c``. */
export function listing(items, empty = "none") {
  if (items.length === 0) return empty;
  if (items.length === 1) return items[0];
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** How many decimals a percentage and an expectation get: the server's (useNumberFormat). */
const digitsOf = {percent: null, signed: null};

/** Round numbers as the command line does: ``format`` is /api/terms' ``numbers``. */
export function useNumberFormat(format) {
  digitsOf.percent = format.percent_digits;
  digitsOf.signed = format.signed_digits;
}

/** A "p/q" text as two BigInts. */
function fraction(exact) {
  const [p, q = "1"] = String(exact).split("/");
  return [BigInt(p), BigInt(q)];
}

/** p/q * 10^digits rounded half up (away from zero), as a decimal text with ``digits`` places. */
function rounded(p, q, digits) {
  if (q < 0n) [p, q] = [-p, -q];
  const negative = p < 0n;
  const magnitude = negative ? -p : p;
  const scaled = (2n * magnitude * 10n ** BigInt(digits) + q) / (2n * q);
  const text = scaled.toString().padStart(digits + 1, "0");
  const whole = digits ? `${text.slice(0, -digits)}.${text.slice(-digits)}` : text;
  return negative && scaled !== 0n ? `-${whole}` : whole;
}

/** An exact probability as a percentage, rounded half up as the command line does: 81.3%.
 * 100% and 0% are said only of exactly 1 and 0 (else "over 99.9%", "under 0.1%"). */
export function percent(exact, digits = digitsOf.percent) {
  const [p, q] = fraction(exact);
  const text = rounded(p * 100n, q, digits);
  const inside = (p > 0n) === (q > 0n) && p !== 0n && (p < 0n ? -p : p) < (q < 0n ? -q : q);
  if (inside && text === rounded(100n, 1n, digits)) {
    return `over ${rounded(100n * 10n ** BigInt(digits) - 1n, 10n ** BigInt(digits), digits)}%`;
  }
  if (inside && text === rounded(0n, 1n, digits)) {
    return `under ${rounded(1n, 10n ** BigInt(digits), digits)}%`;
  }
  return `${text}%`;
}

/** An exact number, signed and rounded half up: +0.44, -1.25. */
export function signed(exact, digits = digitsOf.signed) {
  const [p, q] = fraction(exact);
  const text = rounded(p, q, digits);
  return text.startsWith("-") ? text : `+${text}`;
}

/** A probability as the terminal writes it: 13/16 (81.3%). */
export function odds(exact) {
  return `${exact} (${percent(exact)})`;
}

/** Exact odds in a span that keeps them on one line, so that no fraction is read as two; only
 * one too long for a phone's line (a fight of many rounds) may wrap. */
export function exactSpan(text, extraClass = "") {
  const classes = ["exact", extraClass, text.length > 32 ? "long" : ""].filter(Boolean);
  return el("span", {class: classes.join(" "), text});
}

/** An exact "p/q" as a float, however long its digits (for the width of a bar). */
export function ratio(exact) {
  const [p, q] = fraction(exact);
  return Number((p * 1_000_000n) / q) / 1_000_000;
}

/** A probability with the percentage first, for long fractions: 88.0% (7537379577/8565293056). */
export function share(exact) {
  return `${percent(exact)} (${exact})`;
}

/** A float the server computed (an expectation), with the decimals of an expectation. */
export function decimal(value, digits = digitsOf.signed) {
  return Number(value).toFixed(digits);
}
