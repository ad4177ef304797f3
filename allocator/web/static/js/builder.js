// The force builder ("New fight"): the building, each side from an organisation of the library
// (stands ticked by unit) or units and stands of the player's own, ratings, qualities and
// suppression, surprise, the ruleset and its house rules, and who is within one stand width of
// whom (by ticks, or by dragging the attackers on a small table). The server checks the fight as
// it grows and writes it as a scenario file; "Use this fight" puts it on the board.
//
// This module asks the server and wires the buttons; the fight itself is js/builder/fight.js
// (on state.fight), its drawing js/builder/render.js and its table js/builder/table.js. Every
// request's failure is shown in the builder, in words.
import {api, gameTerms} from "./api.js";
import {$, el, listing} from "./dom.js";
import {saveFight} from "./saved.js";
import {openOwn} from "./scenarios.js";
import {fightChanged, on, state} from "./state.js";
import {SIDES, builtScenario, missingOrganisations, newFight, sideStands} from "./builder/fight.js";
import {renderAnswer, renderFightFields, renderSides} from "./builder/render.js";

/** How long after the last change the server is asked (so that typing asks once). */
const SETTLE_MS = 150;

let ticket = 0;
let timer = null;

/** A change of the fight: draw it, then check it and write its file a moment later. */
function changed({redraw = true} = {}) {
  if (redraw) renderSides();
  clearTimeout(timer);
  timer = setTimeout(refresh, SETTLE_MS);
  $("builder-status").textContent = "Checking…";
  $("builder-use").disabled = true;
}

/** The organisations the fight names, fetched once each; then their stands are drawn. */
async function loadOrganisations() {
  const missing = missingOrganisations();
  if (!missing.length) return;
  const details = await Promise.all(
    missing.map((name) => api(`/api/organisations/${encodeURIComponent(name)}`)));
  missing.forEach((name, i) => state.library.organisations.set(name, details[i]));
  renderSides();
}

async function refresh() {
  const mine = ++ticket;
  const {fight} = state;
  try {
    await loadOrganisations();
    if (mine !== ticket) return;
    const missing = SIDES.filter((side) => sideStands(side).length === 0);
    if (missing.length) {
      fight.answer = null;
      fight.error = null;
      renderAnswer(`Tick the stands of the ${listing(missing)} that take part.`);
      return;
    }
    const scenario = builtScenario();
    const [board, file] = await Promise.all([
      api("/api/board", {body: scenario}),
      api("/api/scenario-yaml", {body: scenario}),
    ]);
    if (mine !== ticket) return;
    fight.answer = {board, file, scenario};
    fight.error = null;
  } catch (error) {
    if (mine !== ticket) return;
    fight.answer = null;
    fight.error = error;
  }
  renderAnswer();
}

// ---------------------------------------------------------------- the buttons

async function copyYaml() {
  try {
    await navigator.clipboard.writeText(state.fight.answer.file.yaml);
    $("builder-note").textContent = "Copied: save it as a .yaml file and run `cfalloc check` on it.";
  } catch {
    $("builder-note").textContent = "Select the text above and copy it.";
  }
}

function downloadYaml() {
  const {yaml, file_name: name} = state.fight.answer.file;
  const link = el("a", {download: name, href: URL.createObjectURL(new Blob([yaml],
    {type: "application/yaml"}))});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function useFight() {
  const {scenario, board} = state.fight.answer;
  await openOwn(scenario, board.title);  // a failure is shown above the board
  if (state.board?.title === board.title) saveFight();  // kept over a reload
  closeBuilder();
  $("building-name").scrollIntoView({block: "start"});
  $("building-name").focus();
}

function closeBuilder() {
  $("builder").hidden = true;
  $("new-fight").setAttribute("aria-expanded", "false");
}

/** The library the builder offers, fetched once (a failure is said, and tried again next time). */
async function loadLibrary() {
  const {library} = state;
  if (library.profiles.length) return;
  const [organisations, profiles, terms] = await Promise.all([
    api("/api/organisations"), api("/api/profiles"), gameTerms(),
  ]);
  library.nations = organisations.nations;
  library.profiles = profiles.profiles;
  library.terms = terms;
}

async function openBuilder() {
  const box = $("builder");
  if (!box.hidden) {
    closeBuilder();
    return;
  }
  let failure = null;
  try {
    await loadLibrary();  // before the builder shows: nothing typed there is lost
  } catch (error) {
    failure = error;
  }
  box.hidden = false;
  $("new-fight").setAttribute("aria-expanded", "true");
  $("builder-heading").scrollIntoView({block: "start"});
  if (failure) {
    state.fight ??= {answer: null, error: failure};
    state.fight.error = failure;
    renderAnswer("The builder cannot open: the server did not give its library.");
    return;
  }
  if (!state.fight?.sides) state.fight = newFight();
  renderFightFields();
  changed();
  $("builder-title").focus();
}

function restart() {
  if (!state.library.profiles.length) return;
  state.fight = newFight();
  renderFightFields();
  changed();
}

/** Keep a field of the building in the fight (no redraw of the sides: the focus stays). */
function field(id, event, set) {
  $(id).addEventListener(event, (e) => {
    if (!state.fight?.sides) return;
    set(e.target);
    fightChanged({redraw: false});
  });
}

export function wireBuilder() {
  on("fight", changed);
  $("new-fight").addEventListener("click", openBuilder);
  $("builder-close").addEventListener("click", closeBuilder);
  $("builder-restart").addEventListener("click", restart);
  field("builder-title", "input", (input) => { state.fight.title = input.value; });
  field("builder-building", "input", (input) => { state.fight.building.name = input.value; });
  field("builder-capacity", "input", (input) => {
    state.fight.building.capacity = Number(input.value);
  });
  field("builder-surprise", "change", (input) => { state.fight.surprise = input.checked; });
  $("builder-profile").addEventListener("change", (e) => {
    if (!state.fight?.sides) return;
    state.fight.profile = e.target.value;
    state.fight.overrides = {};
    renderFightFields();
    fightChanged({redraw: false});
  });
  $("builder-copy").addEventListener("click", copyYaml);
  $("builder-download").addEventListener("click", downloadYaml);
  $("builder-use").addEventListener("click", useFight);
}
