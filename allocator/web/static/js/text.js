// "Copy as text": the fight on the page in plain words for a club chat: the building, both
// sides' stands by name, each combat with its odds, the check, the best split asked for, the
// rounds played, and the link that reopens it all.
import {currentCheck} from "./check.js";
import {$, listing, share} from "./dom.js";
import {currentLink} from "./scenarios.js";
import {complement} from "./show.js";
import {state} from "./state.js";

function standWords(stand) {
  return stand.name === stand.id ? `${stand.id} (${stand.label})`
    : `${stand.name} (${stand.label}, ${stand.id})`;
}

function sideLine(side) {
  const heading = side === "defender" ? "Defender" : "Attacker";
  return `${heading}: ${listing(state.board[side].map(standWords))}.`;
}

/** Each combat of the board: its stands, and its odds once the allocation is complete. */
function combatLines() {
  const checked = currentCheck()?.odds?.combats;
  if (checked) {
    return checked.map((combat) => {
      const exact = combat.p_attacker_wins_exact;
      return `Combat ${combat.name}: ${listing(combat.defenders)} against ` +
        `${listing(combat.attackers, "no attacker")}: the attacker wins ${share(exact)}, the ` +
        `defender ${share(complement(exact))}.`;
    });
  }
  const {combats, attack} = state.allocation;
  return Object.keys(combats).map((name) => `Combat ${name}: ${listing(combats[name])} ` +
    `against ${listing(attack[name] ?? [], "no attacker yet")}.`);
}

/** A panel's words when it holds an answer for this board (none, or one gone stale: nothing). */
function panelWords(id, selector) {
  const panel = $(id);
  if (panel.classList.contains("stale")) return [];
  const node = panel.querySelector(selector);
  return node ? [node.textContent.replace(/\s+/g, " ").trim()] : [];
}

function historyLines() {
  return [...$("round-history").children].map((round) =>
    round.innerText.split("\n").map((line) => line.trim()).filter(Boolean).join("\n  "));
}

/** The fight on the page in words, one line each, with its link. */
export function fightAsText() {
  const {board} = state;
  const link = currentLink();
  return [
    board.title,
    board.building_text,
    sideLine("defender"),
    sideLine("attacker"),
    ...combatLines(),
    $("check-status").textContent.trim(),
    ...panelWords("solve-result", "[data-testid=solve-status]"),
    ...panelWords("solve-result", "[data-testid=fight-odds]"),
    ...historyLines(),
    ...panelWords("roll-result", "[data-testid=fight-now]"),
    link ? `${location.origin}${location.pathname}${link}` : null,
  ].filter(Boolean).join("\n");
}

async function copyText() {
  if (!state.board) return;
  const box = $("chat-text");
  box.value = fightAsText();
  box.hidden = false;
  box.select();
  try {
    await navigator.clipboard.writeText(box.value);
    $("share-note").textContent = "The fight as text is copied: paste it in your club's chat.";
  } catch {
    $("share-note").textContent = "Copy the text above and paste it in your club's chat.";
  }
}

export function wireText() {
  $("copy-text").addEventListener("click", copyText);
}
