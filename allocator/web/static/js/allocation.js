// The allocation as the page holds it: {combats: {A: [ids]}, attack: {A: [ids]},
// reallocate: {id: A}}. Pure functions: they never touch the page.
//
// Each part is keyed by stand ids and combat names, which a file may choose freely: `__proto__`,
// `constructor` or `toString` are good names for a stand. So every part is a record without a
// prototype (``record``), where `in`, `[name]` and `delete` see only what the allocation holds.
import {listing} from "./dom.js";

export const PARTS = ["combats", "attack", "reallocate"];

/** An object without a prototype holding ``entries``' keys and values (arrays copied). */
export function record(entries = []) {
  const made = Object.create(null);
  for (const [key, value] of entries) made[key] = Array.isArray(value) ? [...value] : value;
  return made;
}

export function emptyAllocation() {
  return {combats: record(), attack: record(), reallocate: record()};
}

/** A copy with every part present (a file's allocation may leave parts out). */
export function copyAllocation(allocation) {
  return {
    combats: record(Object.entries(allocation?.combats ?? {})),
    attack: record(Object.entries(allocation?.attack ?? {})),
    reallocate: record(Object.entries(allocation?.reallocate ?? {})),
  };
}

/** How many of the three parts a file's allocation gives. */
export function depth(allocation) {
  return PARTS.filter((part) => allocation?.[part]).length;
}

export function combatOf(allocation, id) {
  return Object.keys(allocation.combats)
    .find((name) => allocation.combats[name].includes(id)) ?? null;
}

export function attackOf(allocation, id) {
  return Object.keys(allocation.attack)
    .find((name) => allocation.attack[name].includes(id)) ?? null;
}

/** The stands of one side still in its pool: in no combat yet. */
export function unplaced(allocation, side, ids) {
  const placedIn = side === "defender" ? combatOf : attackOf;
  return ids.filter((id) => placedIn(allocation, id) === null);
}

export function removeFrom(mapping, id) {
  for (const ids of Object.values(mapping)) {
    const index = ids.indexOf(id);
    if (index >= 0) ids.splice(index, 1);
  }
}

function nonEmpty(mapping) {
  return record(Object.entries(mapping).filter(([, ids]) => ids.length > 0));
}

/** Drop what no longer fits: empty combats, attacks and moves into combats that are gone. */
export function prune(allocation) {
  const {combats, attack, reallocate} = allocation;
  for (const [name, ids] of Object.entries(combats)) if (ids.length === 0) delete combats[name];
  for (const name of Object.keys(attack)) if (!(name in combats)) delete attack[name];
  for (const [name, ids] of Object.entries(attack)) if (ids.length === 0) delete attack[name];
  for (const [id, target] of Object.entries(reallocate)) {
    const from = combatOf(allocation, id);
    if (!(target in combats) || from === null || from === target) delete reallocate[id];
  }
  return allocation;
}

/** The leading part of the allocation made of ``parts`` (null: nothing placed yet). */
export function leading(allocation, parts) {
  if (Object.keys(allocation.combats).length === 0) return null;
  const given = {
    combats: allocation.combats, attack: nonEmpty(allocation.attack),
    reallocate: allocation.reallocate,
  };
  return Object.fromEntries(parts.map((part) => [part, given[part]]));
}

/** Lay ``replacement``'s parts over ``allocation`` (the later parts stay where they still fit). */
export function overlay(allocation, replacement) {
  const merged = copyAllocation(allocation);
  for (const part of PARTS) {
    if (replacement?.[part]) merged[part] = record(Object.entries(replacement[part]));
  }
  return prune(merged);
}

/** Where a stand is: its combat, the combat it attacks, the combat it moves to. */
function whereabouts(allocation, id) {
  return {
    combat: combatOf(allocation, id), attack: attackOf(allocation, id),
    move: allocation.reallocate[id] ?? null,
  };
}

function standsOf(allocation) {
  return [
    ...Object.values(allocation.combats).flat(), ...Object.values(allocation.attack).flat(),
    ...Object.keys(allocation.reallocate),
  ];
}

/**
 * What changed between two allocations, in words: every combat gone and every stand that went
 * somewhere else, except ``expected`` ({id, part}: the move the player just made).
 */
export function differences(before, after, expected = null) {
  const lines = [];
  const gone = Object.keys(before.combats).filter((name) => !(name in after.combats));
  if (gone.length) {
    lines.push(`${gone.length === 1 ? "combat" : "combats"} ${listing(gone)} ` +
      `${gone.length === 1 ? "is" : "are"} gone (no defender left in ${gone.length === 1 ? "it" : "them"})`);
  }
  const backToPool = {defender: [], attacker: []};
  for (const id of new Set([...standsOf(before), ...standsOf(after)])) {
    const was = whereabouts(before, id);
    const is = whereabouts(after, id);
    const skip = (part) => expected && expected.id === id && expected.part === part;
    if (was.combat !== is.combat && !skip("combats")) {
      if (is.combat === null) backToPool.defender.push(id);
      else if (was.combat === null) lines.push(`${id} went into combat ${is.combat}`);
      else lines.push(`${id} moved from combat ${was.combat} to ${is.combat}`);
    }
    if (was.attack !== is.attack && !skip("attack")) {
      if (is.attack === null) backToPool.attacker.push(id);
      else if (was.attack === null) lines.push(`${id} now attacks combat ${is.attack}`);
      else lines.push(`${id} attacks combat ${is.attack} instead of ${was.attack}`);
    }
    if (was.move !== is.move && !skip("reallocate")) {
      if (is.move === null) lines.push(`${id} no longer moves to combat ${was.move}`);
      else lines.push(`${id} now moves to combat ${is.move}`);
    }
  }
  for (const [side, ids] of Object.entries(backToPool)) {
    if (ids.length) lines.push(`${listing(ids)} went back to the ${side}s' pool`);
  }
  return lines;
}
