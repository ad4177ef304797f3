// The Best split panel: /api/solve for either side, with each combat's odds and why it is best.
import {copyAllocation} from "./allocation.js";
import {api, errorNode} from "./api.js";
import {$, el, fill, odds, plural, signed} from "./dom.js";
import {scenarioWith} from "./check.js";
import {oddsBar, standChips, warningsList} from "./show.js";
import {commit, state} from "./state.js";

/** The attacker's aims the server can optimise, in the order the picker offers them. */
export const AIMS = {
  sweep: "win every combat this round",
  exchange: "exchange: stands removed, theirs minus ours",
};

/** The value of a line in the objective's words. */
function valueText(objective, exact) {
  if (objective === "exchange") return `expected exchange ${signed(exact)} stands (${exact})`;
  return `attacker wins every combat: ${odds(exact)}`;
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
  const others = answer.alternatives
    ? `${plural(answer.alternatives, "other split")} of the same value.`
    : "No other split is as good.";
  return [
    el("p", {class: "status", "data-testid": "solve-status"},
      el("strong", {text: proven ? "Best split (proven): " : "Best found, not proven optimal: "}),
      valueText(answer.objective, answer.value_exact)),
    answer.note ? el("p", {class: "note", text: answer.note}) : null,
    warningsList(answer.warnings),
    el("p", {text: answer.why}),
    el("h3", {text: "Round 1, combat by combat"}),
    el("ol", {class: "solve-combats"}, answer.combats.map((combat) =>
      el("li", {"data-testid": "solve-combat"},
        el("p", {}, el("strong", {text: `Combat ${combat.name}: `}),
          standChips(combat.defenders, state.stands), " vs ",
          standChips(combat.attackers, state.stands)),
        oddsBar(combat)))),
    el("p", {class: "note", text: others}),
    el("button", {
      type: "button", "data-testid": "apply-solution",
      onclick: () => commit(answer.allocation, {step: 3, what: "The best split"}),
    }, "Show this split on the board"),
  ];
}

export function wireSolve() {
  fill($("objective"),
    Object.entries(AIMS).map(([value, text]) => el("option", {value, text})));
  for (const button of document.querySelectorAll("[data-side]")) {
    button.addEventListener("click", () => solve(button.dataset.side));
  }
}
