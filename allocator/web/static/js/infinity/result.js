// A roll's answer on the page: the title (the roll made), both rolls in a sentence, what is
// not allowed, the report's tables as the command line prints them, and how it was worked out.
// Every text comes from the server (``view`` and ``answer`` of POST /api/infinity/roll).
import {$, el, fill} from "../dom.js";

function table(shown) {
  const right = new Set(shown.right);
  const cell = (tag, column, text) => el(tag, {class: right.has(column) ? "num" : null, text});
  return el("div", {class: "inf-table-box"},
    el("table", {class: "inf-table", "data-testid": "inf-table"},
      el("caption", {text: shown.title}),
      el("thead", {}, el("tr", {}, shown.columns.map((c) => cell("th", c, c)))),
      el("tbody", {}, shown.rows.map((row) => el("tr", {},
        row.map((text, n) => cell("td", shown.columns[n], text)))))),
    shown.caption ? el("p", {class: "note", text: shown.caption}) : null);
}

/** Show ``view`` and ``answer`` (the roll's two parts). */
export function showResult(view, answer) {
  $("inf-title").textContent = view.title;
  $("inf-rolls").textContent = view.rolls;
  fill($("inf-notes"), view.notes.map((note) => el("li", {text: note})));
  fill($("inf-tables"), view.tables.map(table));
  fill($("inf-steps"), answer.steps.map((step) => el("li", {text: step})));
  $("inf-result").hidden = false;
}
