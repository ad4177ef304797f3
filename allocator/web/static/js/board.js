// The board: the building's combats between the two pools of counters. A counter is picked up by
// a click (or Enter) and put down on a combat, "New combat" or its pool; or dragged there.
import {combatOf, copyAllocation, unplaced} from "./allocation.js";
import {$, el, fill} from "./dom.js";
import {oddsBar, withRuleLinks} from "./show.js";
import {commit, currentStage, pick, redraw, state} from "./state.js";

/** The combat box a counter is put into by "New combat": the first free name the server gave. */
function newCombatName() {
  return state.board.combat_names.find((name) => !(name in state.allocation.combats));
}

function placedIn(stand) {
  return stand ? currentStage().placeOf(state.allocation, stand.id) : null;
}

function canMove(stand) {
  return currentStage().canMove(stand, state.allocation);
}

/** Put the picked stand into a combat ("new" opens one; null sends it back to its pool). */
export function place(target) {
  const id = state.selected;
  if (!id) return;
  const stage = currentStage();
  const name = target === "new" ? newCombatName() : target;
  const allocation = copyAllocation(state.allocation);
  stage.move(allocation, id, name);
  state.focus = `counter-${id}`;
  const what = name ? `Putting ${id} into combat ${name}` : `Taking ${id} out`;
  commit(allocation, {expected: {id, part: stage.part}, what});
}

/** Put the picked stand down without moving it; the focus goes back to it. */
export function drop() {
  if (!state.selected) return;
  state.focus = `counter-${state.selected}`;
  state.selected = null;
  redraw();
}

/**
 * Let an element take a dragged counter: dropping it there is picking it, then choosing the
 * element (``target`` as for :func:`place`; ``accepts`` decides whether this stand may go there).
 */
function dropZone(element, target, accepts = () => true) {
  element.addEventListener("dragover", (event) => event.preventDefault());
  element.addEventListener("drop", (event) => {
    event.preventDefault();
    event.stopPropagation();
    const stand = state.stands.get(event.dataTransfer.getData("text/plain"));
    state.dragging = false;
    if (!stand || !canMove(stand) || !accepts(stand)) return;
    state.selected = stand.id;
    place(target);
  });
  return element;
}

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

function counter(stand, broken, note = null) {
  const movable = canMove(stand);
  const picked = state.selected === stand.id;
  const rules = [...new Set(broken.map((v) => v.rule))];
  const classes = ["counter", stand.side, `role-${stand.role}`];
  if (picked) classes.push("picked");
  if (movable) classes.push("pickable");
  if (rules.length) classes.push("broken");
  const lit = state.lit.has(stand.id);
  if (lit) classes.push("lit");
  return el("button", {
    type: "button",
    class: classes.join(" "),
    "data-testid": `counter-${stand.id}`,
    "aria-pressed": String(picked),
    "aria-disabled": String(!movable),
    tabindex: movable ? null : "-1",
    "aria-label": stand.description + (picked ? "; picked up" : "") +
      (lit ? "; in the step explained" : "") +
      (rules.length ? `; breaks rule ${rules.join(", ")}` : ""),
    title: [`${stand.name} (${stand.id})`, ...broken.map((v) => `${v.rule}: ${v.message}`)]
      .join("\n"),
    onclick: (event) => {
      if (!movable) return;  // let the click reach the combat box around it
      event.stopPropagation();
      pick(stand.id, picked ? `counter-${stand.id}` : firstTarget(stand));
    },
    onkeydown: (event) => {
      if (event.key === "Escape") drop();
    },
    draggable: String(movable),
    ondragstart: (event) => {
      state.dragging = true;
      event.dataTransfer.setData("text/plain", stand.id);
      event.dataTransfer.effectAllowed = "move";
    },
    ondragend: () => {
      state.dragging = false;
      redraw();
    },
  },
  el("span", {class: "c-type", text: stand.label}),
  el("span", {class: "c-id", text: stand.counter_label}),
  el("span", {class: "c-unit", text: stand.unit}),
  stand.rating === null ? null : el("span", {class: "c-rating", text: `+${stand.rating}`}),
  stand.quality === state.library.terms.fields.quality.default
    ? null : el("span", {class: "c-tag", text: stand.quality}),
  stand.suppressed ? el("span", {class: "c-tag", text: "suppressed"}) : null,
  note ? el("span", {class: "c-note", text: note}) : null,
  picked ? el("span", {class: "c-picked", text: "picked up"}) : null,
  rules.length
    ? el("span", {class: "badge", "data-testid": `badge-${stand.id}`, text: rules.join(" ")})
    : null);
}

/** Where the keyboard goes when a stand is picked up: the first place it can be put. */
function firstTarget(stand) {
  const names = Object.keys(state.allocation.combats).filter((n) => n !== placedIn(stand));
  if (names.length) return `place-${names[0]}`;
  return currentStage().opensCombats ? "new-combat" : `counter-${stand.id}`;
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

function pool(side, ids, byStand) {
  const box = $(`${side}-pool`);
  const stage = currentStage();
  const picked = state.selected ? state.stands.get(state.selected) : null;
  const backTarget = stage.pool !== null && picked?.side === side && placedIn(picked) !== null;
  box.classList.toggle("target", backTarget);
  box.onclick = backTarget ? () => place(null) : null;
  const apart = new Set(side === "attacker" ? state.board.not_fighting : []);
  const drawn = (id) => counter(state.stands.get(id), byStand.get(id) ?? []);
  const out = ids.filter((id) => apart.has(id));
  fill(box,
    backTarget ? el("button", {
      type: "button", class: "place", "data-testid": `unplace-${side}`,
      onclick: (event) => { event.stopPropagation(); place(null); },
    }, stage.pool.replace("{id}", picked.id)) : null,
    ids.filter((id) => !apart.has(id)).map(drawn),
    out.length ? el("div", {class: "not-fighting", "data-testid": "not-fighting"},
      el("p", {class: "note"}, withRuleLinks(state.board.not_fighting_words)), out.map(drawn))
      : null,
    ids.length ? null : el("p", {class: "note", text: "None: every stand is in a combat."}),
    boxViolations(ids, byStand),
  );
}

function combatBox(name, byStand, oddsByName) {
  const {combats, attack, reallocate} = state.allocation;
  const stays = combats[name].filter((id) => !(id in reallocate));
  const movedIn = Object.keys(reallocate).filter((id) => reallocate[id] === name);
  const attackers = attack[name] ?? [];
  const picked = state.selected ? state.stands.get(state.selected) : null;
  const target = picked !== null && placedIn(picked) !== name;
  const unopposed = state.step >= 2 && attackers.length === 0;
  const odds = oddsByName.get(name);
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
      onkeydown: (event) => { if (event.key === "Escape") drop(); },
    }, `Put ${picked.id} here`) : null),
  el("div", {class: "sides"},
    el("div", {class: "combat-side defender"},
      stays.map((id) => counter(state.stands.get(id), byStand.get(id) ?? [])),
      movedIn.map((id) => counter(
        state.stands.get(id), byStand.get(id) ?? [], `from ${combatOf(state.allocation, id)}`))),
    el("div", {class: "versus", "aria-hidden": "true", text: "vs"}),
    el("div", {class: "combat-side attacker"},
      attackers.map((id) => counter(state.stands.get(id), byStand.get(id) ?? [])),
      attackers.length ? null : el("p", {class: "note", text: "no attacker yet"}))),
  odds ? oddsBar(odds) : null,
  boxViolations([...stays, ...movedIn, ...attackers], byStand)), name);
}

function newCombatBox() {
  const ready = state.selected !== null &&
    state.stands.get(state.selected).side === currentStage().side;
  return dropZone(el("button", {
    type: "button", class: `combat new-combat${ready ? " target" : ""}`,
    "data-testid": "new-combat", "aria-disabled": String(!ready), tabindex: ready ? null : "-1",
    onclick: () => ready && place("new"),
    onkeydown: (event) => { if (event.key === "Escape") drop(); },
  }, ready ? `New combat with ${state.selected}`
    : "New combat (pick or drag a defending stand here)"), "new");
}

export function renderHead() {
  const {board} = state;
  $("building-name").textContent = board.title;
  $("building-meta").textContent = board.building_text;
  $("scenario-description").textContent = board.description ?? "";
}

/** Whether the player opened what the current steps ask (kept over redraws). */
let asksOpen = false;

export function renderSteps() {
  const stage = currentStage();
  for (const button of document.querySelectorAll(".step")) {
    const current = Number(button.dataset.step) === state.step;
    button.classList.toggle("current", current);
    if (current) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
  const help = state.selected
    ? `${state.selected} is picked up: choose a combat to put it there` +
      (stage.pool ? ", or its pool to take it back" : "") + " (Escape puts it down)."
    : `${stage.procedure[0].toUpperCase()}${stage.procedure.slice(1)}, the ${stage.side}: ` +
      stage.how;
  const asked = state.board.steps.filter((step) => stage.steps.includes(step.step));
  fill($("step-help"), el("p", {text: help}),
    state.selected ? null : el("details", {
      class: "step-asks", "data-testid": "step-asks", open: asksOpen ? true : null,
      ontoggle: (event) => { asksOpen = event.target.open; },
    }, el("summary", {
      text: `What ${stage.procedure} ${stage.steps.length > 1 ? "ask" : "asks"} of these stands`,
    }),
    el("ul", {}, asked.flatMap((step) => step.says).map((line) =>
      el("li", {}, withRuleLinks(line))))));
  $("undo").disabled = state.history.length === 0;
  const notice = $("notice");
  notice.hidden = !state.notice;
  notice.textContent = state.notice?.text ?? "";
}

export function renderBoard() {
  if (!state.board || state.dragging) return;
  const focused = document.activeElement?.closest?.(".board-area [data-testid]")?.dataset.testid;
  const byStand = violationsByStand();
  const oddsByName = new Map((state.check?.odds?.combats ?? []).map((c) => [c.name, c]));
  const allocation = state.allocation;
  for (const side of ["defender", "attacker"]) {
    pool(side, unplaced(allocation, side, state.board[side].map((s) => s.id)), byStand);
  }
  const boxes = Object.keys(allocation.combats).map((n) => combatBox(n, byStand, oddsByName));
  if (currentStage().opensCombats) boxes.push(newCombatBox());
  if (boxes.length === 0) boxes.push(el("p", {class: "note", text: "No combats yet."}));
  fill($("combats"), ...boxes);
  renderSteps();
  const wanted = state.focus ?? focused;
  state.focus = null;
  if (wanted) document.querySelector(`[data-testid="${wanted}"]`)?.focus();
}

/** Dragging a counter back to its pool takes it out, as the "Take out" button does. */
export function wireBoard() {
  for (const side of ["defender", "attacker"]) {
    dropZone($(`${side}-pool`), null,
      (stand) => stand.side === side && currentStage().pool !== null && placedIn(stand) !== null);
  }
}
