// The two trooper cards, built from GET /api/infinity/menus: every control is a field of a
// trooper in the engagement file (its label, bounds and default from the server), every menu a
// ruleset's list (ammunition, traits, skills with their levels, immunities). The cards read
// back as the engagement the API takes, with the fields left at their defaults left out.
import {$, el, fill} from "../dom.js";

/** The trooper fields the cards set; any other in a link or an example cannot be shown. */
export const CARD_FIELDS = [
  "name", "type", "action", "attribute", "modifiers", "burst", "weapon", "damage", "ph", "ps",
  "ammunition", "traits", "armour", "bts", "vita", "structure", "wounds_taken", "allies",
  "skills",
];
const IMMUNITY = "immunity";

function spec(menus, name) {
  return menus.fields.find((field) => field.name === name);
}

/** The id (and test id) of a side's control: inf-active-cc, inf-reactive-skill-guard. */
export function controlId(side, key) {
  return `inf-${side}-${key}`;
}

function labelled(side, key, text, input, help) {
  const id = controlId(side, key);
  input.id = id;
  input.dataset.testid = id;
  if (input.type === "checkbox") {
    return el("label", {class: "inline", for: id, title: help || null}, input, ` ${text}`);
  }
  return el("div", {class: `inf-control inf-${key}`},
    el("label", {for: id, title: help || null, text}), input);
}

function numberInput(menus, field, place, {maximum, placeholder} = {}) {
  const bounds = spec(menus, field);
  return el("input", {
    type: "number", step: "1", inputmode: "numeric", "data-field": place,
    min: bounds?.minimum ?? null, max: maximum ?? bounds?.maximum ?? null,
    placeholder: placeholder ?? null,
  });
}

function textInput(menus, field, place) {
  return el("input", {type: "text", maxlength: spec(menus, field)?.max_length ?? null,
    "data-field": place});
}

function select(options, place) {
  return el("select", {"data-field": place},
    options.map(([value, text, title]) => el("option", {value, title: title || null, text})));
}

/** The controls of one side's card for one ruleset. */
function card(menus, ruleset, side) {
  const place = (field) => `${side}.${field}`;
  const label = (field) => spec(menus, field)?.label ?? field;
  const help = (field) => spec(menus, field)?.description ?? "";
  const heading = el("h2", {id: `inf-card-${side}-heading`, text: menus.sides[side]});
  const roll = el("fieldset", {class: "inf-group"}, el("legend", {text: "Roll"}),
    labelled(side, "action", label("action"),
      select(ruleset.actions.map((a) => [a.name, a.description]), place("action")),
      help("action")),
    labelled(side, "cc", label("attribute"), numberInput(menus, "attribute", place("attribute")),
      help("attribute")),
    labelled(side, "mod", label("modifiers"), numberInput(menus, "modifiers", place("modifiers")),
      help("modifiers")),
    labelled(side, "burst", label("burst"),
      numberInput(menus, "burst", place("burst"), {maximum: ruleset.max_burst}), help("burst")),
    labelled(side, "allies", label("allies"), numberInput(menus, "allies", place("allies")),
      help("allies")));
  const strength = ruleset.strength === "ps"
    ? [labelled(side, "ps", label("ps"), numberInput(menus, "ps", place("ps"),
      {placeholder: "none"}), help("ps"))]
    : [labelled(side, "damage", label("damage"), numberInput(menus, "damage", place("damage"),
      {placeholder: "none"}), help("damage")),
    labelled(side, "damage-ph", `${label("damage")} = ${label("ph")}`,
      el("input", {type: "checkbox", "data-field": place("damage")}), help("damage")),
    labelled(side, "ph", label("ph"), numberInput(menus, "ph", place("ph")), help("ph"))];
  const weapon = el("fieldset", {class: "inf-group"}, el("legend", {text: label("weapon")}),
    labelled(side, "weapon", label("weapon"),
      textInput(menus, "weapon", place("weapon")), help("weapon")),
    strength,
    labelled(side, "ammo", label("ammunition"),
      select(ruleset.ammunition.map((a) => [a.name, a.name, a.description]), place("ammunition")),
      help("ammunition")),
    ruleset.traits.map((trait) => labelled(side, `trait-${trait.name}`, trait.description,
      el("input", {type: "checkbox", "data-field": place("traits")}), trait.description)));
  const who = el("fieldset", {class: "inf-group"}, el("legend", {text: "Trooper"}),
    labelled(side, "name", label("name"),
      textInput(menus, "name", place("name")), help("name")),
    labelled(side, "type", label("type"),
      select([["", "—"], ...ruleset.trooper_types.map((t) => [t, t])], place("type")),
      help("type")));
  const body = el("fieldset", {class: "inf-group"}, el("legend", {text: "Protection and wounds"}),
    labelled(side, "armour", label("armour"), numberInput(menus, "armour", place("armour")),
      help("armour")),
    labelled(side, "bts", label("bts"), numberInput(menus, "bts", place("bts")), help("bts")),
    labelled(side, "vita", ruleset.vita, numberInput(menus, "vita", place("vita"),
      {placeholder: "none"}), help("vita")),
    labelled(side, "wounds", label("wounds_taken"),
      numberInput(menus, "wounds_taken", place("wounds_taken")), help("wounds_taken")),
    labelled(side, "structure", label("structure"),
      el("input", {type: "checkbox", "data-field": place("structure")}), help("structure")));
  const skills = el("fieldset", {class: "inf-group inf-skills"},
    el("legend", {text: label("skills")}),
    ruleset.skills.map((skill) => labelled(side, `skill-${skill.name}`, skill.title,
      select(skill.options.map((o) => [String(o.value), o.label]),
        place(`skills.${skill.name}`)))),
    ruleset.immunities.map((immunity) => labelled(side, `immunity-${immunity.name}`,
      immunity.description,
      el("input", {type: "checkbox", "data-field": place(`skills.${IMMUNITY}`)}))));
  return [heading, who, roll, weapon, body, skills];
}

/** Draw both cards for ``ruleset`` (a menu of /api/infinity/menus). */
export function renderCards(menus, ruleset) {
  for (const side of Object.keys(menus.sides)) {
    fill($(`inf-card-${side}`), card(menus, ruleset, side));
    const ph = $(controlId(side, "damage-ph"));
    ph?.addEventListener("change", () => showPh(side));
  }
}

function showPh(side) {
  const ph = $(controlId(side, "damage-ph"));
  if (!ph) return;
  $(controlId(side, "damage")).disabled = ph.checked;
  $(controlId(side, "ph")).closest(".inf-control").hidden = !ph.checked;
}

// ------------------------------------------------------------------ reading and writing

function number(input) {
  return input.value === "" ? undefined : Number(input.value);
}

function defaultOf(menus, field) {
  return spec(menus, field)?.default ?? null;
}

/** One side's trooper as the cards say it, without the fields left at their defaults. */
function readTrooper(menus, ruleset, side) {
  const get = (key) => $(controlId(side, key));
  const trooper = {};
  const put = (field, value) => {
    if (value !== undefined && value !== "" && value !== defaultOf(menus, field)) {
      trooper[field] = value;
    }
  };
  put("name", get("name").value.trim());
  put("type", get("type").value || undefined);
  put("action", get("action").value);
  put("attribute", number(get("cc")));
  const mod = number(get("mod"));
  if (mod) trooper.modifiers = [mod];
  put("burst", number(get("burst")));
  put("weapon", get("weapon").value.trim());
  if (ruleset.strength === "ps") {
    put("ps", number(get("ps")));
  } else if (get("damage-ph").checked) {
    trooper.damage = "PH";
    put("ph", number(get("ph")));
  } else {
    put("damage", number(get("damage")));
  }
  put("ammunition", get("ammo").value);
  const traits = ruleset.traits.filter((t) => get(`trait-${t.name}`).checked).map((t) => t.name);
  if (traits.length) trooper.traits = traits;
  for (const field of ["armour", "bts", "vita", "allies"]) put(field, number(get(field)));
  put("wounds_taken", number(get("wounds")));
  if (get("structure").checked) trooper.structure = true;
  const skills = {};
  for (const skill of ruleset.skills) {
    const chosen = skill.options.find((o) => String(o.value) === get(`skill-${skill.name}`).value);
    if (chosen && chosen.value !== skill.options[0].value) skills[skill.name] = chosen.value;
  }
  const immunities = ruleset.immunities.filter((i) => get(`immunity-${i.name}`).checked);
  if (immunities.length) skills[IMMUNITY] = immunities.map((i) => i.name);
  if (Object.keys(skills).length) trooper.skills = skills;
  return trooper;
}

/** The engagement the cards say, as POST /api/infinity/roll takes it. */
export function readEngagement(menus, ruleset) {
  const engagement = {rules: ruleset.name};
  for (const side of Object.keys(menus.sides)) {
    engagement[side] = readTrooper(menus, ruleset, side);
  }
  return engagement;
}

function isNone(value) {
  return value === undefined || value === null || value === false || value === 0 ||
    value === "" || (Array.isArray(value) && value.length === 0);
}

function setNumber(input, value) {
  input.value = value === undefined || value === null ? "" : String(value);
}

/** Fill one side's card from a trooper; the list of what it could not show. */
function writeTrooper(menus, ruleset, side, trooper) {
  const get = (key) => $(controlId(side, key));
  const value = (field) => trooper[field] ?? defaultOf(menus, field);
  const unshown = Object.keys(trooper)
    .filter((field) => !CARD_FIELDS.includes(field) && trooper[field] !== defaultOf(menus, field))
    .map((field) => `${side}.${field}`);
  const choose = (key, field, wanted) => {
    get(key).value = wanted;
    if (get(key).value !== wanted) unshown.push(`${side}.${field}`);
  };
  get("name").value = value("name") ?? "";
  choose("type", "type", value("type") ?? "");
  choose("action", "action", value("action"));
  setNumber(get("cc"), trooper.attribute);
  const mods = Array.isArray(trooper.modifiers) ? trooper.modifiers : [];
  setNumber(get("mod"), mods.reduce((sum, mod) => sum + Number(mod), 0));
  setNumber(get("burst"), value("burst"));
  get("weapon").value = value("weapon") ?? "";
  if (ruleset.strength === "ps") {
    setNumber(get("ps"), trooper.ps);
    if (!isNone(trooper.damage)) unshown.push(`${side}.damage`);
  } else {
    const ph = trooper.damage === "PH";
    get("damage-ph").checked = ph;
    setNumber(get("damage"), ph ? undefined : trooper.damage);
    setNumber(get("ph"), trooper.ph);
    showPh(side);
    if (!isNone(trooper.ps)) unshown.push(`${side}.ps`);
  }
  choose("ammo", "ammunition", value("ammunition"));
  const traits = Array.isArray(trooper.traits) ? trooper.traits : [];
  for (const trait of ruleset.traits) get(`trait-${trait.name}`).checked = traits.includes(trait.name);
  unshown.push(...traits.filter((t) => !ruleset.traits.some((known) => known.name === t))
    .map((t) => `${side}.traits: ${t}`));
  for (const field of ["armour", "bts", "allies"]) setNumber(get(field), value(field));
  setNumber(get("vita"), trooper.vita);
  setNumber(get("wounds"), value("wounds_taken"));
  get("structure").checked = trooper.structure === true;
  const skills = trooper.skills && typeof trooper.skills === "object" ? trooper.skills : {};
  for (const skill of ruleset.skills) {
    const given = skills[skill.name] ?? skill.options[0].value;
    const shown = skill.options.find((o) => o.value === given) ??
      (isNone(given) ? skill.options[0] : null);
    get(`skill-${skill.name}`).value = String((shown ?? skill.options[0]).value);
    if (!shown) unshown.push(`${side}.skills.${skill.name}`);
  }
  const immunities = Array.isArray(skills[IMMUNITY]) ? skills[IMMUNITY] : [];
  for (const immunity of ruleset.immunities) {
    get(`immunity-${immunity.name}`).checked = immunities.includes(immunity.name);
  }
  unshown.push(...immunities.filter((i) => !ruleset.immunities.some((k) => k.name === i))
    .map((i) => `${side}.skills.${IMMUNITY}: ${i}`));
  for (const [name, given] of Object.entries(skills)) {
    if (name !== IMMUNITY && !ruleset.skills.some((s) => s.name === name) && !isNone(given)) {
      unshown.push(`${side}.skills.${name}`);
    }
  }
  return unshown;
}

/**
 * Fill the cards from an engagement (an example, a link, a saved result); the fields the cards
 * cannot show (a melee, a Fireteam, a skill of the other ruleset) are returned, not dropped
 * silently.
 */
export function writeEngagement(menus, ruleset, engagement) {
  const unshown = Object.keys(engagement)
    .filter((key) => !["rules", ...Object.keys(menus.sides)].includes(key) &&
      !isNone(engagement[key]));
  for (const side of Object.keys(menus.sides)) {
    const trooper = engagement[side] && typeof engagement[side] === "object" ? engagement[side] : {};
    unshown.push(...writeTrooper(menus, ruleset, side, trooper));
  }
  return unshown;
}

/** Mark the control a server's error names (``active.burst``), and unmark the others. */
export function markInvalid(place) {
  for (const node of document.querySelectorAll("#inf-form [aria-invalid]")) {
    node.removeAttribute("aria-invalid");
  }
  if (!place) return null;
  const parts = place.split(/[.[]/);
  for (let n = parts.length; n > 1; n -= 1) {
    const field = parts.slice(0, n).join(".");
    const nodes = document.querySelectorAll(`#inf-form [data-field="${CSS.escape(field)}"]`);
    const shown = [...nodes].find((node) => !node.disabled && !node.closest("[hidden]"));
    if (shown) {
      shown.setAttribute("aria-invalid", "true");
      return shown;
    }
  }
  return null;
}
