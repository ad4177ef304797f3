// The page's stages: what each lets the player move, and where. The server says which stages
// there are, the part of the allocation each builds, the side that moves, its steps and title
// (GET /api/terms, "stages"), and what each step asks of this scenario (/api/board, "steps");
// this table adds only how the board moves a counter in each part.
import {attackOf, combatOf, removeFrom} from "./allocation.js";

/** How the board edits each part of the allocation. */
const MOVES = {
  combats: {
    opensCombats: true,
    pool: "Take {id} out of its combat",
    how: "pick a stand (click, or Enter), then a combat or “New combat” (or drag it there).",
    canMove: (stand, allocation, side) => stand.side === side,
    placeOf: (allocation, id) => combatOf(allocation, id),
    move(allocation, id, target) {
      removeFrom(allocation.combats, id);
      if (target) (allocation.combats[target] ??= []).push(id);
    },
  },
  attack: {
    opensCombats: false,
    pool: "Take {id} out of the assault",
    how: "pick a stand, then the combat it assaults (or drag it there).",
    canMove: (stand, allocation, side) => stand.side === side,
    placeOf: (allocation, id) => attackOf(allocation, id),
    move(allocation, id, target) {
      removeFrom(allocation.attack, id);
      if (target) (allocation.attack[target] ??= []).push(id);
    },
  },
  reallocate: {
    opensCombats: false,
    pool: null,
    how: "pick a stand of a combat, then the combat it moves to (its own combat takes the " +
      "move back).",
    canMove: (stand, allocation, side) => stand.side === side &&
      combatOf(allocation, stand.id) !== null,
    placeOf: (allocation, id) => allocation.reallocate[id] ?? combatOf(allocation, id),
    move(allocation, id, target) {
      if (target && target !== combatOf(allocation, id)) allocation.reallocate[id] = target;
      else delete allocation.reallocate[id];
    },
  },
};

/** The stages, once the server has said them (``useStages``). */
export const STAGES = [];

/** Take the server's stages: each with the parts of the allocation built up to it. */
export function useStages(served) {
  STAGES.splice(0, STAGES.length, ...served.map((stage, i) => ({
    ...stage,
    ...MOVES[stage.part],
    parts: served.slice(0, i + 1).map((s) => s.part),
    canMove(stand, allocation) {
      return MOVES[stage.part].canMove(stand, allocation, stage.side);
    },
  })));
}

export function stage(number) {
  return STAGES.find((s) => s.stage === number) ?? STAGES[0];
}
