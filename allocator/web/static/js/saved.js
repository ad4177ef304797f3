// Fights saved in this browser (localStorage), beside the share link: each is a name and the
// link that reopens it (the scenario, its allocation, the step and the rounds played on), so a
// saved fight is opened and checked exactly as a link is. A fight put on the board by the
// builder is saved at once; "Save this fight" saves the one on the board; each saved fight can
// be opened, renamed and deleted.
import {$, el, fill, plural} from "./dom.js";
import {currentLink, openLink} from "./scenarios.js";
import {state} from "./state.js";

const KEY = "cfalloc-saved-fights";
/** The most fights kept, and the longest name and link (what a browser's storage holds). */
const MOST = 100;
const LONGEST_NAME = 200;
const LONGEST_LINK = 2_000_000;

function isSaved(entry) {
  return entry !== null && typeof entry === "object" && typeof entry.name === "string" &&
    entry.name.length <= LONGEST_NAME && typeof entry.link === "string" &&
    entry.link.startsWith("#s=") && entry.link.length <= LONGEST_LINK;
}

/** The saved fights, newest first; anything stored that is not one is left out. */
export function savedFights() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(stored) ? stored.filter(isSaved).slice(0, MOST) : [];
  } catch {
    return [];
  }
}

/** Store the list; false (and said) when the browser keeps nothing (private window, full). */
function store(fights) {
  try {
    localStorage.setItem(KEY, JSON.stringify(fights));
    return true;
  } catch {
    say("This browser does not keep saved fights here (a private window, or its storage is " +
      "full): copy the link instead.");
    return false;
  }
}

function say(text) {
  $("saved-note").textContent = text;
}

/** A name no saved fight has yet: "Farmhouse", else "Farmhouse (2)", "Farmhouse (3)", ... */
function freeName(name, fights) {
  const taken = new Set(fights.map((fight) => fight.name));
  const base = name.trim().slice(0, LONGEST_NAME - 8) || "Fight";
  let free = base;
  for (let n = 2; taken.has(free); n += 1) free = `${base} (${n})`;
  return free;
}

/** The fight on the board, by its title (with the rounds played), as a saved fight. */
function boardName() {
  const played = state.rounds.length;
  return played ? `${state.board.title}, after round ${played}` : state.board.title;
}

/** Save the fight on the board under a new name (``name``: else its title). */
export function saveFight(name = boardName()) {
  const link = currentLink();
  if (!link) return;
  const fights = savedFights();
  const saved = {name: freeName(name, fights), link};
  if (store([saved, ...fights].slice(0, MOST))) {
    say(`Saved in this browser as "${saved.name}".`);
    renderSaved();
  }
}

function rename(index, name) {
  const fights = savedFights();
  const others = fights.filter((_, i) => i !== index);
  fights[index] = {...fights[index], name: freeName(name, others)};
  if (store(fights)) say(`Renamed "${fights[index].name}".`);
  renderSaved();
}

function remove(index) {
  const fights = savedFights();
  const [gone] = fights.splice(index, 1);
  if (store(fights)) say(`Deleted "${gone.name}".`);
  renderSaved();
}

function entry(fight, index) {
  return el("li", {"data-testid": "saved-fight", "data-name": fight.name},
    el("button", {
      type: "button", "data-testid": `saved-open-${index}`,
      onclick: () => openLink(fight.link),
    }, "Open"),
    el("label", {for: `saved-name-${index}`, class: "visually-hidden", text: "Name"}),
    el("input", {
      id: `saved-name-${index}`, "data-testid": `saved-name-${index}`, value: fight.name,
      maxlength: String(LONGEST_NAME), "aria-label": `rename ${fight.name}`,
      onchange: (event) => rename(index, event.target.value),
    }),
    el("button", {
      type: "button", class: "quiet", "data-testid": `saved-delete-${index}`,
      "aria-label": `delete ${fight.name}`, onclick: () => remove(index),
    }, "Delete"));
}

export function renderSaved() {
  const fights = savedFights();
  $("saved-count").textContent = `(${plural(fights.length, "fight")})`;
  fill($("saved-list"), fights.length
    ? fights.map(entry)
    : el("li", {class: "note", text: "None yet: a fight you build, or save, is kept here."}));
}

export function wireSaved() {
  $("save-fight").addEventListener("click", () => saveFight());
  renderSaved();
}
