// The force builder ("New fight"): the building, each side from an organisation of the library
// (stands ticked by unit) or units and stands of the player's own, ratings, qualities and
// suppression, surprise, the ruleset and its house rules, and who is within one stand width of
// whom (by ticks, or by dragging the attackers on a small table). The server checks the fight as
// it grows and writes it as a scenario file; "Use this fight" puts it on the board.
import {api, errorNode, gameTerms} from "./api.js";
import {$, el, fill, listing} from "./dom.js";
import {openOwn} from "./scenarios.js";
import {warningsList} from "./show.js";

const SIDES = ["defender", "attacker"];
/** The small table, in stand widths; a token is one stand width across. */
const TABLE_WIDTH = 12;
const SPACING = 3;
const STEP = 0.5;

const library = {nations: [], profiles: [], terms: null, organisations: new Map()};

function newSide() {
  return {organisation: "", ticked: new Map(), units: [], stands: []};
}

let fight = null;

function newFight() {
  return {
    title: "",
    building: {name: "House", capacity: 2},
    surprise: false,
    profile: "crossfire",
    overrides: {},
    sides: {defender: newSide(), attacker: newSide()},
    positions: false,
    answer: null,     // the last {board, yaml} from the server
    error: null,
  };
}

// ---------------------------------------------------------------- the fight as a scenario

function typeTerm(type) {
  return library.terms.stand_types.find((t) => t.type === type);
}

function organisationStands(name) {
  const detail = library.organisations.get(name);
  return detail ? detail.units.flatMap((unit) => unit.stands) : [];
}

/** Every stand of a side taking part, as {id, type, role, ...} (ticked ones, then its own). */
function sideStands(side) {
  const {organisation, ticked, stands} = fight.sides[side];
  const fromOrg = organisationStands(organisation).filter((s) => ticked.has(s.id))
    .map((s) => ({...s, ...ticked.get(s.id)}));
  const ownStands = stands.filter((s) => s.id)
    .map((s) => ({...s, role: typeTerm(s.type).role, commander: typeTerm(s.type).commander}));
  return [...fromOrg, ...ownStands];
}

/** The fields of a stand that differ from ``base`` (the organisation's stand). */
function changes(stand, base, side) {
  const changed = {};
  if (typeTerm(stand.type).rated && stand.rating !== base.rating) changed.rating = stand.rating;
  if (stand.quality !== base.quality) changed.quality = stand.quality;
  if (stand.suppressed !== base.suppressed) changed.suppressed = stand.suppressed;
  if (side === "attacker" && stand.near?.length) changed.near = [...stand.near];
  if (side === "attacker" && fight.positions && stand.position) {
    changed.position = [...stand.position];
  }
  return changed;
}

function force(side) {
  const {organisation, ticked, units, stands} = fight.sides[side];
  const result = {};
  if (organisation) {
    result.organisation = organisation;
    result.present = organisationStands(organisation).filter((s) => ticked.has(s.id))
      .map((base) => {
        const changed = changes({...base, ...ticked.get(base.id)}, base, side);
        return Object.keys(changed).length ? {id: base.id, ...changed} : base.id;
      });
  }
  const ownUnits = units.filter((u) => u.id);
  if (ownUnits.length) result.units = unitTree(ownUnits);
  const ownStands = stands.filter((s) => s.id).map((s) => {
    const stand = {id: s.id, type: s.type, unit: s.unit};
    return {...stand, ...changes(s, {rating: null, quality: "regular", suppressed: false}, side)};
  });
  if (ownStands.length) result.stands = ownStands;
  return result;
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

export function builtScenario() {
  const scenario = {};
  if (fight.title.trim()) scenario.title = fight.title.trim();
  const overrides = Object.fromEntries(Object.entries(fight.overrides));
  if (Object.keys(overrides).length) scenario.ruleset = {base: fight.profile, overrides};
  else if (fight.profile !== "crossfire") scenario.ruleset = fight.profile;
  if (fight.surprise) scenario.surprise = true;
  scenario.building = {name: fight.building.name.trim() || "House",
    capacity: fight.building.capacity};
  for (const side of SIDES) scenario[side] = force(side);
  return scenario;
}

// ---------------------------------------------------------------- asking the server

let ticket = 0;
let timer = null;

/** Check the fight and write its file, a moment after the last change. */
function changed({redraw = true} = {}) {
  if (redraw) renderSides();
  clearTimeout(timer);
  timer = setTimeout(refresh, 150);
  $("builder-status").textContent = "Checking…";
  $("builder-use").disabled = true;
}

async function refresh() {
  const mine = ++ticket;
  const missing = SIDES.filter((side) => sideStands(side).length === 0);
  if (missing.length) {
    fight.answer = null;
    fight.error = null;
    renderAnswer(`Tick the stands of the ${listing(missing)} that take part.`);
    return;
  }
  const scenario = builtScenario();
  try {
    const [board, file] = await Promise.all([
      api("/api/board", {body: scenario}),
      api("/api/scenario-yaml", {body: scenario}),
    ]);
    if (mine !== ticket) return;
    fight.answer = {board, file, scenario};
    fight.error = null;
  } catch (error) {
    if (mine !== ticket) return;
    fight.answer = null;
    fight.error = error;
  }
  renderAnswer();
}

// ---------------------------------------------------------------- drawing

function option(value, text, selected) {
  return el("option", {value, text, selected: selected ? true : null});
}

function organisationPicker(side) {
  const current = fight.sides[side].organisation;
  return el("select", {
    id: `builder-org-${side}`, "data-testid": `builder-org-${side}`,
    onchange: async (event) => {
      const name = event.target.value;
      fight.sides[side] = {...fight.sides[side], organisation: name, ticked: new Map()};
      if (name && !library.organisations.has(name)) {
        library.organisations.set(name, await api(`/api/organisations/${encodeURIComponent(name)}`));
      }
      changed();
    },
  },
  option("", "None: only units and stands of my own", !current),
  library.nations.map((nation) => el("optgroup", {label: nation.nation},
    nation.organisations.map((org) => option(org.name, org.name, org.name === current)))));
}

function qualityPicker(testid, value, onchange) {
  return el("select", {"data-testid": testid, "aria-label": "quality", onchange},
    library.terms.qualities.map((q) => option(q, q, q === value)));
}

/** Rating, quality and suppression of one stand taking part. */
function standDetails(stand, update) {
  const rated = typeTerm(stand.type).rated;
  return el("span", {class: "stand-details"},
    rated ? el("label", {class: "inline"}, "rating +",
      el("input", {
        type: "number", min: "0", max: "3", step: "1", value: String(stand.rating ?? 0),
        "data-testid": `builder-rating-${stand.id}`, "aria-label": `rating of ${stand.id}`,
        onchange: (event) => update({rating: Number(event.target.value)}),
      })) : null,
    qualityPicker(`builder-quality-${stand.id}`, stand.quality,
      (event) => update({quality: event.target.value})),
    el("label", {class: "inline"},
      el("input", {
        type: "checkbox", checked: stand.suppressed ? true : null,
        "data-testid": `builder-suppressed-${stand.id}`,
        onchange: (event) => update({suppressed: event.target.checked}),
      }), "suppressed"));
}

function organisationStandsList(side) {
  const {organisation, ticked} = fight.sides[side];
  const detail = library.organisations.get(organisation);
  if (!detail) return null;
  return el("div", {class: "org-units"},
    el("p", {class: "note", text: detail.description}),
    detail.units.filter((unit) => unit.stands.length).map((unit) => el("fieldset", {
      class: "org-unit", style: null,
    },
    el("legend", {}, `${unit.name ?? unit.id} `, el("small", {text: `(${unit.kind}, ${unit.id})`}),
      " ",
      el("button", {
        type: "button", class: "quiet", "data-testid": `builder-unit-${side}-${unit.id}`,
        onclick: () => {
          const all = unit.stands.every((s) => ticked.has(s.id));
          for (const stand of unit.stands) {
            if (all) ticked.delete(stand.id);
            else if (!ticked.has(stand.id)) ticked.set(stand.id, baseValues(stand));
          }
          changed();
        },
      }, unit.stands.every((s) => ticked.has(s.id)) ? "untick all" : "tick all")),
    unit.stands.map((stand) => {
      const chosen = ticked.get(stand.id);
      return el("div", {class: "stand-row"},
        el("label", {class: "inline"},
          el("input", {
            type: "checkbox", checked: chosen ? true : null,
            "data-testid": `builder-stand-${stand.id}`,
            onchange: (event) => {
              if (event.target.checked) ticked.set(stand.id, baseValues(stand));
              else ticked.delete(stand.id);
              changed();
            },
          }),
          el("b", {text: stand.label}), " ", el("code", {text: stand.id}),
          stand.rating === null ? null : ` +${stand.rating}`),
        chosen ? standDetails({...stand, ...chosen}, (change) => {
          ticked.set(stand.id, {...chosen, ...change});
          changed();
        }) : null);
    }))));
}

function baseValues(stand) {
  return {rating: stand.rating, quality: stand.quality, suppressed: stand.suppressed, near: []};
}

function unitOptions(side) {
  const {organisation, units} = fight.sides[side];
  const fromOrg = library.organisations.get(organisation)?.units.map((u) => u.id) ?? [];
  return [...fromOrg, ...units.filter((u) => u.id).map((u) => u.id)];
}

function ownEditor(side) {
  const {units, stands} = fight.sides[side];
  const unitIds = unitOptions(side);
  const field = (testid, attributes, onchange) =>
    el("input", {"data-testid": testid, ...attributes, onchange});
  return el("details", {class: "own", open: units.length || stands.length ? true : null},
    el("summary", {"data-testid": `builder-own-${side}`}, "Units and stands of your own"),
    el("p", {class: "note", text: "Stand ids must differ from the other side's."}),
    units.map((unit, i) => el("div", {class: "own-row"},
      field(`builder-own-unit-${side}-${i}`, {value: unit.id, "aria-label": "unit id",
        placeholder: "unit id"}, (e) => { unit.id = e.target.value.trim(); changed(); }),
      el("select", {"aria-label": "kind", onchange: (e) => { unit.kind = e.target.value; changed(); }},
        library.terms.unit_kinds.map((k) => option(k, k, k === unit.kind))),
      el("select", {"aria-label": "under", onchange: (e) => { unit.parent = e.target.value; changed(); }},
        option("", "at the top", !unit.parent),
        units.filter((u) => u.id && u !== unit).map((u) => option(u.id, `under ${u.id}`,
          u.id === unit.parent))),
      el("button", {type: "button", class: "quiet", "aria-label": `remove unit ${unit.id}`,
        onclick: () => { units.splice(i, 1); changed(); }}, "✕"))),
    stands.map((stand, i) => el("div", {class: "own-row"},
      field(`builder-own-stand-${side}-${i}`, {value: stand.id, "aria-label": "stand id",
        placeholder: "stand id"}, (e) => { stand.id = e.target.value.trim(); changed(); }),
      el("select", {"aria-label": "type", "data-testid": `builder-own-type-${side}-${i}`,
        onchange: (e) => {
          stand.type = e.target.value;
          stand.rating = typeTerm(stand.type).rated ? (stand.rating ?? 1) : null;
          changed();
        }},
      library.terms.stand_types.map((t) => option(t.type, t.label, t.type === stand.type))),
      el("select", {"aria-label": "unit", "data-testid": `builder-own-unit-of-${side}-${i}`,
        onchange: (e) => { stand.unit = e.target.value; changed(); }},
      option("", "unit…", !stand.unit), unitIds.map((u) => option(u, u, u === stand.unit))),
      standDetails({...stand, id: `${side}-own-${i}`}, (change) => {
        Object.assign(stand, change);
        changed();
      }),
      el("button", {type: "button", class: "quiet", "aria-label": `remove stand ${stand.id}`,
        onclick: () => { stands.splice(i, 1); changed(); }}, "✕"))),
    el("div", {class: "button-row"},
      el("button", {
        type: "button", "data-testid": `builder-add-unit-${side}`,
        onclick: () => {
          units.push({id: `${side === "defender" ? "d" : "a"}unit${units.length + 1}`,
            kind: "platoon", parent: ""});
          changed();
        },
      }, "Add a unit"),
      el("button", {
        type: "button", "data-testid": `builder-add-stand-${side}`,
        onclick: () => {
          stands.push({id: `${side === "defender" ? "d" : "a"}${stands.length + 1}`,
            type: "rifle", unit: unitIds[0] ?? "", rating: null, quality: "regular",
            suppressed: false, near: []});
          changed();
        },
      }, "Add a stand")));
}

/** Set a stand's near list or position, wherever it comes from. */
function updateStand(id, change) {
  const {ticked, stands} = fight.sides.attacker;
  if (ticked.has(id)) ticked.set(id, {...ticked.get(id), ...change});
  const own = stands.find((s) => s.id === id);
  if (own) Object.assign(own, change);
}

function nearTicks(stands) {
  const leaders = stands.filter((s) => s.role === "leader");
  const others = stands.filter((s) => s.role === "squad" || s.commander);
  if (!leaders.length) return el("p", {class: "note", text: "No attacking leader taking part."});
  return leaders.map((leader) => el("fieldset", {class: "near-ticks"},
    el("legend", {}, `${leader.label} ${leader.id} is within one stand width of:`),
    others.filter((o) => o.id !== leader.id).map((other) => el("label", {class: "inline"},
      el("input", {
        type: "checkbox", checked: leader.near?.includes(other.id) ? true : null,
        "data-testid": `builder-near-${leader.id}-${other.id}`,
        onchange: (event) => {
          const near = new Set(leader.near ?? []);
          if (event.target.checked) near.add(other.id);
          else near.delete(other.id);
          updateStand(leader.id, {near: [...near]});
          changed();
        },
      }), other.id))));
}

/** Where a stand starts on the table: in rows, SPACING stand widths apart (nobody near). */
function startingPositions(stands) {
  const perRow = Math.floor(TABLE_WIDTH / SPACING);
  stands.forEach((stand, i) => {
    if (!stand.position) {
      updateStand(stand.id, {position: [1 + (i % perRow) * SPACING, 1 + Math.floor(i / perRow) * 2]});
    }
  });
}

function table(stands) {
  const rows = Math.max(...stands.map((s) => s.position?.[1] ?? 0), 4) + 2;
  const board = el("div", {
    class: "table-board", "data-testid": "builder-table", role: "group",
    "aria-label": "The attackers on the table: drag a counter, or focus it and use the arrow keys",
  });
  board.style.aspectRatio = `${TABLE_WIDTH} / ${rows}`;
  board.style.setProperty("--rows", String(rows));
  for (const stand of stands) {
    const token = el("button", {
      type: "button", class: `token role-${stand.role}`, "data-testid": `builder-token-${stand.id}`,
      "aria-label": `${stand.label} ${stand.id} at ${stand.position[0]}, ${stand.position[1]}`,
      title: stand.id,
    }, el("span", {text: stand.label}));
    const put = ([x, y]) => {
      token.style.left = `${(x - 0.5) / TABLE_WIDTH * 100}%`;
      token.style.top = `${(y - 0.5) / rows * 100}%`;
    };
    token.style.width = `${100 / TABLE_WIDTH}%`;
    token.style.height = `${100 / rows}%`;
    put(stand.position);
    const moveTo = (position) => {
      const [x, y] = position.map((v) => Math.round(v / 0.25) * 0.25);
      const clamped = [Math.min(Math.max(x, 0.5), TABLE_WIDTH - 0.5), Math.min(Math.max(y, 0.5), rows - 0.5)];
      updateStand(stand.id, {position: clamped});
      return clamped;
    };
    token.addEventListener("keydown", (event) => {
      const delta = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]}[event.key];
      if (!delta) return;
      event.preventDefault();
      const step = event.shiftKey ? 2 : STEP;
      moveTo([stand.position[0] + delta[0] * step, stand.position[1] + delta[1] * step]);
      focusAfter = `builder-token-${stand.id}`;
      changed();
    });
    token.addEventListener("pointerdown", (event) => {
      token.setPointerCapture(event.pointerId);
      token.classList.add("dragging");
      const area = board.getBoundingClientRect();
      const at = (e) => [(e.clientX - area.left) / area.width * TABLE_WIDTH,
        (e.clientY - area.top) / area.height * rows];
      token.onpointermove = (e) => put(moveTo(at(e)));
      token.onpointerup = (e) => {
        token.onpointermove = token.onpointerup = null;
        token.classList.remove("dragging");
        moveTo(at(e));
        focusAfter = `builder-token-${stand.id}`;
        changed();
      };
    });
    board.append(token);
  }
  return board;
}

let focusAfter = null;

function nearSection() {
  const stands = sideStands("attacker");
  if (fight.positions) startingPositions(stands);
  const placed = sideStands("attacker");
  return [
    el("p", {class: "note", text: "An attacking leader joins a combat only within one stand " +
      "width of a squad he joins there (5a). Say who stands near whom by ticking, or place the " +
      "attackers on the table (one square is one stand width)."}),
    nearTicks(placed),
    el("label", {class: "inline"},
      el("input", {
        type: "checkbox", checked: fight.positions ? true : null, "data-testid": "builder-positions",
        onchange: (event) => { fight.positions = event.target.checked; changed(); },
      }), "Place the attackers on a table"),
    fight.positions && placed.length ? table(placed) : null,
    el("div", {id: "builder-near-result", "data-testid": "builder-near-result"}),
  ];
}

function renderSides() {
  for (const side of SIDES) {
    fill($(`builder-${side}`),
      el("label", {for: `builder-org-${side}`, text: "Organisation from the library"}),
      organisationPicker(side),
      organisationStandsList(side),
      ownEditor(side));
  }
  fill($("builder-near"), nearSection());
  renderAnswer();
  if (focusAfter) {
    document.querySelector(`[data-testid="${focusAfter}"]`)?.focus();
    focusAfter = null;
  }
}

function renderAnswer(hint = null) {
  const {answer, error} = fight;
  const status = $("builder-status");
  const result = $("builder-near-result");
  $("builder-use").disabled = !answer;
  $("builder-copy").disabled = !answer;
  $("builder-download").disabled = !answer;
  fill($("builder-error"), error ? errorNode(error, "builder-error-box") : null);
  $("builder-yaml").textContent = answer?.file.yaml ?? "";
  if (hint) status.textContent = hint;
  else if (error) status.textContent = "The fight cannot be used yet: see the problem below.";
  else if (answer) {
    const {board} = answer;
    status.textContent = `${board.building_text} ${board.defender.length} defending and ` +
      `${board.attacker.length} attacking stands.`;
  }
  if (!result) return;
  const near = answer?.board.near ?? {};
  for (const [leader, ids] of Object.entries(near)) {
    const token = document.querySelector(`[data-testid="builder-token-${leader}"]`);
    token?.classList.toggle("is-near", ids.length > 0);
    token?.classList.toggle("near-nobody", ids.length === 0);
  }
  fill(result,
    Object.keys(near).length
      ? el("ul", {class: "near-result"}, Object.entries(near).map(([leader, ids]) =>
        el("li", {"data-testid": "builder-near-line", "data-leader": leader},
          ids.length ? `${leader} is within one stand width of ${listing(ids)}.`
            : `${leader} is within one stand width of nobody who fights.`)))
      : null,
    warningsList(answer?.board.warnings));
}

function renderFightFields() {
  const f = fight;
  $("builder-title").value = f.title;
  $("builder-building").value = f.building.name;
  $("builder-capacity").value = String(f.building.capacity);
  $("builder-surprise").checked = f.surprise;
  const profile = library.profiles.find((p) => p.name === f.profile) ?? library.profiles[0];
  fill($("builder-profile"), library.profiles.map((p) => option(p.name, p.name, p === profile)));
  fill($("builder-rules"), profile.switches.map((s) => houseRule(s)));
}

function houseRule(switchValue) {
  const {key, kind} = switchValue;
  const current = key in fight.overrides ? fight.overrides[key] : switchValue.value;
  const set = (value) => {
    if (value === switchValue.value) delete fight.overrides[key];
    else fight.overrides[key] = value;
    $("builder-rules-count").textContent = rulesCount();
    changed({redraw: false});
  };
  let control;
  if (kind === "bool") {
    control = el("input", {type: "checkbox", checked: current ? true : null,
      onchange: (e) => set(e.target.checked)});
  } else if (kind === "choice") {
    control = el("select", {onchange: (e) => set(e.target.value)},
      switchValue.choices.map((c) => option(c, c, c === current)));
  } else {
    const [low, high] = switchValue.range ?? [-10, 10];
    control = el("input", {type: "number", min: String(low), max: String(high), step: "1",
      value: String(current), onchange: (e) => set(Number(e.target.value))});
  }
  control.dataset.testid = `builder-rule-${key}`;
  control.id = `builder-rule-${key}`;
  return el("div", {class: "house-rule"},
    el("label", {for: control.id, class: "inline"}, el("code", {text: key})), control,
    el("p", {class: "note", text: switchValue.source}));
}

function rulesCount() {
  const count = Object.keys(fight.overrides).length;
  return count ? `(${count} changed)` : "(as the profile says)";
}

// ---------------------------------------------------------------- the buttons

async function copyYaml() {
  try {
    await navigator.clipboard.writeText(fight.answer.file.yaml);
    $("builder-note").textContent = "Copied: save it as a .yaml file and run `cfalloc check` on it.";
  } catch {
    $("builder-note").textContent = "Select the text above and copy it.";
  }
}

function downloadYaml() {
  const {yaml, file_name: name} = fight.answer.file;
  const link = el("a", {download: name, href: URL.createObjectURL(new Blob([yaml],
    {type: "application/yaml"}))});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function useFight() {
  const {scenario, board} = fight.answer;
  await openOwn(scenario, board.title);
  closeBuilder();
  $("building-name").scrollIntoView({block: "start"});
  $("building-name").focus();
}

function closeBuilder() {
  $("builder").hidden = true;
  $("new-fight").setAttribute("aria-expanded", "false");
}

async function openBuilder() {
  const box = $("builder");
  if (!box.hidden) {
    closeBuilder();
    return;
  }
  if (!library.terms) {
    const [organisations, profiles, terms] = await Promise.all([
      api("/api/organisations"), api("/api/profiles"), gameTerms(),
    ]);
    library.nations = organisations.nations;
    library.profiles = profiles.profiles;
    library.terms = terms;
  }
  fight ??= newFight();
  box.hidden = false;
  $("new-fight").setAttribute("aria-expanded", "true");
  renderFightFields();
  $("builder-rules-count").textContent = rulesCount();
  changed();
  $("builder-heading").scrollIntoView({block: "start"});
  $("builder-title").focus();
}

export function wireBuilder() {
  $("new-fight").addEventListener("click", openBuilder);
  $("builder-close").addEventListener("click", closeBuilder);
  $("builder-restart").addEventListener("click", () => {
    fight = newFight();
    renderFightFields();
    changed();
  });
  $("builder-title").addEventListener("input", (e) => {
    fight.title = e.target.value;
    changed({redraw: false});
  });
  $("builder-building").addEventListener("input", (e) => {
    fight.building.name = e.target.value;
    changed({redraw: false});
  });
  $("builder-capacity").addEventListener("input", (e) => {
    fight.building.capacity = Number(e.target.value);
    changed({redraw: false});
  });
  $("builder-surprise").addEventListener("change", (e) => {
    fight.surprise = e.target.checked;
    changed({redraw: false});
  });
  $("builder-profile").addEventListener("change", (e) => {
    fight.profile = e.target.value;
    fight.overrides = {};
    renderFightFields();
    changed({redraw: false});
  });
  $("builder-copy").addEventListener("click", copyYaml);
  $("builder-download").addEventListener("click", downloadYaml);
  $("builder-use").addEventListener("click", useFight);
}
