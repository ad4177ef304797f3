// Pieces several panels show: a combat's odds and the parts of its totals, stand chips,
// warnings, and rule ids linked to their statements.
import {gameTerms} from "./api.js";
import {el, percent} from "./dom.js";

/** The other side's share of an exact probability: 1 - p/q. */
export function complement(exact) {
  const [p, q] = exact.split("/").map(BigInt);
  return `${q - p}/${q}`;
}

/** A side's total and what makes it up: "Attacker 2 = a1 squad +1, a2 squad +1". */
export function partsList(side, total, parts) {
  const name = side === "attacker" ? "Attacker" : "Defender";
  const words = parts.length
    ? parts.map(([what, value]) => `${what} ${value >= 0 ? "+" : ""}${value}`).join(", ")
    : "nothing";
  return el("p", {class: `parts ${side}-text`, "data-testid": `parts-${side}`},
    el("strong", {text: `${name} ${total}`}), ` = ${words}`);
}

/** A combat's odds: the attacker's share of the bar from the left, both totals and their parts. */
export function oddsBar(combat) {
  const exact = combat.p_attacker_wins_exact;
  const defender = complement(exact);
  const bar = el("span", {class: "odds-attacker"});
  bar.style.width = `${combat.p_attacker_wins * 100}%`;
  return el("div", {
    class: "odds", "data-testid": "odds-bar", "data-p": String(combat.p_attacker_wins),
  },
  el("div", {
    class: "odds-track", role: "img",
    "aria-label": `attacker wins ${percent(exact)}, defender ${percent(defender)}`,
  }, bar),
  el("div", {class: "odds-text"},
    el("span", {class: "attacker-text", text: `Attacker ${percent(exact)} (${exact})`}),
    el("span", {class: "defender-text", text: `Defender ${percent(defender)} (${defender})`})),
  el("div", {class: "totals", "data-testid": "totals"},
    partsList("attacker", combat.attacker_total, combat.attacker_parts),
    partsList("defender", combat.defender_total, combat.defender_parts)),
  combat.decided ? el("p", {class: "note", text: combat.decided}) : null);
}

export function standChips(ids, stands) {
  return ids.map((id) => el("span", {class: `chip ${stands.get(id)?.side ?? ""}`, text: id}));
}

/** The warnings of an answer (a leader who can join no combat, ...), each with its fix. */
export function warningsList(warnings) {
  if (!warnings?.length) return null;
  return el("ul", {class: "warnings", "data-testid": "warnings"},
    warnings.map((text) => el("li", {"data-testid": "warning"},
      el("strong", {text: "Warning: "}), ...withRuleLinks(text))));
}

let ruleIds = null;

/** Load the rule ids once, so that texts can link them. */
export async function loadRules() {
  const terms = await gameTerms();
  ruleIds = new RegExp(`\\b(${terms.rules.map((r) => r.id).join("|")})\\b`, "g");
  return terms;
}

/** A link from a rule id to its statement in the glossary of rules. */
export function ruleLink(id) {
  return el("a", {
    href: `#rule-${id}`, class: "rule-link", "data-testid": "rule-link", "data-rule": id,
    onclick: (event) => {
      event.preventDefault();
      const glossary = document.getElementById("rules-glossary");
      glossary.open = true;
      const entry = document.getElementById(`rule-${id}`);
      entry.scrollIntoView({block: "center"});
      entry.focus();
    },
  }, id);
}

/** A text with every rule id in it linked to the rule's statement, and `code` shown as code. */
export function withRuleLinks(text) {
  // `between backticks` is what to write in a file: shown as code, never linked
  return text.split("`").flatMap((piece, i) =>
    i % 2 ? [el("code", {text: piece})] : linked(piece)).filter((piece) => piece !== "");
}

function linked(text) {
  if (!ruleIds) return [text];
  const pieces = [];
  let last = 0;
  for (const match of text.matchAll(ruleIds)) {
    pieces.push(text.slice(last, match.index), ruleLink(match[1]));
    last = match.index + match[0].length;
  }
  pieces.push(text.slice(last));
  return pieces;
}
