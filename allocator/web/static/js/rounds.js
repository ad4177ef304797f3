// The fight round by round (7b): the history of the rounds played (each round's combats, dice,
// winners and losses, and the whole fight's odds after it), kept on the page and in the share
// link (its `rounds` part: roundsForLink and roundsFromLink, the only code of the link that
// knows it).
import {$, el, fill, listing, percent} from "./dom.js";
import {state} from "./state.js";

/** The most rounds a link's history may hold (a fight of more rounds is not kept in a link). */
const MAX_LINK_ROUNDS = 200;
const SIDES = ["attacker", "defender"];
const HOLDS = {
  attacker: "the attacker takes the building",
  defender: "the defender holds the building",
};

/** The history's entry for one round played (a /api/play answer): what the history shows. */
export function entryOf(answer, fromTable) {
  return {
    round: answer.round,
    table: fromTable,
    combats: answer.combats.map((c) => ({
      name: c.name, attackers: c.attackers, defenders: c.defenders, winner: c.winner,
      note: c.note ?? null,
      rolls: c.rolls.map((r) => [r.attacker_score, r.defender_score]),
      dice: (answer.dice[c.name] ?? []).map((roll) => [roll.attacker, roll.defender]),
    })),
    removed: answer.removed,
    winner: answer.winner,
    takes: answer.fight?.p_attacker_takes ?? null,
  };
}

/** The whole fight's odds after a round: "the attacker now takes the building 71.2%". */
export function oddsAfter(fight) {
  if (fight?.p_attacker_takes) {
    return `From here, both sides at their best, the attacker now takes the building ` +
      `${percent(fight.p_attacker_takes)}.`;
  }
  if (fight?.bounds) {
    return `From here the attacker takes the building between ${percent(fight.bounds[0])} and ` +
      `${percent(fight.bounds[1])} (the search was stopped by the time limit).`;
  }
  return null;
}

/** Who holds the building, once the fight is over. */
export function holder(winner) {
  return `The fight is over: ${HOLDS[winner]}.`;
}

function diceText(dice) {
  return dice.map(([attacker, defender]) => `${attacker.join(" ")} against ${defender.join(" ")}`)
    .join(", then ");
}

function combatLine(combat) {
  const how = combat.dice.length
    ? `dice ${diceText(combat.dice)}; scores ${
      combat.rolls.map(([a, d]) => `${a} against ${d}`).join(", then ")}`
    : `no roll: ${combat.note ?? "decided"}`;
  const losers = combat.winner === "attacker" ? combat.defenders : combat.attackers;
  return el("li", {"data-combat": combat.name, "data-winner": combat.winner},
    el("b", {text: `Combat ${combat.name}`}), `: ${combat.attackers.join(", ")} against `,
    `${combat.defenders.join(", ")}; ${how}. The ${combat.winner} wins; `,
    `removed: ${listing(losers)}.`);
}

function entryNode(entry) {
  const lost = SIDES.filter((side) => entry.removed[side]?.length)
    .map((side) => `${side} ${listing(entry.removed[side])}`);
  return el("li", {"data-round": String(entry.round), "data-testid": "history-round"},
    el("h4", {text: `Round ${entry.round} (${entry.table ? "dice from the table" : "rolled here"})`}),
    el("ul", {class: "history-combats"}, entry.combats.map(combatLine)),
    el("p", {}, `Lost: ${lost.join("; ") || "nothing"}.`),
    entry.winner
      ? el("p", {class: "status", "data-testid": "fight-over", "data-winner": entry.winner,
        text: holder(entry.winner)})
      : entry.takes
        ? el("p", {text: `After it the attacker takes the building ${percent(entry.takes)}, ` +
          "both sides at their best."})
        : null);
}

/** Draw the history: the rounds played on, then the round just played (not yet played on). */
export function renderHistory() {
  const entries = [...state.rounds, ...(state.played ? [state.played.entry] : [])];
  const box = $("round-history-box");
  box.hidden = entries.length === 0;
  fill($("round-history"), entries.map(entryNode));
}

/** The history's part of the share link: the rounds played on (none: nothing). */
export function roundsForLink() {
  return state.rounds.length ? {rounds: state.rounds} : {};
}

function isText(value) {
  return typeof value === "string" && value.length <= 200;
}

function isTexts(value) {
  return Array.isArray(value) && value.length <= 1000 && value.every(isText);
}

function isFaces(value) {
  return Array.isArray(value) && value.length <= 100 &&
    value.every((face) => Number.isInteger(face) && face >= 1 && face <= 6);
}

function isScores(value) {
  return Array.isArray(value) && value.length === 2 && value.every(Number.isInteger);
}

function isCombat(combat) {
  return combat !== null && typeof combat === "object" && isText(combat.name) &&
    SIDES.includes(combat.winner) && isTexts(combat.attackers) && isTexts(combat.defenders) &&
    (combat.note === null || isText(combat.note)) &&
    Array.isArray(combat.rolls) && combat.rolls.length <= 50 && combat.rolls.every(isScores) &&
    Array.isArray(combat.dice) && combat.dice.length === combat.rolls.length &&
    combat.dice.every((roll) => Array.isArray(roll) && roll.length === 2 && roll.every(isFaces));
}

function isEntry(entry, index) {
  return entry !== null && typeof entry === "object" && entry.round === index + 1 &&
    typeof entry.table === "boolean" && Array.isArray(entry.combats) &&
    entry.combats.length <= 1000 && entry.combats.every(isCombat) &&
    entry.removed !== null && typeof entry.removed === "object" &&
    SIDES.every((side) => isTexts(entry.removed[side])) &&
    (entry.winner === null || SIDES.includes(entry.winner)) &&
    (entry.takes === null || (isText(entry.takes) && /^\d+\/\d+$/.test(entry.takes)));
}

/**
 * The history a link holds (``saved.rounds``), each entry as the page writes it: rounds 1, 2,
 * ... in order. Anything else is left out, and said: ``{rounds, damaged}``.
 */
export function roundsFromLink(saved) {
  const rounds = saved.rounds;
  if (rounds === undefined) return {rounds: [], damaged: false};
  const fine = Array.isArray(rounds) && rounds.length <= MAX_LINK_ROUNDS &&
    rounds.every(isEntry);
  return fine ? {rounds, damaged: false} : {rounds: [], damaged: true};
}
