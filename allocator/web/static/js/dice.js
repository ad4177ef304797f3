// The Dice panel: /api/simulate rolls one round. Fresh dice every time unless the player gives a
// seed; the seed used is shown, so that a roll can be replayed.
import {leading, PARTS} from "./allocation.js";
import {api, errorNode} from "./api.js";
import {$, el, fill, listing} from "./dom.js";
import {scenarioWith} from "./check.js";
import {partsList, standChips, withRuleLinks} from "./show.js";
import {state} from "./state.js";

const FIGHT_ENDS = {
  attacker: "The fight ends: the attacker takes the building.",
  defender: "The fight ends: the defender holds the building.",
};
const FIGHT_GOES_ON = "The fight goes on: both sides still have stands in the building, so the " +
  "survivors start again from step 1 (7b). Best split, aiming to take the building, gives the " +
  "odds of the whole fight.";

/** A die showing ``face`` (1-6): pips on a square. */
function die(face, side) {
  return el("span", {
    class: `die ${side}`, "data-testid": `die-${side}`, "data-face": String(face), role: "img",
    "aria-label": `${side}'s die shows ${face}`,
  }, Array.from({length: 9}, (_, i) => el("i", {class: `pip p${i + 1}`})));
}

function rollLine(roll, last) {
  return el("li", {class: "roll", "data-testid": "rolled-dice"},
    die(roll.attacker, "attacker"),
    el("span", {class: "score attacker-text", "data-testid": "score-attacker",
      text: `scores ${roll.attacker_score}`}),
    el("span", {class: "versus", text: "against"}),
    die(roll.defender, "defender"),
    el("span", {class: "score defender-text", "data-testid": "score-defender",
      text: `scores ${roll.defender_score}`}),
    last ? null : el("span", {class: "note", text: " (a tie: rolled again)"}));
}

function rolledCombat(combat) {
  const losers = combat.winner === "attacker" ? combat.defenders : combat.attackers;
  return el("li", {
    class: `won-by-${combat.winner}`, "data-testid": "roll-combat", "data-winner": combat.winner,
  },
  el("p", {}, el("strong", {text: `Combat ${combat.name}: the ${combat.winner} wins.`})),
  combat.rolls.length
    ? el("ul", {class: "rolls"},
      combat.rolls.map((roll, i) => rollLine(roll, i === combat.rolls.length - 1)))
    : el("p", {class: "note", text: combat.note}),
  el("div", {class: "totals"},
    partsList("attacker", combat.attacker_total, combat.attacker_parts),
    partsList("defender", combat.defender_total, combat.defender_parts)),
  el("p", {}, "Removed: ", standChips(losers, state.stands)));
}

async function roll() {
  const result = $("roll-result");
  const seed = $("seed").value.trim();
  const body = {scenario: scenarioWith(leading(state.allocation, PARTS))};
  if (seed !== "") body.seed = Number(seed);
  try {
    const answer = await api("/api/simulate", {body});
    const [round] = answer.rounds;
    const removed = [...round.removed.defender, ...round.removed.attacker];
    fill(result,
      el("p", {class: "seed-used"},
        el("span", {"data-testid": "seed-used", text: `Seed ${answer.seed}`}),
        seed === "" ? ": fresh dice. " : ": the dice of this seed. ",
        el("button", {
          type: "button", "data-testid": "replay",
          onclick: () => { $("seed").value = String(answer.seed); },
        }, "Keep this seed to roll these dice again")),
      el("ul", {class: "roll-combats"}, round.combats.map(rolledCombat)),
      el("p", {class: "note", text: `Removed this round: ${listing(removed)}.`}),
      answer.winner
        ? el("p", {class: "status", "data-testid": "fight-ends", text: FIGHT_ENDS[answer.winner]})
        : el("p", {class: "status", "data-testid": "fight-goes-on"},
          ...withRuleLinks(FIGHT_GOES_ON)));
  } catch (error) {
    fill(result, errorNode(error, "roll-error"));
  }
}

export function wireDice() {
  $("roll").addEventListener("click", roll);
}
