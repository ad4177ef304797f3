// The cfalloc page: build a close-combat allocation on the board, checked by the JSON API as it
// grows; set up a new fight; ask for the best split; roll the dice; read the walkthrough.
// ES modules, no build step, nothing fetched from anywhere but this server.
import {renderBoard, wireBoard} from "./js/board.js";
import {wireBuilder} from "./js/builder.js";
import {wireCheck} from "./js/check.js";
import {wireDice} from "./js/dice.js";
import {$, el, fill, useNumberFormat} from "./js/dom.js";
import {wireExplain} from "./js/explain.js";
import {wireOutside} from "./js/outside.js";
import {wirePlan} from "./js/plan.js";
import {openFirst, showScenarioError, wireScenarios} from "./js/scenarios.js";
import {loadRules} from "./js/show.js";
import {wireSaved} from "./js/saved.js";
import {wireSolve} from "./js/solve.js";
import {wireStale} from "./js/stale.js";
import {wireText} from "./js/text.js";
import {emptyAllocation} from "./js/allocation.js";
import {STAGES, useStages} from "./js/stages.js";
import {commit, on, setStep, state, undo} from "./js/state.js";

/** The glossary the rule links point to: every rule's statement, step by step. */
function renderGlossary(terms) {
  fill($("rules-list"), terms.steps.map((step) => {
    const rules = terms.rules.filter((rule) => rule.step === step.step);
    return rules.length ? [
      el("dt", {class: "glossary-step", text: step.title}),
      rules.map((rule) => el("dd", {id: `rule-${rule.id}`, tabindex: "-1"},
        el("b", {class: "rule", text: rule.id}), " ", rule.statement)),
    ] : null;
  }));
}

/** The buttons of the board's stages, as the server names them. */
function renderStageButtons() {
  $("steps").prepend(...STAGES.map((stage) => el("button", {
    type: "button", class: "step", "data-step": stage.stage, "data-testid": `step-${stage.stage}`,
    onclick: () => setStep(stage.stage),
  }, el("b", {text: String(stage.stage)}), ` ${stage.title} `,
  el("small", {text: stage.procedure}))));
}

/** The server's words, stages and number format, which every drawing of the board needs. */
async function prepare() {
  const terms = await loadRules();
  state.library.terms = terms;
  useNumberFormat(terms.numbers);
  useStages(terms.stages);
  renderStageButtons();
  renderGlossary(terms);
}

async function start() {
  // Every control answers at once; a scenario is drawn once the server's terms are in.
  const ready = prepare();
  wireBoard();
  wireCheck();
  wireSolve();
  wirePlan();
  wireDice();
  wireExplain();
  wireScenarios(ready);
  wireBuilder();
  wireStale();
  wireSaved();
  wireText();
  wireOutside();
  on("drawn", renderBoard);
  $("clear").addEventListener("click", () => {
    if (state.board) {
      commit(emptyAllocation(), {step: 1, notice: "The allocation is cleared (Undo brings it back)."});
    }
  });
  $("undo").addEventListener("click", undo);
  try {
    await ready;
  } catch (error) {
    showScenarioError(error);
    return;
  }
  await openFirst();
}

start();
