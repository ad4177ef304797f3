// Scenarios: the shipped ones (grouped in the picker), the player's own (pasted, uploaded or
// built), and the share link that reopens a scenario with its allocation.
import {depth, leading} from "./allocation.js";
import {api, ApiError, errorDetails} from "./api.js";
import {renderHead} from "./board.js";
import {$, el, fill} from "./dom.js";
import {
  anyRecord, LinkError, linkFragment, listOf, mapOf, optional, readFragment, record, text,
  wholeNumber,
} from "./link.js";
import {roundsForLink, roundsFromLink} from "./rounds.js";
import {STAGES} from "./stages.js";
import {currentStage, on, reset, state} from "./state.js";

/**
 * The picker's groups: shipped scenarios by the prefix of their names, then the player's own.
 * The rules' own cases (``rules``) are in a second picker, folded away under the first.
 */
const GROUPS = [
  {prefix: "guide-", label: "Examples from the guide"},
  {prefix: "rule-", label: "Rule by rule (a legal and a broken case of each)", rules: true},
  {prefix: "edge-", label: "Edge cases", rules: true},
  {prefix: "", label: "More scenarios"},
];

const own = [];           // the player's own scenarios: {label, scenario}
let ready = Promise.resolve();  // the server's terms, which drawing a board needs
let linkAtStart = "";     // the fragment of the link the page was opened with
let shipped = [];         // the /api/scenarios listing
let loadTicket = 0;

function groupOf(name) {
  return GROUPS.find((group) => group.prefix && name.startsWith(group.prefix)) ?? GROUPS.at(-1);
}

function optgroups(groups) {
  return groups.map((group) => {
    const items = shipped.filter((item) => groupOf(item.name) === group);
    return items.length
      ? el("optgroup", {label: group.label}, items.map((item) =>
        el("option", {value: item.name, text: item.title ?? item.name})))
      : null;
  });
}

function renderPicker() {
  const select = $("scenario-select");
  const rulesSelect = $("rules-select");
  const name = state.source?.name;
  const ruleCase = name !== undefined && groupOf(name).rules === true;
  const mine = own.length
    ? el("optgroup", {label: "Your own"}, own.map((item, i) =>
      el("option", {value: `own:${i}`, text: item.label})))
    : null;
  fill(select,
    ruleCase ? el("option", {value: "", disabled: true, text: "A case of the rules (below)"})
      : null,
    optgroups(GROUPS.filter((group) => !group.rules)), mine);
  fill(rulesSelect, el("option", {value: "", disabled: true, text: "Choose a case…"}),
    optgroups(GROUPS.filter((group) => group.rules)));
  select.value = ruleCase ? "" : name ?? "";
  rulesSelect.value = ruleCase ? name : "";
  if (ruleCase) $("rules-box").open = true;
  if (state.source?.own !== undefined) select.value = `own:${state.source.own}`;
}

export function showScenarioError(error) {
  const box = $("scenario-error");
  box.hidden = !error;
  box.replaceChildren();
  if (!error) return;
  const heading = error instanceof LinkError
    ? "This link cannot be opened." : "This scenario cannot be used.";
  fill(box, el("p", {}, el("strong", {text: heading})), errorDetails(error));
}

/**
 * Draw a scenario (its own allocation, or the given one) and start checking it. Only the latest
 * of several loads in flight is drawn.
 */
async function openScenario(scenarioPromise, source, allocation, step, rounds = []) {
  const mine = ++loadTicket;
  document.body.dataset.loading = "true";
  let scenario;
  let board;
  try {
    await ready;
    scenario = await scenarioPromise;
    board = await api("/api/board", {body: scenario});
  } finally {
    if (mine === loadTicket) delete document.body.dataset.loading;
  }
  if (mine !== loadTicket) return;
  if (allocation) fitsTheBoard(allocation, board);
  showScenarioError(null);
  const given = allocation === undefined ? scenario.allocation : allocation;
  state.scenario = {...scenario};
  delete state.scenario.allocation;
  state.source = source;
  state.board = board;
  state.stands = new Map([
    ...board.defender.map((stand) => [stand.id, {...stand, side: "defender"}]),
    ...board.attacker.map((stand) => [stand.id, {...stand, side: "attacker"}]),
  ]);
  state.check = null;
  state.rounds = rounds;
  state.played = null;
  renderHead();
  renderPicker();
  for (const id of ["solve-result", "roll-result", "explain-result"]) $(id).replaceChildren();
  reset(given, STAGES.some((s) => s.stage === step) ? step : Math.max(depth(given), 1));
}

async function guarded(opening) {
  try {
    await opening;
  } catch (error) {
    // a load still in flight (the first example's) must not draw over what went wrong
    ++loadTicket;
    delete document.body.dataset.loading;
    showScenarioError(error);
  }
}

/** Open a shipped scenario at ``step`` (by default the last its allocation reaches). */
export function loadShipped(name, step) {
  return guarded(openScenario(api(`/api/scenarios/${encodeURIComponent(name)}`), {name},
    undefined, step));
}

/**
 * Open one of the player's own scenarios, adding it to the picker's "Your own" group; with the
 * allocation and step to start at, and the rounds played before it (the next round of a fight).
 */
export function openOwn(scenario, label, {allocation, step, rounds} = {}) {
  const index = own.findIndex((item) => item.label === label);
  const entry = {label, scenario};
  if (index >= 0) own[index] = entry;
  else own.push(entry);
  return guarded(openScenario(Promise.resolve(scenario), {own: index >= 0 ? index : own.length - 1},
    allocation, step, rounds));
}

async function useText() {
  await guarded((async () => {
    const scenario = await api("/api/parse", {text: $("scenario-text").value});
    await openOwn(scenario, scenario.title ?? "Pasted scenario");
  })());
}

async function readUpload(event) {
  const file = event.target.files[0];
  if (!file) return;
  try {
    $("scenario-text").value = await file.text();
  } catch {
    showScenarioError(new ApiError({place: file.name, problem: "the file cannot be read"}));
    return;
  }
  await useText();
}

function pickFromList() {
  const value = $("scenario-select").value;
  if (value.startsWith("own:")) {
    const item = own[Number(value.slice(4))];
    return guarded(openScenario(Promise.resolve(item.scenario), {own: Number(value.slice(4))}));
  }
  return loadShipped(value);
}

// ---------------------------------------------------------------- the link

/**
 * What the link holds, part by part: a shipped scenario's name or a scenario of the player's
 * own, the allocation built so far and the step. A part not here is refused; a new part is one
 * more line.
 */
const LINK_PARTS = {
  name: text,
  scenario: anyRecord,  // the server checks it as it checks any scenario
  allocation: optional(record({
    combats: optional(mapOf(listOf(text))),
    attack: optional(mapOf(listOf(text))),
    reallocate: optional(mapOf(text)),
  })),
  step: (value, place) => wholeNumber(1, STAGES.length)(value, place),
  rounds: (value) => value,  // rounds.js checks the history, and leaves a damaged one out
};

/** What a link's fragment holds, its shape checked (null: no link); a LinkError if broken. */
function readLink(hash) {
  const saved = readFragment(hash, "scenario");
  if (saved === null) return null;
  record(LINK_PARTS)(saved, "link");
  if ((saved.name === undefined) === (saved.scenario === undefined)) {
    throw new LinkError("the link is damaged: it should hold one scenario, by its name or " +
      "whole; ask for the link again");
  }
  return saved;
}

/** Check that the link's allocation places only stands of the scenario, each on its side. */
function fitsTheBoard(allocation, board) {
  const ids = (side) => new Set(board[side].map((stand) => stand.id));
  const places = {combats: "defender", attack: "attacker"};
  for (const [part, side] of Object.entries(places)) {
    const stands = ids(side);
    for (const [name, placed] of Object.entries(allocation[part] ?? {})) {
      placed.forEach((id, i) => {
        if (!stands.has(id)) {
          throw new LinkError(`the link places ${JSON.stringify(id.slice(0, 64))}, which is ` +
            `not one of this scenario's ${side}s`, `allocation.${part}.${name}[${i}]`);
        }
      });
    }
  }
  const defenders = ids("defender");
  for (const id of Object.keys(allocation.reallocate ?? {})) {
    if (!defenders.has(id)) {
      throw new LinkError(`the link moves ${JSON.stringify(id.slice(0, 64))}, which is not ` +
        "one of this scenario's defenders", `allocation.reallocate.${id}`);
    }
  }
}

/** The link's fragment of the page's scenario, allocation, step and round history (null: none). */
export function currentLink() {
  if (!state.scenario) return null;
  const saved = state.source?.name ? {name: state.source.name} : {scenario: state.scenario};
  saved.allocation = leading(state.allocation, currentStage().parts);
  saved.step = state.step;
  Object.assign(saved, roundsForLink());
  return linkFragment(saved);
}

/** Write the page's scenario, allocation, step and round history into its link. */
export function saveToLink() {
  const link = currentLink();
  if (link) history.replaceState(null, "", link);
}

async function share() {
  saveToLink();
  const link = $("share-link");
  link.value = location.href;
  link.hidden = false;
  link.select();
  try {
    await navigator.clipboard.writeText(location.href);
    $("share-note").textContent = "Link copied: it reopens this scenario and allocation.";
  } catch {
    $("share-note").textContent = "Copy the link above: it reopens this scenario and allocation.";
  }
}

/**
 * Open what a link's fragment says: true once opened, false when it says nothing. A link that
 * cannot be opened throws why (a LinkError before any request when its shape is wrong).
 */
async function openFromLink(hash) {
  const saved = readLink(hash);
  if (saved === null) return false;
  const history = roundsFromLink(saved);
  if (saved.name !== undefined) {
    await openScenario(api(`/api/scenarios/${encodeURIComponent(saved.name)}`),
      {name: saved.name}, saved.allocation, saved.step, history.rounds);
  } else {
    own.push({label: saved.scenario.title ?? "Shared scenario", scenario: saved.scenario});
    await openScenario(Promise.resolve(saved.scenario), {own: own.length - 1},
      saved.allocation, saved.step, history.rounds);
  }
  if (history.damaged) {
    fill($("roll-result"), el("p", {class: "note", "data-testid": "history-damaged",
      text: "The link's history of the rounds played is damaged, so it is left out."}));
  }
  return true;
}

/** Open a link's fragment as a link is opened (a fight saved in the browser holds one). */
export function openLink(fragment) {
  return guarded(openFromLink(fragment));
}

/** Wire the picker, paste, upload and link; ``terms``: the page's start, awaited by any drawing. */
export function wireScenarios(terms) {
  ready = terms;
  linkAtStart = location.hash;
  $("scenario-select").addEventListener("change", pickFromList);
  $("rules-select").addEventListener("change", (event) => loadShipped(event.target.value));
  $("use-text").addEventListener("click", useText);
  $("scenario-file").addEventListener("change", readUpload);
  $("share").addEventListener("click", share);
  window.addEventListener("hashchange", () => {
    if (!location.hash.startsWith("#s=")) return;
    guarded(openFromLink(location.hash));
  });
  on("changed", saveToLink);
}

/**
 * Fill the picker, then open the scenario of the link the page was opened with, or else the
 * first legal guide example at step 1; unless the player has opened one meanwhile (pasted, uploaded or
 * built a fight while the page was starting, which also wrote its own link).
 */
export async function openFirst() {
  try {
    shipped = await api("/api/scenarios");
    renderPicker();
  } catch (error) {
    showScenarioError(error);
  }
  if (loadTicket > 0) return;
  let broken = null;  // a link that cannot be opened: said once the first example is drawn
  try {
    if (await openFromLink(linkAtStart)) return;
  } catch (error) {
    broken = error;
  }
  const tried = loadTicket;
  const first = shipped.find((item) => item.name.startsWith("guide-") && item.expect?.legal) ??
    shipped[0];
  // a new player starts where the procedure starts: step 1, the example's allocation on the board
  if (first && loadTicket === tried) await loadShipped(first.name, 1);
  if (broken) showScenarioError(broken);
}
