// The small table of the builder: the attackers as tokens, dragged (or moved with the arrow keys)
// to the positions the scenario file gives them. Who ends up near whom is the server's answer
// (/api/board, "near"), shown under the table.
import {el} from "../dom.js";
import {fightChanged, state} from "../state.js";
import {updateStand} from "./fight.js";

/** The table's width, in stand widths; a token is one stand width across. */
const TABLE_WIDTH = 12;
/** How far apart the tokens start, in stand widths (a layout: the server says who is near). */
const SPACING = 3;
/** How far an arrow key moves a token (Shift: four times as far). */
const STEP = 0.5;
/** Positions are kept to a quarter of a stand width. */
const GRID = 0.25;

/** Give every stand without a position one: in rows, SPACING stand widths apart. */
export function startingPositions(stands) {
  const perRow = Math.floor(TABLE_WIDTH / SPACING);
  stands.forEach((stand, i) => {
    if (!stand.position) {
      updateStand(stand.id, {position: [1 + (i % perRow) * SPACING, 1 + Math.floor(i / perRow) * 2]});
    }
  });
}

function token(board, stand, rows) {
  const button = el("button", {
    type: "button", class: `token role-${stand.role}`, "data-testid": `builder-token-${stand.id}`,
    "aria-label": `${stand.name ?? stand.id}, ${stand.label} ${stand.id} at ` +
      `${stand.position[0]}, ${stand.position[1]}`,
    title: `${stand.name ?? stand.id} (${stand.id})`,
  }, el("span", {text: stand.counter_label ?? stand.id}));
  const put = ([x, y]) => {
    button.style.left = `${(x - 0.5) / TABLE_WIDTH * 100}%`;
    button.style.top = `${(y - 0.5) / rows * 100}%`;
  };
  button.style.width = `${100 / TABLE_WIDTH}%`;
  button.style.height = `${100 / rows}%`;
  put(stand.position);
  const moveTo = (position) => {
    const [x, y] = position.map((v) => Math.round(v / GRID) * GRID);
    const clamped = [
      Math.min(Math.max(x, 0.5), TABLE_WIDTH - 0.5), Math.min(Math.max(y, 0.5), rows - 0.5),
    ];
    updateStand(stand.id, {position: clamped});
    return clamped;
  };
  const moved = () => {
    state.fight.focus = `builder-token-${stand.id}`;
    fightChanged();
  };
  button.addEventListener("keydown", (event) => {
    const delta = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]}[
      event.key];
    if (!delta) return;
    event.preventDefault();
    const step = event.shiftKey ? 4 * STEP : STEP;
    moveTo([stand.position[0] + delta[0] * step, stand.position[1] + delta[1] * step]);
    moved();
  });
  button.addEventListener("pointerdown", (event) => {
    button.setPointerCapture(event.pointerId);
    button.classList.add("dragging");
    const area = board.getBoundingClientRect();
    const at = (e) => [(e.clientX - area.left) / area.width * TABLE_WIDTH,
      (e.clientY - area.top) / area.height * rows];
    button.onpointermove = (e) => put(moveTo(at(e)));
    button.onpointerup = (e) => {
      button.onpointermove = button.onpointerup = null;
      button.classList.remove("dragging");
      moveTo(at(e));
      moved();
    };
  });
  return button;
}

/** The table with a token for each of ``stands`` (all placed). */
export function table(stands) {
  const rows = Math.max(...stands.map((s) => s.position?.[1] ?? 0), 4) + 2;
  const board = el("div", {
    class: "table-board", "data-testid": "builder-table", role: "group",
    "aria-label": "The attackers on the table: drag a counter, or focus it and use the arrow keys",
  });
  board.style.aspectRatio = `${TABLE_WIDTH} / ${rows}`;
  board.style.setProperty("--rows", String(rows));
  board.append(...stands.map((stand) => token(board, stand, rows)));
  return board;
}

/** Mark each leader's token by the server's answer: near someone who fights, or near nobody. */
export function markTokens(near) {
  for (const [leader, ids] of Object.entries(near)) {
    const placed = document.querySelector(`[data-testid="builder-token-${leader}"]`);
    placed?.classList.toggle("is-near", ids.length > 0);
    placed?.classList.toggle("near-nobody", ids.length === 0);
  }
}
