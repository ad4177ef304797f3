// The Check panel: the allocation built so far is checked by /api/check after every change.
import {leading, overlay} from "./allocation.js";
import {api, errorNode} from "./api.js";
import {$, el, fill, listing, odds, plural, signed} from "./dom.js";
import {warningsList, withRuleLinks} from "./show.js";
import {commit, currentStage, on, redraw, state} from "./state.js";

let ticket = 0;
let checking = false;   // a check is on its way: the status says so until its answer is drawn

/** The scenario with the given allocation (or none). */
export function scenarioWith(allocation) {
  const scenario = {...state.scenario};
  delete scenario.allocation;
  if (allocation) scenario.allocation = allocation;
  return scenario;
}

/** The check's answer while it is for the board as it is (null while a newer check is on its
 *  way: the odds of an earlier board are neither copied nor rolled). */
export function currentCheck() {
  return checking ? null : state.check;
}

/** The allocation as far as the current stage has built it (null: nothing yet). */
export function builtSoFar() {
  return leading(state.allocation, currentStage().parts);
}

export async function runCheck() {
  const mine = ++ticket;
  checking = true;
  $("check-status").dataset.state = "pending";
  try {
    const answer = await api("/api/check", {body: scenarioWith(builtSoFar())});
    if (mine !== ticket) return;
    state.check = answer;
    state.checkError = null;
  } catch (error) {
    if (mine !== ticket) return;
    state.check = null;
    state.checkError = error;
  }
  checking = false;
  redraw();
}

function violationItem(violation) {
  const stands = violation.stands.length ? ` (${violation.stands.join(", ")})` : "";
  return el("li", {"data-testid": "violation", "data-rule": violation.rule},
    el("b", {class: "rule", text: violation.rule}),
    el("span", {class: "step-tag", text: violation.step ? `step ${violation.step}` : "building"}),
    " ", withRuleLinks(violation.message),
    stands ? el("span", {class: "stands", text: stands}) : null);
}

function applyNearest() {
  commit(overlay(state.allocation, state.check.nearest_legal),
    {what: "The nearest legal allocation"});
}

export function renderCheck() {
  const status = $("check-status");
  const list = $("violations");
  list.replaceChildren();
  $("round-odds").replaceChildren();
  $("check-warnings").replaceChildren();
  if (state.checkError) {
    status.dataset.state = checking ? "pending" : "error";
    fill(status, errorNode(state.checkError, "check-error"));
    $("apply-nearest").hidden = true;
    return;
  }
  const {check} = state;
  if (!check) return;
  status.dataset.state = checking ? "pending" : check.legal ? "legal" : "illegal";
  if (!check.legal) {
    const broken = plural(check.violations.length, "broken rule");
    const left = check.still_to_place;  // the rules say which stands must still be placed
    status.textContent = left.length
      ? `Not legal yet: ${broken}; ${listing(left)} ${left.length > 1 ? "are" : "is"} still to place.`
      : `Not legal: ${broken}.`;
  } else if (builtSoFar() === null) {
    status.textContent = "Nothing placed yet; the building itself breaks no rule.";
  } else {
    status.textContent = `Legal: no rule broken${check.odds ? "." : " so far."}`;
  }
  fill($("check-warnings"), warningsList(check.warnings));
  fill(list, check.violations.map(violationItem));
  $("apply-nearest").hidden = !check.nearest_legal;
  if (check.odds) {
    const {sweep, exchange} = check.odds;
    fill($("round-odds"),
      el("p", {}, el("strong", {text: "Attacker wins every combat: "}), odds(sweep.exact)),
      el("p", {}, el("strong", {text: "Expected exchange: "}),
        `${signed(exchange.exact)} stands in the attacker's favour (${exchange.exact})`));
  }
}

export function wireCheck() {
  $("apply-nearest").addEventListener("click", applyNearest);
  on("changed", runCheck);
  on("drawn", renderCheck);
}
