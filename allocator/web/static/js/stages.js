// The table of stages: what each of the page's three stages lets the player move, and where.
// Every stage-specific choice of the page is a field of this table.
import {attackOf, combatOf, removeFrom} from "./allocation.js";

export const STAGES = [
  {
    step: 1,
    title: "Defender combats",
    procedure: "steps 1–3",
    side: "defender",
    part: "combats",
    parts: ["combats"],
    help: "Steps 1–3, the defender: pick a defending stand (click, or Enter), then a combat or " +
      "“New combat” (or drag it there). Every squad forms its own combat; a crew-served weapon " +
      "may join one squad of its own unit; leaders join a combat holding their troops.",
    opensCombats: true,
    pool: "Take {id} out of its combat",
    canMove: (stand) => stand.side === "defender",
    placeOf: (allocation, id) => combatOf(allocation, id),
    move(allocation, id, target) {
      removeFrom(allocation.combats, id);
      if (target) (allocation.combats[target] ??= []).push(id);
    },
  },
  {
    step: 2,
    title: "Attacker answer",
    procedure: "steps 4–5",
    side: "attacker",
    part: "attack",
    parts: ["combats", "attack"],
    help: "Steps 4–5, the attacker: pick an attacking stand, then the combat it assaults. Every " +
      "combat gets a squad before any gets a second; a leader must be within one stand width " +
      "of a squad he joins.",
    opensCombats: false,
    pool: "Take {id} out of the assault",
    canMove: (stand) => stand.side === "attacker",
    placeOf: (allocation, id) => attackOf(allocation, id),
    move(allocation, id, target) {
      removeFrom(allocation.attack, id);
      if (target) (allocation.attack[target] ??= []).push(id);
    },
  },
  {
    step: 3,
    title: "Reallocation",
    procedure: "step 6",
    side: "defender",
    part: "reallocate",
    parts: ["combats", "attack", "reallocate"],
    help: "Step 6, the defender again: every stand of a combat that got no attacker moves into a " +
      "combat with attackers. Pick it, then its new combat (its own combat takes the move back).",
    opensCombats: false,
    pool: null,
    canMove: (stand, allocation) => stand.side === "defender" &&
      combatOf(allocation, stand.id) !== null,
    placeOf: (allocation, id) => allocation.reallocate[id] ?? combatOf(allocation, id),
    move(allocation, id, target) {
      if (target && target !== combatOf(allocation, id)) allocation.reallocate[id] = target;
      else delete allocation.reallocate[id];
    },
  },
];

export function stage(step) {
  return STAGES.find((s) => s.step === step) ?? STAGES[0];
}
