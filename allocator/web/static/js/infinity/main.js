// The Infinity close-combat calculator at /infinity: two trooper cards built from the server's
// menus, the exact answer of POST /api/infinity/roll as a chart and tables, a share link that
// reopens it, saved results side by side, and their CSV. No rule of the game is written here:
// the menus, the words and every number come from the API.
import {api, errorDetails} from "../api.js";
import {$, el, fill} from "../dom.js";
import {markInvalid, readEngagement, renderCards, writeEngagement} from "./cards.js";
import {drawChart, keepDrawn} from "./chart.js";
import {csvText, download, loadSaved, renderCompare, storeSaved} from "./compare.js";
import {LinkError, linkFragment, readFragment} from "../link.js";
import {showResult} from "./result.js";

const page = {
  menus: null,    // GET /api/infinity/menus
  ruleset: null,  // the menu of the ruleset chosen
  last: null,     // {engagement, answer, view} of the roll shown
  ticket: 0,      // the newest request: an older answer that arrives late is dropped
  saved: [],
};

function rulesetOf(name) {
  const rulesets = page.menus.rulesets;
  return rulesets.find((r) => r.name === name) ??
    rulesets.find((r) => r.name === page.menus.default) ?? rulesets[0];
}

/** Draw the cards for ``name`` and fill them with ``engagement``: what they cannot show. */
function useRuleset(name, engagement) {
  page.ruleset = rulesetOf(name);
  $("inf-rules").value = page.ruleset.name;
  renderCards(page.menus, page.ruleset);
  const unverified = page.ruleset.unverified;
  $("inf-unverified").textContent = unverified.length
    ? `${page.ruleset.title}: these readings are not checked against the book, and a profile of `
      + `your own may change them: ${unverified.join(", ")}.`
    : "";
  return writeEngagement(page.menus, page.ruleset, {...engagement, rules: page.ruleset.name});
}

function busy(yes) {
  document.body.dataset.busy = yes ? "true" : "false";
  $("inf-status").textContent = yes ? "Working out the exact odds…" : "";
}

function showError(box, error, lead = null) {
  fill(box, lead ? el("p", {}, el("strong", {text: lead})) : null, errorDetails(error));
  box.hidden = false;
}

function clearErrors() {
  for (const id of ["inf-error", "inf-link-error"]) {
    $(id).hidden = true;
    fill($(id));
  }
  markInvalid(null);
}

/** Ask the server for ``engagement``'s answer and show it; true when it was shown. */
async function roll(engagement, {linkBox = null} = {}) {
  const ticket = ++page.ticket;
  busy(true);
  let result;
  try {
    result = await api("/api/infinity/roll", {body: engagement});
  } catch (error) {
    if (ticket !== page.ticket) return false;
    busy(false);
    if (linkBox) {
      showError(linkBox, error, "This link cannot be opened:");
    } else {
      showError($("inf-error"), error, "The roll cannot be worked out:");
      markInvalid(error.error?.place)?.focus();
    }
    return false;
  }
  if (ticket !== page.ticket) return false;
  busy(false);
  page.last = {engagement, ...result};
  showResult(result.view, result.answer);
  $("inf-result").dataset.shown = String(Number($("inf-result").dataset.shown ?? 0) + 1);
  drawChart($("inf-chart"), result.view.chart);
  history.replaceState(null, "", linkFragment(engagement));
  $("inf-share-link").hidden = true;
  $("inf-note").textContent = "";
  return true;
}

async function rollTheCards(event) {
  event?.preventDefault();
  clearErrors();
  await roll(readEngagement(page.menus, page.ruleset));
}

function changeRuleset() {
  const engagement = readEngagement(page.menus, page.ruleset);
  const from = page.ruleset.title;
  const unshown = useRuleset($("inf-rules").value, engagement);
  $("inf-note").textContent = unshown.length
    ? `Not in ${page.ruleset.title}, so left out (from ${from}): ${unshown.join(", ")}.`
    : "";
}

async function openExample() {
  const example = page.menus.examples.find((e) => e.name === $("inf-example").value);
  clearErrors();
  if (!example) {  // empty cards: every field at its default, the attributes to be given
    useRuleset(page.ruleset.name, {});
    $("inf-example-note").textContent = "";
    return;
  }
  useRuleset(example.engagement.rules ?? page.menus.default, example.engagement);
  $("inf-example-note").textContent = example.description;
  await roll(readEngagement(page.menus, page.ruleset));
}

/** Open the link's roll; false when the page has no link (or a broken one: said, once). */
async function openLink() {
  let engagement;
  try {
    engagement = readFragment(location.hash, "roll of two troopers");
  } catch (error) {
    if (!(error instanceof LinkError)) throw error;
    showError($("inf-link-error"), {error: {place: "link", problem: error.message}},
      "This link cannot be opened:");
    return false;
  }
  if (engagement === null) return false;
  clearErrors();
  if (!await roll(engagement, {linkBox: $("inf-link-error")})) return false;
  const unshown = useRuleset(engagement.rules ?? page.menus.default, engagement);
  if (unshown.length) {
    page.last = null;
    $("inf-result").hidden = true;
    showError($("inf-link-error"), {error: {place: "link", problem:
      `it sets what this page cannot show (${unshown.join(", ")}): open it with the command line`
      + " (cfalloc resolve infinity FILE)"}}, "This link cannot be opened:");
    return false;
  }
  return true;
}

async function share() {
  if (!page.last) return;
  const link = `${location.origin}${location.pathname}${linkFragment(page.last.engagement)}`;
  $("inf-share-link").value = link;
  $("inf-share-link").hidden = false;
  $("inf-share-link").select();
  try {
    await navigator.clipboard.writeText(link);
    $("inf-note").textContent = "Link copied: it reopens these two troopers and this answer.";
  } catch {
    $("inf-note").textContent = "Copy the link above: it reopens these two troopers.";
  }
}

function names(engagement) {
  const [active, reactive] = Object.keys(page.menus.sides).map((side) => engagement[side]?.name);
  return active || reactive ? `${active || "?"} v ${reactive || "?"}` : "";
}

function drawSaved() {
  renderCompare(page.saved, {open: openSaved, remove: removeSaved});
}

function keep(note) {
  if (!storeSaved(page.saved)) note = "This browser does not keep saved results (its storage is "
    + "full or switched off): they go when the page is closed.";
  drawSaved();
  $("inf-note").textContent = note;
}

function saveResult() {
  if (!page.last) return;
  const {engagement, view} = page.last;
  page.saved.push({
    title: view.title, rolls: view.rolls, names: names(engagement),
    rules: rulesetOf(engagement.rules).title, engagement, summary: view.summary,
  });
  keep(`Saved as result ${page.saved.length}: compare it below.`);
}

async function openSaved(n) {
  const entry = page.saved[n - 1];
  if (!entry) return;
  clearErrors();
  useRuleset(entry.engagement.rules, entry.engagement);
  await roll(readEngagement(page.menus, page.ruleset));
  $("inf-title").scrollIntoView({block: "start"});
}

function removeSaved(n) {
  page.saved.splice(n - 1, 1);
  keep(`Saved result ${n} removed.`);
}

function downloadCsv() {
  const entries = page.saved.length ? page.saved : page.last ? [{
    title: page.last.view.title, rolls: page.last.view.rolls, names: names(page.last.engagement),
    rules: rulesetOf(page.last.engagement.rules).title, summary: page.last.view.summary,
  }] : [];
  if (entries.length) download(csvText(entries), "infinity-results.csv");
}

function fillPickers() {
  fill($("inf-rules"), page.menus.rulesets.map((r) => el("option", {value: r.name, text: r.title})));
  fill($("inf-example"), el("option", {value: "", text: "— (empty cards)"}),
    page.menus.examples.map((e) => el("option", {value: e.name, title: e.description,
      text: e.name})));
  $("inf-example").after(el("p", {id: "inf-example-note", class: "note"}));
}

async function start() {
  $("inf-form").addEventListener("submit", rollTheCards);
  $("inf-rules").addEventListener("change", changeRuleset);
  $("inf-example").addEventListener("change", openExample);
  $("inf-share").addEventListener("click", share);
  $("inf-compare-add").addEventListener("click", saveResult);
  $("inf-csv").addEventListener("click", downloadCsv);
  $("inf-compare-clear").addEventListener("click", () => {
    page.saved = [];
    keep("Every saved result is removed.");
  });
  window.addEventListener("hashchange", () => {
    if (page.last && location.hash === linkFragment(page.last.engagement)) return;
    openLink();
  });
  try {
    page.menus = await api("/api/infinity/menus");
  } catch (error) {
    showError($("inf-error"), error, "The calculator's menus cannot be loaded:");
    document.body.dataset.loading = "false";
    return;
  }
  page.saved = loadSaved();
  drawSaved();
  fillPickers();
  keepDrawn($("inf-chart"), () => page.last?.view.chart);
  $("inf-roll").disabled = false;
  const opened = location.hash ? await openLink() : false;
  if (!opened) {
    const first = page.menus.examples.find((e) => e.name === page.menus.start) ??
      page.menus.examples[0];
    if (first && !page.last) {
      $("inf-example").value = first.name;
      useRuleset(first.engagement.rules ?? page.menus.default, first.engagement);
      $("inf-example-note").textContent = first.description;
      if (!location.hash) await roll(readEngagement(page.menus, page.ruleset));
    } else if (!page.ruleset) {
      useRuleset(page.menus.default, {});
    }
  }
  document.body.dataset.loading = "false";
}

start();
