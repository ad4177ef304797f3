// The Explain walkthrough (/api/explain): a stepper beside the board, one step at a time, the
// stands each step places or moves lit on the board; each step's rules linked once to their
// statements, its words the server's (why this group, against the runner-up, for the best
// line), odds as percentages and fractions. It opens at the first step broken, if any.
import {api, errorNode} from "./api.js";
import {$, el, fill} from "./dom.js";
import {builtSoFar, scenarioWith} from "./check.js";
import {AIMS} from "./solve.js";
import {oddsBar, ruleLink, warningsList, withRuleLinks} from "./show.js";
import {answered} from "./stale.js";
import {on, redraw, state} from "./state.js";

/** What each status of a step means, said to the player (the best line's: said once, above). */
const STATUS_WORDS = {
  followed: "Your allocation follows this step.",
  broken: "Your allocation breaks this step.",
  "not given": "Not placed yet.",
  "not reached": "Not reached yet.",
};

/** The walkthrough shown: its steps and the one on screen. */
const walk = {steps: [], at: 0};

function explainStep(step, index) {
  const words = STATUS_WORDS[step.status];
  return el("li", {
    "data-testid": "explain-step", "data-status": step.status, "data-step": String(step.step),
    hidden: index === walk.at ? null : true,
  },
  el("h4", {}, step.title),
  words ? el("p", {class: `step-status ${step.status.replace(" ", "-")}`,
    "data-testid": "explain-status", text: words}) : null,
  step.rules.length
    ? el("p", {class: "note rules-line"}, step.rules.length === 1 ? "Rule " : "Rules ",
      step.rules.flatMap((id, i) => [i ? ", " : "", ruleLink(id)]))
    : null,
  step.text.map((line) => el("p", {}, withRuleLinks(line))),
  step.stands.length
    ? el("p", {class: "note lit-note", "data-testid": "explain-lit"},
      `Lit on the board: ${step.stands.join(", ")}.`)
    : null,
  step.odds ? el("ul", {class: "solve-combats"}, step.odds.combats.map((combat) =>
    el("li", {}, el("strong", {text: `Combat ${combat.name}`}), oddsBar(combat)))) : null);
}

/** Show step ``at`` of the walkthrough and light its stands on the board. */
function show(at) {
  walk.at = Math.max(0, Math.min(at, walk.steps.length - 1));
  const items = $("explain-result").querySelectorAll("[data-testid=explain-step]");
  items.forEach((item, i) => { item.hidden = i !== walk.at; });
  $("explain-prev").disabled = walk.at === 0;
  $("explain-next").disabled = walk.at === walk.steps.length - 1;
  $("explain-where").textContent = `${walk.at + 1} of ${walk.steps.length}`;
  for (const button of $("explain-result").querySelectorAll("[data-goto]")) {
    const current = Number(button.dataset.goto) === walk.at;
    if (current) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
  state.lit = new Set(walk.steps[walk.at].stands);
  redraw();
}

function stepper() {
  const go = (delta) => () => show(walk.at + delta);
  return el("div", {class: "stepper"},
    el("button", {type: "button", id: "explain-prev", "data-testid": "explain-prev",
      onclick: go(-1)}, "← Previous step"),
    el("span", {id: "explain-where", class: "explain-where", "data-testid": "explain-where",
      "aria-live": "polite"}),
    el("button", {type: "button", id: "explain-next", class: "primary",
      "data-testid": "explain-next", onclick: go(1)}, "Next step →"),
    el("nav", {class: "explain-goto", "aria-label": "Go to a step"},
      walk.steps.map((step, i) => el("button", {
        type: "button", class: "quiet", "data-goto": String(i),
        "data-testid": `explain-goto-${step.step}`, title: step.title,
        onclick: () => show(i),
      }, String(step.step)))));
}

async function explain() {
  const result = $("explain-result");
  $("explain-box").hidden = false;
  fill(result, el("p", {class: "note", text: "Walking through the steps…"}));
  $("explain-box").scrollIntoView({block: "start"});
  try {
    const aim = encodeURIComponent($("objective").value);
    const answer = await api(`/api/explain?objective=${aim}`, {body: scenarioWith(builtSoFar())});
    const mode = answer.mode === "check"
      ? "Your allocation, step by step."
      : `Nothing placed yet, so this is the best line of play ` +
        `${answer.mode === "optimal" ? "" : "found in the time limit (not proven optimal) "}` +
        `for both sides (the attacker's aim: ${AIMS[answer.objective]}).`;
    walk.steps = answer.steps;
    const broken = answer.steps.findIndex((step) => step.status === "broken");
    walk.at = Math.max(broken, 0);
    fill(result,
      el("p", {class: "explain-mode", text: mode}),
      warningsList(answer.warnings),
      stepper(),
      el("ol", {class: "explain-steps"}, answer.steps.map(explainStep)));
    show(walk.at);
  } catch (error) {
    walk.steps = [];
    fill(result, errorNode(error, "explain-error"));
  }
  answered("explain-result", explain, {board: builtSoFar});
}

function close() {
  $("explain-box").hidden = true;
  state.lit = new Set();
  redraw();
  $("explain").focus();
}

export function wireExplain() {
  $("explain").addEventListener("click", explain);
  $("explain-close").addEventListener("click", close);
  on("changed", () => { state.lit = new Set(); });  // the steps lit were the earlier board's
}
