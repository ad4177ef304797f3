// Answers never go stale silently: an answer a panel shows (best split, explain, dice) remembers
// the board it was computed for; once the board is another one, the panel says "for the earlier
// board" with a control to compute it again, and says nothing once the board is that one again
// (Undo). Opening another scenario empties the panels, which forgets their answers.
import {el} from "./dom.js";
import {on, state} from "./state.js";

/** The panels' answers: panel id -> {key, first, board, again, words}. */
const answers = new Map();

/** The board an answer is for: the allocation (a step that builds less: explain's). */
function boardKey(board) {
  return JSON.stringify(board());
}

/**
 * Say that the panel ``id`` now shows an answer for the board ``board()`` gives (by default the
 * allocation); ``again`` computes it again, the control ``words`` say so ("recompute").
 */
export function answered(id, again, {board = () => state.allocation, words = "recompute"} = {}) {
  const panel = document.getElementById(id);
  panel.querySelector(":scope > .stale-note")?.remove();
  answers.set(id, {key: boardKey(board), first: panel.firstChild, board, again, words});
  mark(id);
}

function mark(id) {
  const answer = answers.get(id);
  const panel = document.getElementById(id);
  panel.querySelector(":scope > .stale-note")?.remove();
  if (!answer.first || !panel.contains(answer.first)) {
    answers.delete(id);  // the panel shows something else now (or nothing)
    panel.classList.remove("stale");
    return;
  }
  const stale = boardKey(answer.board) !== answer.key;
  panel.classList.toggle("stale", stale);
  if (!stale) return;
  const name = id.replace(/-result$/, "");
  panel.prepend(el("p", {class: "stale-note", "data-testid": `stale-${name}`, role: "status"},
    el("strong", {text: "For the earlier board: "}),
    "the board has changed since. ",
    el("button", {
      type: "button", "data-testid": `recompute-${name}`, onclick: () => answer.again(),
    }, answer.words)));
}

export function wireStale() {
  on("changed", () => {
    for (const id of [...answers.keys()]) mark(id);
  });
}
