// The Explain panel: the command line's walkthrough (/api/explain) in words, rule ids linked to
// their statements, odds as percentages and fractions.
import {api, errorNode} from "./api.js";
import {$, el, fill} from "./dom.js";
import {builtSoFar, scenarioWith} from "./check.js";
import {AIMS} from "./solve.js";
import {oddsBar, ruleLink, warningsList, withRuleLinks} from "./show.js";
import {answered} from "./stale.js";

/** What each status of a step means, said to the player. */
const STATUS_WORDS = {
  followed: "Your allocation follows this step.",
  optimal: "The best line of play, for both sides.",
  "best found": "The best line found in the time limit (not proven optimal).",
  broken: "Your allocation breaks this step.",
  "not given": "Not placed yet.",
  "not reached": "Not reached yet.",
};

function explainStep(step) {
  return el("li", {"data-testid": "explain-step", "data-status": step.status},
    el("h3", {}, step.title),
    el("p", {class: `step-status ${step.status.replace(" ", "-")}`,
      "data-testid": "explain-status", text: STATUS_WORDS[step.status]}),
    step.rules.length
      ? el("p", {class: "note rules-line"}, step.rules.length === 1 ? "Rule " : "Rules ",
        step.rules.flatMap((id, i) => [i ? ", " : "", ruleLink(id)]))
      : null,
    step.text.map((line) => el("p", {}, withRuleLinks(line))),
    step.odds ? el("ul", {class: "solve-combats"}, step.odds.combats.map((combat) =>
      el("li", {}, el("strong", {text: `Combat ${combat.name}`}), oddsBar(combat)))) : null);
}

async function explain() {
  const result = $("explain-result");
  fill(result, el("p", {class: "note", text: "Walking through the steps…"}));
  try {
    const aim = encodeURIComponent($("objective").value);
    const answer = await api(`/api/explain?objective=${aim}`, {body: scenarioWith(builtSoFar())});
    const mode = answer.mode === "check"
      ? "Your allocation, step by step."
      : `Nothing placed yet, so this is the best line of play ` +
        `${answer.mode === "optimal" ? "" : "found in the time limit (not proven optimal) "}` +
        `for both sides (the attacker's aim: ${AIMS[answer.objective]}).`;
    fill(result,
      el("p", {class: "explain-mode", text: mode}),
      warningsList(answer.warnings),
      el("ol", {class: "explain-steps"}, answer.steps.map(explainStep)));
  } catch (error) {
    fill(result, errorNode(error, "explain-error"));
  }
  answered("explain-result", explain, {board: builtSoFar});
}

export function wireExplain() {
  $("explain").addEventListener("click", explain);
}
