// The cfalloc page: build a close-combat allocation by clicks, checked by the JSON API as it grows.
// Plain JavaScript, no build step, nothing fetched from anywhere but this server.
"use strict";

const TYPE_LABELS = {
  rifle: "Rifle", smg: "SMG", engineer: "Engineer", jhmg: "HMG squad", hmg: "HMG",
  mortar: "Mortar", gun: "Gun", pc: "PC", cc: "CC", bc: "BC", commissar: "Commissar",
  fo: "FO", sniper: "Sniper",
};
const ROLE_LABELS = {
  squad: "squad", weapon: "crew-served weapon", leader: "leader", noncombatant: "non-combatant",
};
const STEP_HELP = {
  1: "Steps 1–3, the defender: click a defending stand, then a combat or “New combat” " +
    "(or drag it there). " +
    "Every squad forms its own combat; a crew-served weapon may join one squad of its own " +
    "unit; leaders join a combat holding their troops.",
  2: "Steps 4–5, the attacker: click (or drag) an attacking stand to the combat it assaults. " +
    "Every combat gets a squad before any gets a second; a leader must be within one stand " +
    "width of a squad he joins.",
  3: "Step 6, the defender again: every stand of a combat that got no attacker moves into a " +
    "combat with attackers. Click it, then its new combat, or drag it there.",
};
const PARTS_BY_STEP = {
  1: ["combats"],
  2: ["combats", "attack"],
  3: ["combats", "attack", "reallocate"],
};

const state = {
  shippedName: null,     // the shipped scenario's name, or null for a pasted one
  scenario: null,        // the scenario data, as the API takes it
  board: null,           // the /api/forces answer: building and both sides' stands
  stands: new Map(),     // stand id -> stand (with its side)
  step: 1,
  allocation: emptyAllocation(),
  selected: null,        // the id of the stand picked up by a click
  check: null,           // the last /api/check answer
  checkError: null,
  checkTicket: 0,
  loadTicket: 0,
  dragging: false,        // a counter is being dragged: keep the board as it is
};

// ---------------------------------------------------------------- helpers

function emptyAllocation() {
  return {combats: {}, attack: {}, reallocate: {}};
}

function $(id) {
  return document.getElementById(id);
}

/** Build an element: attributes (text, class, on<event>, others) and children. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...present(children));
  return node;
}

/** The children worth adding: nested lists flattened, null, undefined and false left out. */
function present(children) {
  return children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
}

/** Replace a node's children. */
function fill(node, ...children) {
  node.replaceChildren(...present(children));
}

function percent(p) {
  return `${(p * 100).toFixed(1)}%`;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** A 4xx/5xx answer (or no answer), carrying the API's {file, place, problem}. */
class ApiError extends Error {
  constructor(error) {
    super([error.file, error.place, error.problem].filter(Boolean).join(": "));
    this.error = error;
  }
}

/** Call the JSON API: its answer, or an ApiError. */
async function api(path, {body, text} = {}) {
  const options = {};
  if (body !== undefined || text !== undefined) {
    options.method = "POST";
    options.headers = {"Content-Type": text === undefined ? "application/json" : "text/plain"};
    options.body = text === undefined ? JSON.stringify(body) : text;
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError({problem: "the server cannot be reached: is `cfalloc serve` running?"});
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    const problem = `the server answered ${response.status} ${response.statusText}`;
    throw new ApiError(answer?.error ?? {problem});
  }
  return answer;
}

/** Where and what: the place (when known) and the problem of an error. */
function errorDetails(error) {
  const details = error.error ?? {problem: String(error.message ?? error)};
  return [
    details.place
      ? el("p", {}, el("strong", {text: "Where: "}),
        el("code", {"data-testid": "error-place", text: details.place}))
      : null,
    el("p", {"data-testid": "error-problem"}, el("strong", {text: "Problem: "}), details.problem),
  ];
}

function errorNode(error, testid) {
  return el("div", {class: "error-box", role: "alert", "data-testid": testid}, errorDetails(error));
}

// ---------------------------------------------------------------- the allocation

function scenarioWith(allocation) {
  const scenario = {...state.scenario};
  delete scenario.allocation;
  if (allocation) scenario.allocation = allocation;
  return scenario;
}

function nonEmpty(mapping) {
  return Object.fromEntries(Object.entries(mapping).filter(([, ids]) => ids.length > 0));
}

/** The leading part of the allocation that the current step has built (null: nothing yet). */
function allocationUpToStep(step = state.step) {
  const {combats, attack, reallocate} = state.allocation;
  if (step === 1 && Object.keys(combats).length === 0) return null;
  const parts = {combats, attack: nonEmpty(attack), reallocate};
  return Object.fromEntries(PARTS_BY_STEP[step].map((part) => [part, parts[part]]));
}

function combatOf(id) {
  return Object.keys(state.allocation.combats)
    .find((name) => state.allocation.combats[name].includes(id)) ?? null;
}

function attackOf(id) {
  return Object.keys(state.allocation.attack)
    .find((name) => state.allocation.attack[name].includes(id)) ?? null;
}

function removeFrom(mapping, id) {
  for (const ids of Object.values(mapping)) {
    const index = ids.indexOf(id);
    if (index >= 0) ids.splice(index, 1);
  }
}

function newCombatName() {
  for (let i = 0; ; i += 1) {
    const name = i < 26 ? String.fromCharCode(65 + i) : `C${i + 1}`;
    if (!(name in state.allocation.combats)) return name;
  }
}

/** Drop what no longer fits: empty combats, attacks and moves into combats that are gone. */
function prune() {
  const {combats, attack, reallocate} = state.allocation;
  for (const [name, ids] of Object.entries(combats)) if (ids.length === 0) delete combats[name];
  for (const name of Object.keys(attack)) if (!(name in combats)) delete attack[name];
  for (const [id, target] of Object.entries(reallocate)) {
    if (!(target in combats) || combatOf(id) === null || combatOf(id) === target) {
      delete reallocate[id];
    }
  }
}

function canPick(stand) {
  if (state.step === 2) return stand.side === "attacker";
  if (state.step === 3) return stand.side === "defender" && combatOf(stand.id) !== null;
  return stand.side === "defender";
}

function pick(id) {
  state.selected = state.selected === id ? null : id;
  render();
}

/**
 * Let an element take a dragged counter: dropping it there is picking it, then clicking the
 * element (``target`` as for :func:`place`; a function decides whether this stand may go there).
 */
function dropZone(element, target, accepts = () => true) {
  element.addEventListener("dragover", (event) => event.preventDefault());
  element.addEventListener("drop", (event) => {
    event.preventDefault();
    event.stopPropagation();
    const stand = state.stands.get(event.dataTransfer.getData("text/plain"));
    state.dragging = false;
    if (!stand || !canPick(stand) || !accepts(stand)) return;
    state.selected = stand.id;
    place(target);
  });
  return element;
}

/** Put the picked stand into a combat ("new" opens one; null sends it back to its pool). */
function place(target) {
  const id = state.selected;
  if (!id) return;
  const {combats, attack, reallocate} = state.allocation;
  if (state.step === 1) {
    removeFrom(combats, id);
    const name = target === "new" ? newCombatName() : target;
    if (name) (combats[name] ??= []).push(id);
  } else if (state.step === 2) {
    removeFrom(attack, id);
    if (target) (attack[target] ??= []).push(id);
  } else if (target && target !== combatOf(id)) {
    reallocate[id] = target;
  } else {
    delete reallocate[id];
  }
  state.selected = null;
  changed();
}

function setAllocation(allocation, step) {
  state.allocation = {
    combats: structuredClone(allocation?.combats ?? {}),
    attack: structuredClone(allocation?.attack ?? {}),
    reallocate: structuredClone(allocation?.reallocate ?? {}),
  };
  const depth = ["combats", "attack", "reallocate"].filter((part) => allocation?.[part]).length;
  state.step = [1, 2, 3].includes(step) ? step : Math.max(depth, 1);
  state.selected = null;
  changed();
}

function setStep(step) {
  state.step = step;
  state.selected = null;
  changed();
}

/** After every move: tidy up, redraw, remember it in the link, and check it. */
function changed() {
  prune();
  saveToLink();
  render();
  runCheck();
}

async function runCheck() {
  const ticket = ++state.checkTicket;
  $("check-status").dataset.state = "pending";
  try {
    const answer = await api("/api/check", {body: scenarioWith(allocationUpToStep())});
    if (ticket !== state.checkTicket) return;
    state.check = answer;
    state.checkError = null;
  } catch (error) {
    if (ticket !== state.checkTicket) return;
    state.check = null;
    state.checkError = error;
  }
  // Redrawing the board under a drag would cancel it: the drop redraws anyway.
  if (state.dragging) renderCheck();
  else render();
}

// ---------------------------------------------------------------- the link

function encodeState(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const binary = Array.from(bytes, (byte) => String.fromCharCode(byte)).join("");
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function decodeState(text) {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
}

function saveToLink() {
  if (!state.scenario) return;
  const saved = state.shippedName ? {name: state.shippedName} : {scenario: scenarioWith(null)};
  saved.allocation = allocationUpToStep();
  saved.step = state.step;
  history.replaceState(null, "", `#s=${encodeState(saved)}`);
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

async function openFromLink() {
  const match = location.hash.match(/^#s=([A-Za-z0-9_-]+)$/);
  if (!match) return false;
  let saved;
  try {
    saved = decodeState(match[1]);
  } catch {
    showScenarioError(new ApiError({place: "link", problem: "the link is damaged"}));
    return false;
  }
  const scenario = saved.name
    ? api(`/api/scenarios/${encodeURIComponent(saved.name)}`)
    : Promise.resolve(saved.scenario);
  try {
    await openScenario(scenario, saved.name ?? null, saved.allocation, saved.step);
  } catch (error) {
    showScenarioError(error);
  }
  return true;
}

// ---------------------------------------------------------------- scenarios

function showScenarioError(error) {
  const box = $("scenario-error");
  box.hidden = !error;
  box.replaceChildren();
  if (!error) return;
  fill(box, el("p", {}, el("strong", {text: "This scenario cannot be used."})), errorDetails(error));
}

/**
 * Draw a scenario (its own allocation, or the given one) and start checking it. Only the latest
 * of several loads in flight is drawn.
 */
async function openScenario(scenarioPromise, shippedName, allocation, step) {
  const ticket = ++state.loadTicket;
  const scenario = await scenarioPromise;
  const board = await api("/api/forces", {body: scenario});
  if (ticket !== state.loadTicket) return;
  showScenarioError(null);
  state.scenario = scenario;
  state.shippedName = shippedName;
  state.board = board;
  state.stands = new Map([
    ...board.defender.map((stand) => [stand.id, {...stand, side: "defender"}]),
    ...board.attacker.map((stand) => [stand.id, {...stand, side: "attacker"}]),
  ]);
  state.check = null;
  renderHead();
  for (const id of ["solve-result", "roll-result", "explain-result"]) $(id).replaceChildren();
  $("apply-nearest").hidden = true;
  setAllocation(allocation === undefined ? scenario.allocation : allocation, step);
}

async function loadShipped(name) {
  try {
    await openScenario(api(`/api/scenarios/${encodeURIComponent(name)}`), name);
  } catch (error) {
    showScenarioError(error);
  }
}

async function useText() {
  try {
    await openScenario(api("/api/parse", {text: $("scenario-text").value}), null);
  } catch (error) {
    showScenarioError(error);
  }
}

async function readUpload(event) {
  const file = event.target.files[0];
  if (!file) return;
  $("scenario-text").value = await file.text();
  await useText();
}

async function fillScenarioList() {
  const select = $("scenario-select");
  const list = await api("/api/scenarios");
  fill(select, list.map((item) => el("option", {value: item.name, text: item.title ?? item.name})));
  return list;
}

// ---------------------------------------------------------------- drawing

function violationsByStand() {
  const byStand = new Map();
  for (const violation of state.check?.violations ?? []) {
    for (const id of violation.stands) {
      if (!byStand.has(id)) byStand.set(id, []);
      byStand.get(id).push(violation);
    }
  }
  return byStand;
}

function standLabel(stand) {
  const rating = stand.rating === null ? "" : `, rating +${stand.rating}`;
  return `${stand.side} ${TYPE_LABELS[stand.type]} ${stand.id} (${ROLE_LABELS[stand.role]}), ` +
    `unit ${stand.unit}${rating}`;
}

function counter(stand, broken, note = null) {
  const pickable = canPick(stand);
  const picked = state.selected === stand.id;
  const rules = [...new Set(broken.map((v) => v.rule))];
  const classes = ["counter", stand.side, `role-${stand.role}`];
  if (picked) classes.push("picked");
  if (pickable) classes.push("pickable");
  if (rules.length) classes.push("broken");
  return el("button", {
    type: "button",
    class: classes.join(" "),
    "data-testid": `counter-${stand.id}`,
    "aria-pressed": String(picked),
    "aria-disabled": String(!pickable),
    "aria-label": standLabel(stand) + (rules.length ? `; breaks rule ${rules.join(", ")}` : ""),
    title: broken.map((v) => `${v.rule}: ${v.message}`).join("\n") || null,
    onclick: (event) => {
      if (!pickable) return;  // let the click reach the combat box around it
      event.stopPropagation();
      pick(stand.id);
    },
    draggable: String(pickable),
    ondragstart: (event) => {
      state.dragging = true;
      event.dataTransfer.setData("text/plain", stand.id);
      event.dataTransfer.effectAllowed = "move";
    },
    ondragend: () => {
      state.dragging = false;
      render();
    },
  },
  el("span", {class: "c-type", text: TYPE_LABELS[stand.type]}),
  el("span", {class: "c-id", text: stand.id}),
  el("span", {class: "c-unit", text: stand.unit}),
  stand.rating === null ? null : el("span", {class: "c-rating", text: `+${stand.rating}`}),
  stand.quality === "regular" ? null : el("span", {class: "c-tag", text: stand.quality}),
  stand.suppressed ? el("span", {class: "c-tag", text: "suppressed"}) : null,
  note ? el("span", {class: "c-note", text: note}) : null,
  rules.length
    ? el("span", {class: "badge", "data-testid": `badge-${stand.id}`, text: rules.join(" ")})
    : null);
}

function boxViolations(ids, byStand) {
  const seen = new Set();
  const items = [];
  for (const id of ids) {
    for (const violation of byStand.get(id) ?? []) {
      if (seen.has(violation)) continue;
      seen.add(violation);
      items.push(el("li", {"data-testid": "box-violation", "data-rule": violation.rule},
        el("b", {class: "rule", text: violation.rule}), " ", violation.message));
    }
  }
  return items.length ? el("ul", {class: "box-violations"}, items) : null;
}

/** A combat's odds: the attacker's share of the bar from the left, with both totals. */
function oddsBar(combat) {
  const p = combat.p_attacker_wins;
  const fill = el("span", {class: "odds-attacker"});
  fill.style.width = `${p * 100}%`;
  return el("div", {
    class: "odds", "data-testid": "odds-bar", "data-p": String(p), role: "img",
    "aria-label": `attacker wins ${percent(p)}, defender ${percent(1 - p)}`,
  },
  el("div", {class: "odds-track"}, fill),
  el("div", {class: "odds-text"},
    el("span", {class: "attacker-text", text: `Attacker ${percent(p)}`}),
    el("span", {
      class: "totals", text: `totals ${combat.attacker_total} : ${combat.defender_total}`,
    }),
    el("span", {class: "defender-text", text: `Defender ${percent(1 - p)}`})),
  combat.decided ? el("p", {class: "note", text: combat.decided}) : null);
}

function pool(side, ids, byStand) {
  const box = $(`${side}-pool`);
  const stands = ids.map((id) => state.stands.get(id));
  const picked = state.selected ? state.stands.get(state.selected) : null;
  const backTarget = picked?.side === side && state.step !== 3 && !ids.includes(picked.id);
  box.classList.toggle("target", backTarget);
  box.onclick = backTarget ? () => place(null) : null;
  fill(box,
    backTarget ? el("button", {
      type: "button", class: "place", "data-testid": `unplace-${side}`,
      onclick: (event) => { event.stopPropagation(); place(null); },
    }, `Take ${picked.id} out of its combat`) : null,
    stands.map((stand) => counter(stand, byStand.get(stand.id) ?? [])),
    stands.length ? null : el("p", {class: "note", text: "None: every stand is in a combat."}),
    boxViolations(ids, byStand),
  );
}

function combatBox(name, byStand, oddsByName) {
  const {combats, attack, reallocate} = state.allocation;
  const movedAway = new Set(Object.keys(reallocate));
  const stays = combats[name].filter((id) => !movedAway.has(id));
  const movedIn = Object.keys(reallocate).filter((id) => reallocate[id] === name);
  const attackers = attack[name] ?? [];
  const picked = state.selected ? state.stands.get(state.selected) : null;
  const target = picked !== null && canPick(picked);
  const unopposed = state.step >= 2 && attackers.length === 0;
  const odds = oddsByName.get(name);
  const allIds = [...stays, ...movedIn, ...attackers];
  return dropZone(el("section", {
    class: `combat${target ? " target" : ""}${unopposed ? " unopposed" : ""}`,
    "data-testid": `combat-${name}`,
    "aria-label": `Combat ${name}`,
    onclick: target ? () => place(name) : null,
  },
  el("header", {},
    el("h4", {text: `Combat ${name}`}),
    unopposed ? el("span", {class: "flag", text: "no attacker"}) : null,
    target ? el("button", {
      type: "button", class: "place", "data-testid": `place-${name}`,
      "aria-label": `Put ${picked.id} in combat ${name}`,
      onclick: (event) => { event.stopPropagation(); place(name); },
    }, `Put ${picked.id} here`) : null),
  el("div", {class: "sides"},
    el("div", {class: "combat-side defender"},
      stays.map((id) => counter(state.stands.get(id), byStand.get(id) ?? [])),
      movedIn.map((id) => counter(
        state.stands.get(id), byStand.get(id) ?? [], `from ${combatOf(id)}`))),
    el("div", {class: "versus", "aria-hidden": "true", text: "vs"}),
    el("div", {class: "combat-side attacker"},
      attackers.map((id) => counter(state.stands.get(id), byStand.get(id) ?? [])),
      attackers.length ? null : el("p", {class: "note", text: "no attacker yet"}))),
  odds ? oddsBar(odds) : null,
  boxViolations(allIds, byStand)), name);
}

function renderHead() {
  const board = state.board;
  const building = board.building;
  $("building-name").textContent = `${board.title ?? building.name}`;
  const inside = board.defender.filter((s) => s.role === "squad" || s.role === "weapon").length;
  $("building-meta").textContent = `${building.name}: holds ${building.capacity} squads and ` +
    `crew-served weapons; ${inside} inside. ${plural(board.defender.length, "defending stand")}, ` +
    `${plural(board.attacker.length, "attacking stand")}.`;
  $("scenario-description").textContent = board.description ?? "";
}

function renderBoard(byStand) {
  const {combats} = state.allocation;
  const oddsByName = new Map((state.check?.odds?.combats ?? []).map((c) => [c.name, c]));
  const defenders = state.board.defender.map((s) => s.id).filter((id) => combatOf(id) === null);
  const attackers = state.board.attacker.map((s) => s.id).filter((id) => attackOf(id) === null);
  pool("defender", defenders, byStand);
  pool("attacker", attackers, byStand);
  const boxes = Object.keys(combats).map((name) => combatBox(name, byStand, oddsByName));
  if (state.step === 1) {
    const ready = state.selected !== null;
    boxes.push(dropZone(el("button", {
      type: "button", class: `combat new-combat${ready ? " target" : ""}`,
      "data-testid": "new-combat", "aria-disabled": String(!ready),
      onclick: () => ready && place("new"),
    }, ready ? `New combat with ${state.selected}`
      : "New combat (pick or drag a defending stand here)"), "new"));
  }
  if (boxes.length === 0) boxes.push(el("p", {class: "note", text: "No combats yet."}));
  fill($("combats"), ...boxes);
}

function renderSteps() {
  for (const button of document.querySelectorAll(".step")) {
    const current = Number(button.dataset.step) === state.step;
    button.classList.toggle("current", current);
    if (current) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
  let help = STEP_HELP[state.step];
  if (state.selected) help = `${state.selected} is picked up: click a combat to put it there` +
    (state.step === 3 ? "." : ", or its side's pool to take it back.");
  $("step-help").textContent = help;
}

function renderCheck() {
  const status = $("check-status");
  const list = $("violations");
  list.replaceChildren();
  $("round-odds").replaceChildren();
  if (state.checkError) {
    status.dataset.state = "error";
    fill(status, errorNode(state.checkError, "check-error"));
    $("apply-nearest").hidden = true;
    return;
  }
  const check = state.check;
  if (!check) return;
  const complete = state.step === 3;
  status.dataset.state = check.legal ? "legal" : "illegal";
  if (!check.legal) {
    status.textContent = `Not legal: ${plural(check.violations.length, "broken rule")}.`;
  } else if (allocationUpToStep() === null) {
    status.textContent = "Nothing placed yet; the building itself breaks no rule.";
  } else {
    status.textContent = `Legal: no rule broken${complete ? "." : " so far."}`;
  }
  fill(list, check.violations.map(violationItem));
  $("apply-nearest").hidden = !check.nearest_legal;
  if (check.odds?.sweep) {
    const {sweep, exchange} = check.odds;
    const sign = exchange.value >= 0 ? "+" : "";
    fill($("round-odds"),
      el("p", {}, el("strong", {text: "Attacker wins every combat: "}),
        `${percent(sweep.value)} (${sweep.exact})`),
      el("p", {}, el("strong", {text: "Expected exchange: "}),
        `${sign}${exchange.value.toFixed(2)} stands in the attacker's favour`));
  }
}

function violationItem(violation) {
  const stands = violation.stands.length ? ` (${violation.stands.join(", ")})` : "";
  return el("li", {"data-testid": "violation", "data-rule": violation.rule},
    el("b", {class: "rule", text: violation.rule}),
    el("span", {class: "step-tag", text: violation.step ? `step ${violation.step}` : "building"}),
    " ", violation.message,
    stands ? el("span", {class: "stands", text: stands}) : null);
}

function render() {
  if (!state.board) return;
  const byStand = violationsByStand();
  renderSteps();
  renderBoard(byStand);
  renderCheck();
}

// ---------------------------------------------------------------- best split, dice, explain

function standChips(ids) {
  return ids.map((id) => el("span", {class: `chip ${state.stands.get(id)?.side ?? ""}`, text: id}));
}

async function solve(side) {
  const result = $("solve-result");
  const buttons = document.querySelectorAll("[data-side]");
  const combats = nonEmpty(state.allocation.combats);
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
  const value = answer.objective === "sweep"
    ? `attacker wins every combat ${percent(answer.value)} (${answer.value_exact})`
    : `expected exchange ${answer.value.toFixed(2)} (${answer.value_exact})`;
  const others = answer.alternatives
    ? `${plural(answer.alternatives, "other split")} of the same value.`
    : "No other split is as good.";
  return [
    el("p", {class: "status", "data-testid": "solve-status"},
      el("strong", {text: proven ? "Best split (proven): " : "Best found (time ran out): "}),
      value),
    answer.why ? el("p", {text: answer.why}) : null,
    el("ol", {class: "solve-combats"}, answer.combats.map((combat) =>
      el("li", {"data-testid": "solve-combat"},
        el("p", {}, el("strong", {text: `Combat ${combat.name}: `}),
          standChips(combat.defenders), " vs ", standChips(combat.attackers)),
        oddsBar(combat)))),
    el("p", {class: "note", text: others}),
    el("button", {
      type: "button", "data-testid": "apply-solution",
      onclick: () => setAllocation(answer.allocation, 3),
    }, "Show this split on the board"),
  ];
}

function rollLine(roll, combat) {
  const attacker = roll.attacker + combat.attacker_total;
  const defender = roll.defender + combat.defender_total;
  return `attacker rolls ${roll.attacker} → ${attacker}, ` +
    `defender rolls ${roll.defender} → ${defender}`;
}

async function roll() {
  const seedInput = $("seed");
  if (seedInput.value === "") seedInput.value = String(Math.floor(Math.random() * 1_000_000));
  const result = $("roll-result");
  const complete = allocationUpToStep(3);
  const body = {scenario: scenarioWith(complete), seed: Number(seedInput.value)};
  try {
    const answer = await api("/api/simulate", {body});
    const rounds = answer.rounds;
    fill(result,
      rounds.map((round) => el("div", {class: "round"},
        rounds.length > 1 ? el("h3", {text: `Round ${round.round}`}) : null,
        el("ul", {class: "roll-combats"}, round.combats.map(rolledCombat)))),
      answer.winner ? el("p", {class: "status", text: fightEnd(answer.winner)}) : null);
  } catch (error) {
    fill(result, errorNode(error, "roll-error"));
  }
}

function fightEnd(winner) {
  return `The fight ends: the ${winner} holds the building.`;
}

function rolledCombat(combat) {
  const dice = combat.rolls.map((roll) => rollLine(roll, combat)).join("; then ");
  const losers = combat.winner === "attacker" ? combat.defenders : combat.attackers;
  return el("li", {
    class: `won-by-${combat.winner}`, "data-testid": "roll-combat", "data-winner": combat.winner,
  },
  el("strong", {text: `Combat ${combat.name}: the ${combat.winner} wins. `}),
  dice || combat.note,
  el("br"), "Removed: ", standChips(losers));
}

/** Draw one value of the explanation: text as a paragraph, lists as lists, the rest as JSON. */
function explainValue(value) {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return el("p", {text: String(value)});
  }
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return el("ul", {}, value.map((item) => el("li", {text: item})));
  }
  return el("pre", {text: JSON.stringify(value, null, 2)});
}

async function explain() {
  const result = $("explain-result");
  try {
    const answer = await api("/api/explain", {body: scenarioWith(allocationUpToStep())});
    const steps = Array.isArray(answer) ? answer : answer.steps ?? [answer];
    fill(result, el("ol", {class: "explain-steps"}, steps.map((step) => {
      const {title, step: number, ...rest} = step;
      return el("li", {"data-testid": "explain-step"},
        el("h3", {text: title ?? `Step ${number}`}),
        Object.values(rest).filter((value) => value !== null).map(explainValue));
    })));
  } catch (error) {
    fill(result, errorNode(error, "explain-error"));
  }
}

// ---------------------------------------------------------------- start

function wire() {
  $("load-shipped").addEventListener("click", () => loadShipped($("scenario-select").value));
  $("scenario-select").addEventListener("change", () => loadShipped($("scenario-select").value));
  $("use-text").addEventListener("click", useText);
  $("scenario-file").addEventListener("change", readUpload);
  $("share").addEventListener("click", share);
  $("clear").addEventListener("click", () => setAllocation(null, 1));
  $("apply-nearest").addEventListener("click",
    () => setAllocation(state.check.nearest_legal, state.step));
  $("roll").addEventListener("click", roll);
  $("explain").addEventListener("click", explain);
  for (const button of document.querySelectorAll(".step")) {
    button.addEventListener("click", () => setStep(Number(button.dataset.step)));
  }
  for (const button of document.querySelectorAll("[data-side]")) {
    button.addEventListener("click", () => solve(button.dataset.side));
  }
  window.addEventListener("hashchange", openFromLink);
  // Dragging a counter back to its pool takes it out of its combat, as the "Take out" button.
  dropZone($("defender-pool"), null,
    (stand) => stand.side === "defender" && state.step === 1 && combatOf(stand.id) !== null);
  dropZone($("attacker-pool"), null,
    (stand) => stand.side === "attacker" && attackOf(stand.id) !== null);
}

async function start() {
  wire();
  let list = [];
  try {
    list = await fillScenarioList();
  } catch (error) {
    showScenarioError(error);
  }
  if (await openFromLink()) {
    if (state.shippedName) $("scenario-select").value = state.shippedName;
    return;
  }
  const first = list.find((item) => item.name.startsWith("guide-")) ?? list[0];
  // The player may have pasted or uploaded a scenario while the list was loading: keep it.
  if (first && state.loadTicket === 0) {
    $("scenario-select").value = first.name;
    await loadShipped(first.name);
  }
}

document.addEventListener("DOMContentLoaded", start);
