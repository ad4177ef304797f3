// The Dice panel: /api/play plays the round with dice rolled here (fresh every time unless the
// player gives a seed; the seed used is shown, so that a roll can be replayed) or with the dice
// rolled at the table; then the next round, until the fight is over (js/rounds.js: the history).
import {emptyAllocation, leading, PARTS} from "./allocation.js";
import {api, ApiError, errorNode} from "./api.js";
import {$, el, fill, listing} from "./dom.js";
import {currentCheck, scenarioWith} from "./check.js";
import {entryOf, oddsAfter, renderHistory} from "./rounds.js";
import {openOwn, saveToLink} from "./scenarios.js";
import {partsList, standChips, withRuleLinks} from "./show.js";
import {answered} from "./stale.js";
import {on, state} from "./state.js";

const FIGHT_ENDS = {
  attacker: "The fight ends: the attacker takes the building.",
  defender: "The fight ends: the defender holds the building.",
};
const FIGHT_GOES_ON = "The fight goes on: both sides still have stands in the building, so the " +
  "survivors start again from step 1 (7b).";

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

function resultNode(answer, fromTable, seedGiven) {
  const removed = [...answer.removed.defender, ...answer.removed.attacker];
  const now = answer.over ? null : oddsAfter(answer.fight);
  return [
    fromTable
      ? el("p", {class: "seed-used", "data-testid": "table-dice-used",
        text: "The dice rolled at the table."})
      : el("p", {class: "seed-used"},
        el("span", {"data-testid": "seed-used", text: `Seed ${answer.seed}`}),
        seedGiven ? ": the dice of this seed. " : ": fresh dice. ",
        el("button", {
          type: "button", "data-testid": "replay",
          onclick: () => { $("seed").value = String(answer.seed); },
        }, "Keep this seed to roll these dice again")),
    el("ul", {class: "roll-combats"}, answer.combats.map(rolledCombat)),
    el("p", {class: "note", text: `Removed this round: ${listing(removed)}.`}),
    answer.winner
      ? el("p", {class: "status", "data-testid": "fight-ends", text: FIGHT_ENDS[answer.winner]})
      : [
        el("p", {class: "status", "data-testid": "fight-goes-on"}, ...withRuleLinks(FIGHT_GOES_ON)),
        now ? el("p", {"data-testid": "fight-now", text: now}) : null,
        el("button", {
          type: "button", class: "next-round", "data-testid": "next-round",
          onclick: (event) => {
            event.currentTarget.disabled = true;  // once: the next round is being opened
            nextRound();
          },
        }, `Next round: remove the losers, round ${answer.round + 1} from step 1`),
      ],
  ];
}

/** Show a round played: its result, and in the history (a fight over is played out: kept). */
function showPlayed(answer, fromTable, seedGiven) {
  const entry = entryOf(answer, fromTable);
  state.rounds = state.rounds.filter((earlier) => earlier.round < answer.round);
  if (answer.over) {
    state.rounds.push(entry);
    state.played = null;
  } else {
    state.played = {answer, entry};
  }
  fill($("roll-result"), resultNode(answer, fromTable, seedGiven));
  renderHistory();
  saveToLink();
}

/** The round's combats once the allocation is complete and legal (null: not yet). */
function combatsToRoll() {
  const check = currentCheck();
  return check?.legal && check.odds ? check.odds.combats : null;
}

function notReady() {
  return new ApiError({problem: "Finish the allocation first (every step up to 6, with no " +
    "rule broken): the dice decide the combats it makes."});
}

async function play(body, fromTable, seedGiven) {
  try {
    showPlayed(await api("/api/play", {body}), fromTable, seedGiven);
  } catch (error) {
    fill($("roll-result"), errorNode(error, fromTable ? "dice-error" : "roll-error"));
  }
  answered("roll-result", fromTable ? applyTableDice : roll,
    {words: fromTable ? "apply the dice to this board" : "roll for this board"});
}

/** Say that the dice cannot decide yet (``testid``: where), for this board. */
function refuse(testid, again) {
  fill($("roll-result"), errorNode(notReady(), testid));
  answered("roll-result", again, {words: "try again"});
}

async function roll() {
  if (!combatsToRoll()) {
    refuse("roll-error", roll);
    return;
  }
  const seed = $("seed").value.trim();
  const body = {scenario: scenarioWith(leading(state.allocation, PARTS))};
  if (seed !== "") body.seed = Number(seed);
  await play(body, false, seed !== "");
}

async function applyTableDice() {
  if (!combatsToRoll()) {
    refuse("dice-error", applyTableDice);
    return;
  }
  const dice = {};
  for (const input of $("dice-entry").querySelectorAll("input[data-combat]")) {
    if (input.value.trim() !== "") dice[input.dataset.combat] = input.value.trim();
  }
  await play({scenario: scenarioWith(leading(state.allocation, PARTS)), dice}, true, false);
}

let entryDrawnFor = null;  // the combats the entry was drawn for, so typing is never redrawn

/** One box for each combat's dice rolled at the table (a combat decided without a roll: none). */
function renderEntry() {
  const combats = combatsToRoll();
  const drawnFor = JSON.stringify(combats?.map((c) => [c.name, c.attackers, c.defenders]) ?? null);
  if (drawnFor === entryDrawnFor) return;
  entryDrawnFor = drawnFor;
  $("dice-apply").disabled = !combats;
  if (!combats) {
    fill($("dice-entry"), el("p", {class: "note",
      text: "Once the allocation is complete and legal, the dice of each combat go here."}));
    return;
  }
  fill($("dice-entry"), combats.map((combat) => combat.decided
    ? el("p", {class: "note", text: `Combat ${combat.name}: no roll (${combat.decided}).`})
    : [
      el("label", {for: `dice-entry-${combat.name}`},
        `Combat ${combat.name}: ${listing(combat.attackers)} against `,
        `${listing(combat.defenders)}`),
      el("input", {
        id: `dice-entry-${combat.name}`, "data-testid": `dice-entry-${combat.name}`,
        "data-combat": combat.name, type: "text", inputmode: "numeric", autocomplete: "off",
        placeholder: "e.g. 4-3", maxlength: "200",
      }),
    ]));
}

/** The survivors' combats of the round played, for the next round, where the rules allow it. */
async function survivorsCombats(answer) {
  const left = new Set(answer.left.defender);
  const combats = {};
  for (const combat of answer.combats) {
    const kept = combat.defenders.filter((id) => left.has(id));
    if (kept.length) combats[combat.name] = kept;
  }
  const allocation = {combats};
  try {
    const check = await api("/api/check", {body: {...answer.next_scenario, allocation}});
    return check.legal ? allocation : null;
  } catch {
    return null;
  }
}

/** Play on (7b): the round played joins the history; the next round starts at step 1, with
 * the survivors where they stood. */
async function nextRound() {
  const {answer, entry} = state.played ?? {};
  if (!answer) return;
  const rounds = [...state.rounds, entry];
  const scenario = answer.next_scenario;
  const allocation = await survivorsCombats(answer);
  const title = scenario.title ?? scenario.building?.name ?? "Fight";
  await openOwn(scenario, `${title}: round ${scenario.round}`,
    {allocation: allocation ?? emptyAllocation(), step: 1, rounds});
  const now = oddsAfter(answer.fight);
  if (now) fill($("roll-result"), el("p", {"data-testid": "fight-now", text: now}));
}

export function wireDice() {
  $("roll").addEventListener("click", roll);
  $("dice-apply").addEventListener("click", applyTableDice);
  on("drawn", () => {
    renderEntry();
    renderHistory();
  });
}
