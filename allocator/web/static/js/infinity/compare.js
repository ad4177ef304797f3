// Saved results, side by side: each saved roll is a row of the measures the server chose to
// compare results by (``view.summary``: who wins, the wounds on average, each trooper wounded,
// out of the fight...), kept in this browser's storage; and their CSV.
import {$, el, fill} from "../dom.js";

const STORAGE = "cfalloc.infinity.saved";
/** The most results kept: the oldest goes when one more is saved. */
export const MOST_SAVED = 30;

function isText(value) {
  return typeof value === "string" && value.length <= 2000;
}

function isMeasure(measure) {
  return measure && isText(measure.key) && isText(measure.label) && isText(measure.text) &&
    (measure.value === null ||
      (typeof measure.value?.value === "number" && isText(measure.value?.exact)));
}

function isSaved(entry) {
  return entry && isText(entry.title) && isText(entry.rolls) && isText(entry.names) &&
    isText(entry.rules) && entry.engagement && typeof entry.engagement === "object" &&
    Array.isArray(entry.summary) && entry.summary.every(isMeasure);
}

/** The saved results (an entry this page did not write is left out). */
export function loadSaved() {
  let stored;
  try {
    stored = JSON.parse(localStorage.getItem(STORAGE) ?? "[]");
  } catch {
    return [];
  }
  return Array.isArray(stored) ? stored.filter(isSaved).slice(-MOST_SAVED) : [];
}

/** Keep ``entries``; false when the browser refuses to (storage full or switched off). */
export function storeSaved(entries) {
  try {
    localStorage.setItem(STORAGE, JSON.stringify(entries.slice(-MOST_SAVED)));
    return true;
  } catch {
    return false;
  }
}

/** The measures of every entry, in the order they first appear. */
function columns(entries) {
  const found = new Map();
  for (const entry of entries) {
    for (const measure of entry.summary) {
      if (!found.has(measure.key)) found.set(measure.key, measure.label);
    }
  }
  return [...found];
}

/** Draw the saved results; ``open(n)`` and ``remove(n)`` act on the n-th (from 1). */
export function renderCompare(entries, {open, remove}) {
  const shown = entries.length > 0;
  $("inf-compare").hidden = !shown;
  $("inf-compare-empty").hidden = shown;
  $("inf-compare-clear").hidden = !shown;
  if (!shown) {
    fill($("inf-compare"));
    return;
  }
  const measures = columns(entries);
  fill($("inf-compare"),
    el("caption", {class: "visually-hidden", text: "Saved results, one a row"}),
    el("thead", {}, el("tr", {},
      el("th", {scope: "col", text: "#"}), el("th", {scope: "col", text: "Roll"}),
      measures.map(([, label]) => el("th", {scope: "col", class: "num", text: label})),
      el("th", {scope: "col", text: ""}))),
    el("tbody", {}, entries.map((entry, index) => {
      const n = index + 1;
      const byKey = new Map(entry.summary.map((measure) => [measure.key, measure]));
      return el("tr", {"data-testid": `inf-compare-row-${n}`},
        el("th", {scope: "row", text: String(n)}),
        el("td", {class: "inf-compare-roll"},
          el("strong", {text: entry.names || entry.title}), el("br"),
          el("span", {class: "note", text: `${entry.rules}. ${entry.rolls}`})),
        measures.map(([key]) => el("td", {class: "num", text: byKey.get(key)?.text ?? "—"})),
        el("td", {class: "inf-compare-actions"},
          el("button", {type: "button", "data-testid": `inf-compare-open-${n}`,
            onclick: () => open(n), text: "Open"}),
          el("button", {type: "button", class: "quiet", "data-testid": `inf-compare-remove-${n}`,
            "aria-label": `Remove saved result ${n}`, onclick: () => remove(n), text: "Remove"})));
    })));
}

/** A cell of a CSV file: quoted, and a text that a spreadsheet would run as a formula made
 * plain text. */
function csvCell(value) {
  let text = value === null || value === undefined ? "" : String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV of ``entries``: one row each, every measure as a number and as its exact value. */
export function csvText(entries) {
  const measures = columns(entries);
  const head = ["result", "ruleset", "troopers", "rolls",
    ...measures.flatMap(([, label]) => [label, `${label} (exact)`])];
  const rows = entries.map((entry, index) => {
    const byKey = new Map(entry.summary.map((measure) => [measure.key, measure]));
    return [index + 1, entry.rules, entry.names, entry.rolls, ...measures.flatMap(([key]) => {
      const measure = byKey.get(key);
      return [measure?.value?.value ?? "", measure?.value?.exact ?? ""];
    })];
  });
  return [head, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** Have the browser save ``text`` as ``name``. */
export function download(text, name) {
  const link = el("a", {download: name,
    href: URL.createObjectURL(new Blob([text], {type: "text/csv;charset=utf-8"}))});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
