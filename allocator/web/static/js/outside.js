// A building too full on the board (B1, a scenario pasted, uploaded or shared): the server's
// words, a tick for each stand that counts against the capacity, and "Leave them outside",
// which opens the fight without them as one of the player's own, the allocation kept where the
// stands left still fit.
import {copyAllocation, prune, removeFrom} from "./allocation.js";
import {$, el, fill, listing} from "./dom.js";
import {openOwn} from "./scenarios.js";
import {ruleLink, withRuleLinks} from "./show.js";
import {on, state} from "./state.js";

/** The scenario without these defending stands (from its organisation's or its own). */
function without(scenario, gone) {
  const defender = {...scenario.defender};
  if (defender.present) {
    defender.present = defender.present
      .filter((entry) => !gone.has(typeof entry === "string" ? entry : entry.id));
  }
  if (defender.stands) defender.stands = defender.stands.filter((stand) => !gone.has(stand.id));
  return {...scenario, defender};
}

function allocationWithout(gone) {
  const allocation = copyAllocation(state.allocation);
  for (const id of gone) {
    removeFrom(allocation.combats, id);
    delete allocation.reallocate[id];
  }
  return prune(allocation);
}

function leaveOutside() {
  const gone = new Set([...$("building-problems").querySelectorAll("input:checked")]
    .map((input) => input.dataset.stand));
  if (!gone.size) return;
  openOwn(without(state.scenario, gone), `${state.board.title} (without ${listing([...gone])})`,
    {allocation: allocationWithout(gone), step: state.step});
}

let drawnFor = null;  // the board the box was drawn for: the player's ticks are kept meanwhile

function render() {
  if (!state.board || state.board === drawnFor) return;
  drawnFor = state.board;
  const problems = state.board.building_problems;
  const counted = [...new Set(problems.flatMap((problem) => problem.stands))];
  const leave = el("button", {
    type: "button", "data-testid": "board-leave-outside", disabled: true, onclick: leaveOutside,
  }, "Play it with the ticked stands outside");
  const ticked = () => {
    leave.disabled = !$("building-problems").querySelector("input:checked");
  };
  fill($("building-problems"), problems.length ? el("div", {
    class: "error-box", role: "alert", "data-testid": "board-capacity-error",
  },
  problems.map((problem) => el("p", {}, ruleLink(problem.rule), " ",
    withRuleLinks(problem.message))),
  counted.length ? [
    el("fieldset", {class: "outside-choice"},
      el("legend", {text: "Choose who stays outside"}),
      counted.map((id) => el("label", {class: "inline outside-tick"},
        el("input", {type: "checkbox", "data-stand": id, "data-testid": `board-outside-${id}`,
          onchange: ticked}),
        state.stands.get(id)?.name === id ? id : `${state.stands.get(id)?.name} (${id})`))),
    leave,
  ] : null) : null);
}

export function wireOutside() {
  on("drawn", render);
}
