// A share link: a value in the URL's fragment (``#s=`` and its JSON in base64url), so that it
// never reaches a server log; and the checks of its shape, so that a link cut short or changed
// by hand is one message naming the part that is wrong, never a script error.

/** The fragment of a link to ``value``. */
export function linkFragment(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const binary = Array.from(bytes, (byte) => String.fromCharCode(byte)).join("");
  return `#s=${btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
}

/** A problem with a link: its words say what is wrong, ``place`` where (as the API's errors). */
export class LinkError extends Error {
  constructor(problem, place = "link") {
    super(problem);
    this.error = {place, problem};
  }
}

function isRecord(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The value a fragment holds: null when it holds none (no ``#s=``); a LinkError when it does not
 * decode to a JSON object (``what``: what the link should hold, for the message).
 */
export function readFragment(hash, what) {
  if (!hash.startsWith("#s=")) return null;
  const text = hash.slice(3);
  let value;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new Error("not base64url");
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    value = JSON.parse(new TextDecoder("utf-8", {fatal: true}).decode(bytes));
  } catch {
    throw new LinkError("the link is damaged: its end was cut off or changed; ask for the link "
      + "again");
  }
  if (!isRecord(value)) throw new LinkError(`the link holds no ${what}`);
  return value;
}

// ---------------------------------------------------------------- shapes
// Each shape is a function (value, place) that returns the value or throws a LinkError naming
// the place (``allocation.combats.A[0]``) and what was expected there.

function kind(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return {string: "a text", number: "a number", boolean: "true or false"}[typeof value] ??
    "an object";
}

function expected(place, what, value) {
  return new LinkError(`the link is damaged: ${place} should be ${what}, not ${kind(value)}`,
    place);
}

/** A text that is not empty. */
export function text(value, place) {
  if (typeof value !== "string" || value === "") throw expected(place, "a text", value);
  return value;
}

/** A whole number from ``low`` to ``high``. */
export function wholeNumber(low, high) {
  return (value, place) => {
    if (!Number.isInteger(value) || value < low || value > high) {
      throw expected(place, `a whole number from ${low} to ${high}`, value);
    }
    return value;
  };
}

/** Any JSON object (the server checks what it holds). */
export function anyRecord(value, place) {
  if (!isRecord(value)) throw expected(place, "an object", value);
  return value;
}

/** A list whose every item has ``shape``. */
export function listOf(shape) {
  return (value, place) => {
    if (!Array.isArray(value)) throw expected(place, "a list", value);
    value.forEach((item, i) => shape(item, `${place}[${i}]`));
    return value;
  };
}

/** An object whose every value has ``shape`` (its keys are names the player chose). */
export function mapOf(shape) {
  return (value, place) => {
    anyRecord(value, place);
    for (const [key, item] of Object.entries(value)) shape(item, `${place}.${key}`);
    return value;
  };
}

/** Null (or left out), or ``shape``. */
export function optional(shape) {
  return (value, place) => (value === null || value === undefined ? value : shape(value, place));
}

/**
 * An object of known parts: ``parts`` gives each part's shape; a part left out is not checked
 * (make it required in the caller), and a part not in ``parts`` is refused.
 */
export function record(parts) {
  return (value, place) => {
    anyRecord(value, place);
    for (const [key, item] of Object.entries(value)) {
      const where = place === "link" ? key : `${place}.${key}`;
      if (!Object.hasOwn(parts, key)) {
        throw new LinkError(`the link is damaged: it has a part this page does not know (${
          where.slice(0, 80)}); ask for the link again`, where);
      }
      parts[key](item, where);
    }
    return value;
  };
}
