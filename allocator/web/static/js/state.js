// What the page holds: the scenario and its board, the allocation being built, the stage, what is
// picked up, the last check, the moves that can be undone, and the fight being set up in the
// builder with the library it draws on. Changes of the board go through commit(), changes of the
// fight through fightChanged().
import {copyAllocation, differences, emptyAllocation, prune} from "./allocation.js";
import {stage} from "./stages.js";

export const state = {
  source: null,          // {name} for a shipped scenario, {own: label} for the player's own
  scenario: null,        // the scenario data, as the API takes it (without its allocation)
  board: null,           // the /api/board answer: building, both sides' stands, names, warnings
  stands: new Map(),     // stand id -> board stand (with its side)
  step: 1,
  allocation: emptyAllocation(),
  selected: null,        // the id of the stand picked up
  focus: null,           // the counter (or other control) to focus after the next drawing
  check: null,           // the last /api/check answer
  checkError: null,
  dragging: false,       // a counter is being dragged: keep the board as it is
  history: [],           // earlier {allocation, step}, for Undo
  notice: null,          // {text, undoable}: what the last change did besides the move itself
  library: {             // what the builder offers, from the server
    terms: null,         // GET /api/terms: the words, stages, fields' defaults and bounds, limits
    nations: [],         // GET /api/organisations
    profiles: [],        // GET /api/profiles
    organisations: new Map(),  // name -> GET /api/organisations/{name}
  },
  fight: null,           // the fight being set up in the builder (js/builder/fight.js)
  rounds: [],            // the rounds played on before this one: js/rounds.js entries
  played: null,          // this round's last play, not yet played on: {answer, entry}
};

const listeners = {changed: [], drawn: [], fight: []};

/**
 * Call ``fn`` after every change of the allocation or stage ("changed"), every redraw ("drawn"),
 * or every change of the fight in the builder ("fight", given {redraw}).
 */
export function on(event, fn) {
  listeners[event].push(fn);
}

export function currentStage() {
  return stage(state.step);
}

/** Redraw without changing anything (a pick, an answer that arrived). */
export function redraw() {
  for (const fn of listeners.drawn) fn();
}

function changed() {
  for (const fn of listeners.changed) fn();
  redraw();
}

function noticeOf(notice, what, expected, lines) {
  if (notice) return {text: notice};
  if (what && expected) {
    return lines.length ? {text: `${what} also changed other steps: ${lines.join("; ")}.`} : null;
  }
  if (what) return {text: `${what}: ${lines.length ? lines.join("; ") : "nothing moved"}.`};
  return null;
}

/**
 * Make ``allocation`` (at ``step``) the current one, remembering the old one for Undo. What it
 * changes besides ``expected`` (the move just made: {id, part}) is said in the notice, headed by
 * ``what`` ("Moving h2 into A").
 */
export function commit(
  allocation, {step = state.step, expected = null, what = null, notice = null} = {},
) {
  const next = prune(copyAllocation(allocation));
  const lines = differences(state.allocation, next, expected);
  state.history.push({allocation: state.allocation, step: state.step});
  state.allocation = next;
  state.step = step;
  state.selected = null;
  state.notice = noticeOf(notice, what, expected, lines);
  changed();
}

/** Start again on a scenario: its allocation, no history. */
export function reset(allocation, step) {
  state.allocation = prune(copyAllocation(allocation));
  state.step = step;
  state.selected = null;
  state.history = [];
  state.notice = null;
  changed();
}

export function undo() {
  const last = state.history.pop();
  if (!last) return;
  state.allocation = last.allocation;
  state.step = last.step;
  state.selected = null;
  state.notice = {text: "Undone."};
  changed();
}

export function setStep(step) {
  state.step = step;
  state.selected = null;
  changed();
}

/** Say that the fight in the builder changed (``redraw``: its sides are drawn again). */
export function fightChanged({redraw = true} = {}) {
  for (const fn of listeners.fight) fn({redraw});
}

/** Pick a stand up (or put it down when it is picked already); ``focus``: what to focus next. */
export function pick(id, focus = `counter-${id}`) {
  state.selected = state.selected === id ? null : id;
  state.focus = focus;
  redraw();
}
