// The Best split panel: /api/solve for either side, with each combat's odds and why it is best.
import {copyAllocation} from "./allocation.js";
import {api, errorNode, gameTerms} from "./api.js";
import {
  $, decimal, el, exactSpan, fill, percent, plural, ratio, share, signed,
} from "./dom.js";
import {scenarioWith} from "./check.js";
import {oddsBar, standChips, warningsList} from "./show.js";
import {commit, state} from "./state.js";

/** The attacker's aims the server can optimise, by name: each one's title (from /api/terms). */
export const AIMS = {};
/** The same aims' words for a value: what it says and whether it is a chance or stands. */
const VALUES = {};

/** The value of a line in the objective's words. */
function valueText(objective, exact) {
  const {label, unit} = VALUES[objective];
  return unit === "stands"
    ? `${label} ${signed(exact)} stands (${exact})`
    : `${label}: ${share(exact)}`;
}

/** How one way of ending the fight reads: who is left in the building. */
function outcomeText({attacker_left: attackers, defender_left: defenders}) {
  if (defenders === 0) {
    return `The attacker takes it with ${plural(attackers, "stand")} left`;
  }
  return attackers === 0
    ? `The defender holds it with ${plural(defenders, "stand")} left`
    : `The defender holds it with ${plural(defenders, "stand")} left ` +
      `(${plural(attackers, "attacking stand")} cannot assault)`;
}

function outcomeBar(exact) {
  const bar = el("span", {class: "outcome-bar"});
  bar.style.width = `${ratio(exact) * 100}%`;
  return bar;
}

/** The whole fight under both sides' best play: the chance of taking the building, the
 * expected losses, and how the fight ends. */
function fightPanel(fight) {
  const known = fight.p_attacker_takes !== undefined;  // left out when the search was cut short
  const bar = el("span", {class: "odds-attacker"});
  bar.style.width = `${ratio(known ? fight.p_attacker_takes : fight.bounds[0]) * 100}%`;
  const lost = fight.expected_stands_lost;
  const outcomes = fight.outcomes || [];
  return el("section", {class: "fight", "aria-label": "The whole fight"},
    el("h3", {text: "The whole fight, both sides playing their best every round"}),
    known
      ? el("p", {class: "fight-odds", "data-testid": "fight-odds",
        "data-exact": fight.p_attacker_takes},
      el("strong", {text: "The attacker takes the building: "}),
      exactSpan(share(fight.p_attacker_takes)),
      "; the defender holds it: ",
      exactSpan(share(fight.p_defender_holds)), ".")
      : null,
    known
      ? el("div", {class: "odds-track", role: "img",
        "aria-label": `attacker takes the building ${percent(fight.p_attacker_takes)}`}, bar)
      : null,
    fight.bounds
      ? el("p", {class: "note", "data-testid": "fight-bounds"},
        `The search was cut short: the optimum lies between ${share(fight.bounds[0])} and ` +
        `${share(fight.bounds[1])}.`)
      : null,
    outcomes.length ? el("p", {"data-testid": "fight-losses"},
      `Expected losses: the attacker ${decimal(lost.attacker)} stands, the defender ` +
      `${decimal(lost.defender)} stands, over ${decimal(fight.expected_rounds)} rounds on average.`)
      : null,
    outcomes.length ? el("table", {class: "outcomes", "data-testid": "fight-outcomes"},
      el("caption", {text: "How the fight ends"}),
      el("tbody", {}, outcomes.map((outcome) => el("tr", {
        "data-testid": "fight-outcome", class: outcome.defender_left ? "held" : "taken",
      },
      el("th", {scope: "row", text: outcomeText(outcome)}),
      el("td", {}, el("strong", {text: percent(outcome.p)}), " ",
        exactSpan(outcome.p, "note"), outcomeBar(outcome.p)))))) : null,
    fight.one_round
      ? el("p", {class: "note", "data-testid": "fight-one-round"},
        `The best split for this round alone would be worth ${share(fight.one_round.exact)} ` +
        "over the whole fight.")
      : null,
    el("p", {class: "note", text: `${plural(fight.states, "state")} of the fight searched.`}));
}

async function solve(side) {
  const result = $("solve-result");
  const buttons = document.querySelectorAll("[data-side]");
  const combats = copyAllocation(state.allocation).combats;
  const given = side === "attacker" && Object.keys(combats).length ? {combats} : null;
  const objective = $("objective").value;
  fill(result, el("p", {class: "note", text: "Searching every legal line of play…"}));
  buttons.forEach((button) => { button.disabled = true; });
  try {
    const body = {scenario: scenarioWith(given), side, objective};
    fill(result, solveAnswer(await api("/api/solve", {body})));
  } catch (error) {
    fill(result, errorNode(error, "solve-error"));
  } finally {
    buttons.forEach((button) => { button.disabled = false; });
  }
}

function solveAnswer(answer) {
  const proven = answer.status === "optimal";
  const counted = answer.alternatives_complete;
  const others = answer.alternatives
    ? `${counted ? "" : "At least "}${plural(answer.alternatives, "other split")} of the same value.`
    : counted ? "No other split is as good."
      : "Other splits of the same value may exist: they were not all compared in time.";
  return [
    el("p", {class: "status", "data-testid": "solve-status"},
      el("strong", {text: proven ? "Best split (proven): " : "Best found, not proven optimal: "}),
      valueText(answer.objective, answer.value_exact)),
    answer.note ? el("p", {class: "note", text: answer.note}) : null,
    warningsList(answer.warnings),
    el("p", {text: answer.why}),
    el("div", {class: "solve-answer"},
      answer.fight ? fightPanel(answer.fight) : null,
      el("section", {class: "one-round", "data-testid": "one-round"},
        el("h3", {text: "Round 1, combat by combat"}),
        el("ol", {class: "solve-combats"}, answer.combats.map((combat) =>
          el("li", {"data-testid": "solve-combat"},
            el("p", {}, el("strong", {text: `Combat ${combat.name}: `}),
              standChips(combat.defenders, state.stands), " vs ",
              standChips(combat.attackers, state.stands)),
            oddsBar(combat)))))),
    el("p", {class: "note", text: others}),
    el("button", {
      type: "button", "data-testid": "apply-solution",
      onclick: () => commit(answer.allocation, {step: 3, what: "The best split"}),
    }, "Show this split on the board"),
  ];
}

/** The picker of aims, from the server's objectives, the default chosen. */
async function offerAims() {
  const terms = await gameTerms();
  for (const objective of terms.objectives) {
    AIMS[objective.name] = objective.title;
    VALUES[objective.name] = objective;
  }
  const picker = $("objective");
  fill(picker, terms.objectives.map(({name, title}) => el("option", {value: name, text: title})));
  picker.value = terms.default_objective;
}

export function wireSolve() {
  offerAims().catch((error) => fill($("solve-result"), errorNode(error, "solve-error")));
  for (const button of document.querySelectorAll("[data-side]")) {
    button.addEventListener("click", () => solve(button.dataset.side));
  }
}
