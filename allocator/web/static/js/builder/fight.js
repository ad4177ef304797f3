// The fight being set up in the builder (state.fight) and the scenario it makes. Pure functions
// of the page's state: they never draw and never ask the server. Every default and bound is the
// server's (state.library.terms.fields, read from the scenario file's JSON Schema).
import {state} from "../state.js";

export const SIDES = ["defender", "attacker"];

function fields() {
  return state.library.terms.fields;
}

function newSide() {
  return {organisation: "", ticked: new Map(), units: [], stands: []};
}

/** A fight as the file format starts one: its defaults. */
export function newFight() {
  const f = fields();
  return {
    title: "",
    building: {name: f.building_name.default, capacity: f.capacity.default},
    surprise: f.surprise.default,
    profile: f.ruleset.default,
    overrides: {},
    sides: {defender: newSide(), attacker: newSide()},
    positions: false,
    outside: new Set(),  // the defending stands left outside the building (B1): not in the fight
    answer: null,     // the last {board, file, scenario} from the server
    error: null,      // the last failure: the server's refusal, or no answer
    focus: null,      // the control to focus after the next drawing
  };
}

export function typeTerm(type) {
  return state.library.terms.stand_types.find((t) => t.type === type);
}

export function organisationStands(name) {
  const detail = state.library.organisations.get(name);
  return detail ? detail.units.flatMap((unit) => unit.stands) : [];
}

/** Whether a stand ticked or of the player's own is left outside the building (B1). */
function inFight(id) {
  return !state.fight.outside.has(id);
}

/** Every stand of a side ticked or of its own, as {id, type, role, ...}, outside ones too. */
export function chosenStands(side) {
  const {organisation, ticked, stands} = state.fight.sides[side];
  const fromOrg = organisationStands(organisation).filter((s) => ticked.has(s.id))
    .map((s) => ({...s, ...ticked.get(s.id)}));
  const ownStands = stands.filter((s) => s.id)
    .map((s) => ({...s, role: typeTerm(s.type).role, commander: typeTerm(s.type).commander}));
  return [...fromOrg, ...ownStands];
}

/** Every stand of a side taking part (not left outside), as {id, type, role, ...}. */
export function sideStands(side) {
  return chosenStands(side).filter((s) => inFight(s.id));
}

/** The values a stand of the player's own starts from: the file format's defaults. */
export function ownDefaults() {
  const f = fields();
  return {rating: f.rating.default, quality: f.quality.default, suppressed: f.suppressed.default};
}

/** A ticked stand of an organisation starts as the organisation has it. */
export function baseValues(stand) {
  return {rating: stand.rating, quality: stand.quality, suppressed: stand.suppressed, near: []};
}

/** The fields of a stand that differ from ``base`` (the organisation's stand, or the defaults). */
function changes(stand, base, side) {
  const changed = {};
  if (typeTerm(stand.type).rated && stand.rating !== base.rating) changed.rating = stand.rating;
  if (stand.quality !== base.quality) changed.quality = stand.quality;
  if (stand.suppressed !== base.suppressed) changed.suppressed = stand.suppressed;
  if (side === "attacker" && stand.near?.length) changed.near = [...stand.near];
  if (side === "attacker" && state.fight.positions && stand.position) {
    changed.position = [...stand.position];
  }
  return changed;
}

/** The player's own units as a tree: a unit under its parent when the parent is one of them. */
function unitTree(units) {
  const ids = new Set(units.map((u) => u.id));
  const node = (unit) => {
    const children = units.filter((u) => u.parent === unit.id).map(node);
    return {id: unit.id, kind: unit.kind, ...(children.length ? {units: children} : {})};
  };
  return units.filter((u) => !ids.has(u.parent)).map(node);
}

function force(side) {
  const {organisation, ticked, units, stands} = state.fight.sides[side];
  const result = {};
  if (organisation) {
    result.organisation = organisation;
    result.present = organisationStands(organisation)
      .filter((s) => ticked.has(s.id) && inFight(s.id))
      .map((base) => {
        const changed = changes({...base, ...ticked.get(base.id)}, base, side);
        return Object.keys(changed).length ? {id: base.id, ...changed} : base.id;
      });
  }
  const ownUnits = units.filter((u) => u.id);
  if (ownUnits.length) result.units = unitTree(ownUnits);
  const ownStands = stands.filter((s) => s.id && inFight(s.id)).map((s) => {
    const stand = {id: s.id, type: s.type, unit: s.unit};
    return {...stand, ...changes(s, ownDefaults(), side)};
  });
  if (ownStands.length) result.stands = ownStands;
  return result;
}

/** The fight as a scenario: only what differs from the file format's defaults is written. */
export function builtScenario() {
  const {fight} = state;
  const f = fields();
  const scenario = {};
  if (fight.title.trim()) scenario.title = fight.title.trim();
  const overrides = Object.fromEntries(Object.entries(fight.overrides));
  if (Object.keys(overrides).length) scenario.ruleset = {base: fight.profile, overrides};
  else if (fight.profile !== f.ruleset.default) scenario.ruleset = fight.profile;
  if (fight.surprise !== f.surprise.default) scenario.surprise = fight.surprise;
  const name = fight.building.name.trim();
  scenario.building = {...(name ? {name} : {}), capacity: fight.building.capacity};
  for (const side of SIDES) scenario[side] = force(side);
  return scenario;
}

/** Set an attacking stand's near list or position, wherever it comes from. */
export function updateStand(id, change) {
  const {ticked, stands} = state.fight.sides.attacker;
  if (ticked.has(id)) ticked.set(id, {...ticked.get(id), ...change});
  const own = stands.find((s) => s.id === id);
  if (own) Object.assign(own, change);
}

/** The units a stand of the player's own may belong to: the organisation's, then its own. */
export function unitOptions(side) {
  const {organisation, units} = state.fight.sides[side];
  const fromOrg = state.library.organisations.get(organisation)?.units.map((u) => u.id) ?? [];
  return [...fromOrg, ...units.filter((u) => u.id).map((u) => u.id)];
}

/** The organisations the fight names that the page has not fetched yet. */
export function missingOrganisations() {
  return SIDES.map((side) => state.fight.sides[side].organisation)
    .filter((name) => name && !state.library.organisations.has(name));
}

/** The shipped profile of that name (the first one when there is none). */
export function profileNamed(name) {
  return state.library.profiles.find((p) => p.name === name) ?? state.library.profiles[0];
}
