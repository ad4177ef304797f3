// Drawing the builder from the page's state: the building's fields and house rules, each side
// (an organisation's stands by unit, or units and stands of the player's own), who is near whom,
// and the server's answer (its problem, the file's text, who is near whom in words). A change
// only updates state.fight and says so (fightChanged); js/builder.js asks the server.
import {errorNode} from "../api.js";
import {$, el, fill} from "../dom.js";
import {ruleLink, warningsList, withRuleLinks} from "../show.js";
import {fightChanged, state} from "../state.js";
import {
  SIDES, baseValues, chosenStands, ownDefaults, profileNamed, sideStands, typeTerm, unitOptions, updateStand,
} from "./fight.js";
import {markTokens, startingPositions, table} from "./table.js";

function terms() {
  return state.library.terms;
}

function option(value, text, selected) {
  return el("option", {value, text, selected: selected ? true : null});
}

/** The statements of the rules about a field, each linked to the glossary. */
function rulesNote(field) {
  const rules = terms().rules.filter((rule) => field.rules.includes(rule.id));
  return rules.map((rule) => el("p", {class: "note", "data-testid": "builder-rule-note"},
    ruleLink(rule.id), " ", withRuleLinks(rule.statement)));
}

function organisationPicker(side) {
  const current = state.fight.sides[side].organisation;
  return el("select", {
    id: `builder-org-${side}`, "data-testid": `builder-org-${side}`,
    onchange: (event) => {
      state.fight.sides[side] = {...state.fight.sides[side], organisation: event.target.value,
        ticked: new Map()};
      fightChanged();
    },
  },
  option("", "None: only units and stands of my own", !current),
  state.library.nations.map((nation) => el("optgroup", {label: nation.nation},
    nation.organisations.map((org) => option(org.name, org.title, org.name === current)))));
}

function qualityPicker(testid, value, onchange) {
  return el("select", {"data-testid": testid, "aria-label": "quality", onchange},
    terms().qualities.map((q) => option(q, q, q === value)));
}

/** Rating (a leader's), quality and suppression of one stand taking part. */
function standDetails(stand, update) {
  const rating = terms().fields.rating;
  return el("span", {class: "stand-details"},
    typeTerm(stand.type).rated ? el("label", {class: "inline"}, "rating +",
      el("input", {
        type: "number", min: rating.minimum, max: rating.maximum, step: "1",
        value: stand.rating === null ? "" : String(stand.rating), placeholder: "none",
        "data-testid": `builder-rating-${stand.id}`, "aria-label": `rating of ${stand.id}`,
        onchange: (event) => update({
          rating: event.target.value === "" ? null : Number(event.target.value),
        }),
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

function unitBox(side, unit, ticked) {
  const all = unit.stands.every((s) => ticked.has(s.id));
  return el("fieldset", {class: "org-unit"},
    el("legend", {}, `${unit.name ?? unit.id} `, el("small", {text: `(${unit.kind}, ${unit.id})`}),
      " ",
      el("button", {
        type: "button", class: "quiet", "data-testid": `builder-unit-${side}-${unit.id}`,
        onclick: () => {
          for (const stand of unit.stands) {
            if (all) ticked.delete(stand.id);
            else if (!ticked.has(stand.id)) ticked.set(stand.id, baseValues(stand));
          }
          fightChanged();
        },
      }, all ? "untick all" : "tick all")),
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
              fightChanged();
            },
          }),
          el("b", {text: stand.name}), " ",
          stand.name === stand.id ? null : el("small", {text: `${stand.label}, `}),
          el("code", {text: stand.id}),
          stand.rating === null ? null : ` +${stand.rating}`),
        chosen ? standDetails({...stand, ...chosen}, (change) => {
          ticked.set(stand.id, {...chosen, ...change});
          fightChanged();
        }) : null);
    }));
}

function organisationStandsList(side) {
  const {organisation, ticked} = state.fight.sides[side];
  const detail = state.library.organisations.get(organisation);
  if (!detail) return organisation ? el("p", {class: "note", text: "Loading…"}) : null;
  return el("div", {class: "org-units"},
    el("p", {class: "note", text: detail.description}),
    detail.units.filter((unit) => unit.stands.length).map((unit) => unitBox(side, unit, ticked)));
}

function ownEditor(side) {
  const {units, stands} = state.fight.sides[side];
  const {fields} = terms();
  const unitIds = unitOptions(side);
  const changed = () => fightChanged();
  const idField = (testid, value, label, set) => el("input", {
    "data-testid": testid, value, "aria-label": label, placeholder: label,
    maxlength: fields.stand_id.max_length, onchange: (e) => { set(e.target.value.trim()); changed(); },
  });
  const prefix = side === "defender" ? "d" : "a";
  return el("details", {class: "own", open: units.length || stands.length ? true : null},
    el("summary", {"data-testid": `builder-own-${side}`}, "Units and stands of your own"),
    el("p", {class: "note", text: "Stand ids must differ from the other side's."}),
    units.map((unit, i) => el("div", {class: "own-row"},
      idField(`builder-own-unit-${side}-${i}`, unit.id, "unit id", (id) => { unit.id = id; }),
      el("select", {"aria-label": "kind", onchange: (e) => { unit.kind = e.target.value; changed(); }},
        terms().unit_kinds.map((k) => option(k, k, k === unit.kind))),
      el("select", {"aria-label": "under", onchange: (e) => { unit.parent = e.target.value; changed(); }},
        option("", "at the top", !unit.parent),
        units.filter((u) => u.id && u !== unit).map((u) => option(u.id, `under ${u.id}`,
          u.id === unit.parent))),
      el("button", {type: "button", class: "quiet", "aria-label": `remove unit ${unit.id}`,
        onclick: () => { units.splice(i, 1); changed(); }}, "✕"))),
    stands.map((stand, i) => el("div", {class: "own-row"},
      idField(`builder-own-stand-${side}-${i}`, stand.id, "stand id", (id) => { stand.id = id; }),
      el("select", {"aria-label": "type", "data-testid": `builder-own-type-${side}-${i}`,
        onchange: (e) => { stand.type = e.target.value; changed(); }},
      terms().stand_types.map((t) => option(t.type, t.label, t.type === stand.type))),
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
          units.push({id: `${prefix}unit${units.length + 1}`, kind: fields.unit_kind.default,
            parent: ""});
          changed();
        },
      }, "Add a unit"),
      el("button", {
        type: "button", "data-testid": `builder-add-stand-${side}`,
        onclick: () => {
          stands.push({id: `${prefix}${stands.length + 1}`, type: fields.stand_type.default,
            unit: unitIds[0] ?? "", near: [], ...ownDefaults()});
          changed();
        },
      }, "Add a stand")));
}

/** A unit's readable name in the side's organisation (else its id). */
function unitName(side, id) {
  const detail = state.library.organisations.get(state.fight.sides[side].organisation);
  return detail?.units.find((unit) => unit.id === id)?.name ?? id;
}

/** Put these stands beside a leader (``ids``: all of them, his whole list). */
function setNear(leader, ids) {
  updateStand(leader.id, {near: ids});
  fightChanged();
}

/** One leader's ticks, with shortcuts: all of a unit beside him, or nobody. */
function leaderTicks(leader, others) {
  const near = new Set(leader.near ?? []);
  const units = [...new Set(others.map((other) => other.unit))];
  return el("fieldset", {class: "near-ticks"},
    el("legend", {}, `${leader.name ?? leader.id} (${leader.id}): `,
      terms().fields.near.description),
    el("div", {class: "near-shortcuts"},
      units.map((unit) => el("button", {
        type: "button", class: "quiet", "data-testid": `builder-near-${leader.id}-unit-${unit}`,
        onclick: () => setNear(leader, [...new Set([...near,
          ...others.filter((other) => other.unit === unit).map((other) => other.id)])]),
      }, `+ all of ${unitName("attacker", unit)}`)),
      el("button", {
        type: "button", class: "quiet", "data-testid": `builder-near-${leader.id}-none`,
        onclick: () => setNear(leader, []),
      }, "nobody")),
    others.map((other) => el("label", {class: "inline", title: other.name ?? other.id},
      el("input", {
        type: "checkbox", checked: near.has(other.id) ? true : null,
        "data-testid": `builder-near-${leader.id}-${other.id}`,
        onchange: (event) => {
          if (event.target.checked) near.add(other.id);
          else near.delete(other.id);
          setNear(leader, [...near]);
        },
      }), other.counter_label ?? other.id)));
}

/** For each attacking leader, a tick for each stand he may stand beside (one that fights). */
function nearTicks(stands) {
  const leaders = stands.filter((s) => typeTerm(s.type).rated);
  const fighting = stands.filter((s) => typeTerm(s.type).fights);
  if (!leaders.length) return el("p", {class: "note", text: "No attacking leader taking part."});
  const othersOf = (leader) => fighting.filter((other) => other.id !== leader.id);
  return [
    el("button", {
      type: "button", "data-testid": "builder-near-everyone",
      onclick: () => {
        for (const leader of leaders) updateStand(leader.id, {near: othersOf(leader).map((o) => o.id)});
        fightChanged();
      },
    }, "Everyone within one stand width of everyone"),
    leaders.map((leader) => leaderTicks(leader, othersOf(leader))),
  ];
}

function nearSection() {
  const {fight} = state;
  if (fight.positions) startingPositions(sideStands("attacker"));
  const placed = sideStands("attacker");
  return [
    rulesNote(terms().fields.near),
    el("p", {class: "note", text: "Say who stands near whom by ticking, or place the attackers " +
      "on the table (one square is one stand width)."}),
    nearTicks(placed),
    el("label", {class: "inline"},
      el("input", {
        type: "checkbox", checked: fight.positions ? true : null, "data-testid": "builder-positions",
        onchange: (event) => { fight.positions = event.target.checked; fightChanged(); },
      }), "Place the attackers on a table"),
    fight.positions && placed.length ? table(placed) : null,
    el("div", {id: "builder-near-result", "data-testid": "builder-near-result"}),
  ];
}

/** Both sides and who is near whom, then the server's last answer. */
export function renderSides() {
  for (const side of SIDES) {
    fill($(`builder-${side}`),
      el("label", {for: `builder-org-${side}`, text: "Organisation from the library"}),
      organisationPicker(side),
      organisationStandsList(side),
      ownEditor(side));
  }
  fill($("builder-near"), nearSection());
  renderAnswer();
  if (state.fight.focus) {
    document.querySelector(`[data-testid="${state.fight.focus}"]`)?.focus();
    state.fight.focus = null;
  }
}

/** A defending stand in words: "1st Platoon, 2nd Squad (su-1plt-sq2)", or its id. */
function standWords(stand) {
  return stand.name && stand.name !== stand.id ? `${stand.name} (${stand.id})` : stand.id;
}

/**
 * What the building refuses (too many squads and weapons inside, B1; too big a building, B2), in
 * the server's words, with a tick for each stand that counts to choose who stays outside; once
 * it fits, who was left outside, to bring back.
 */
function outsideChoice(problems) {
  const {outside} = state.fight;
  const defenders = chosenStands("defender");
  const counted = new Set(problems.flatMap((problem) => problem.stands));
  const candidates = defenders.filter((s) => counted.has(s.id) || outside.has(s.id));
  const ticks = candidates.map((stand) => el("label", {class: "inline outside-tick"},
    el("input", {
      type: "checkbox", checked: outside.has(stand.id) ? true : null,
      "data-testid": `builder-outside-${stand.id}`,
      onchange: (event) => {
        if (event.target.checked) outside.add(stand.id);
        else outside.delete(stand.id);
        state.fight.focus = `builder-outside-${stand.id}`;
        fightChanged();
      },
    }), standWords(stand)));
  if (problems.length) {
    return el("div", {class: "error-box", role: "alert", "data-testid": "builder-capacity-error"},
      problems.map((problem) => el("p", {}, ruleLink(problem.rule), " ",
        withRuleLinks(problem.message))),
      ticks.length ? el("fieldset", {class: "outside-choice"},
        el("legend", {text: "Choose who stays outside (not in this fight)"}), ticks) : null);
  }
  return ticks.length
    ? el("fieldset", {class: "outside-choice", "data-testid": "builder-outside-kept"},
      el("legend", {text: "Left outside the building (untick to bring one back)"}), ticks)
    : null;
}

/** The server's answer (or its problem), or ``hint`` when there is nothing to ask yet. */
export function renderAnswer(hint = null) {
  const {answer, error} = state.fight;
  const status = $("builder-status");
  const problems = answer?.board.building_problems ?? [];
  $("builder-use").disabled = !answer || problems.length > 0;
  $("builder-copy").disabled = !answer;
  $("builder-download").disabled = !answer;
  fill($("builder-error"), error ? errorNode(error, "builder-error-box") : null);
  $("builder-yaml").textContent = answer?.file.yaml ?? "";
  const focused = document.activeElement?.closest?.("#builder-outside [data-testid]")?.dataset.testid;
  fill($("builder-outside"), answer ? outsideChoice(problems) : null);
  if (focused) document.querySelector(`[data-testid="${focused}"]`)?.focus();
  if (hint) status.textContent = hint;
  else if (error) status.textContent = "The fight cannot be used yet: see the problem below.";
  else if (problems.length) {
    status.textContent = "The fight cannot be used yet: the building cannot hold it as it is.";
  }
  else if (answer) {
    const {board} = answer;
    const most = terms().limits.max_stands_per_side;
    status.textContent = `${board.building_text} ${board.defender.length} defending and ` +
      `${board.attacker.length} attacking stands (at most ${most} a side).`;
  }
  const result = $("builder-near-result");
  if (!result) return;
  const near = answer?.board.near ?? {};
  markTokens(near);
  fill(result,
    Object.keys(near).length
      ? el("ul", {class: "near-result"}, Object.keys(near).map((leader) =>
        el("li", {"data-testid": "builder-near-line", "data-leader": leader,
          text: answer.board.near_words[leader]})))
      : null,
    warningsList(answer?.board.warnings));
}

function houseRule(switchValue) {
  const {fight} = state;
  const {key, kind} = switchValue;
  const current = key in fight.overrides ? fight.overrides[key] : switchValue.value;
  const set = (value) => {
    if (value === switchValue.value) delete fight.overrides[key];
    else fight.overrides[key] = value;
    $("builder-rules-count").textContent = rulesCount();
    fightChanged({redraw: false});
  };
  let control;
  if (kind === "bool") {
    control = el("input", {type: "checkbox", checked: current ? true : null,
      onchange: (e) => set(e.target.checked)});
  } else if (kind === "choice") {
    control = el("select", {onchange: (e) => set(e.target.value)},
      switchValue.choices.map((c) => option(c, c, c === current)));
  } else {
    const [low, high] = switchValue.range ?? [null, null];
    control = el("input", {type: "number", min: low, max: high, step: "1",
      value: String(current), onchange: (e) => set(Number(e.target.value))});
  }
  control.dataset.testid = `builder-rule-${key}`;
  control.id = `builder-rule-${key}`;
  return el("div", {class: "house-rule"},
    el("label", {for: control.id, class: "inline"}, el("code", {text: key})), control,
    el("p", {class: "note", text: switchValue.source}));
}

export function rulesCount() {
  const count = Object.keys(state.fight.overrides).length;
  return count ? `(${count} changed)` : "(as the profile says)";
}

/** The building's fields, their labels and bounds as the file format states them. */
export function renderFightFields() {
  const {fight} = state;
  const {fields} = terms();
  $("builder-title").value = fight.title;
  $("builder-title").maxLength = fields.title.max_length;
  $("builder-building").value = fight.building.name;
  $("builder-building").maxLength = fields.building_name.max_length;
  const capacity = $("builder-capacity");
  capacity.value = String(fight.building.capacity);
  capacity.min = String(fields.capacity.minimum);
  capacity.max = String(fields.capacity.maximum);
  $("builder-capacity-label").textContent = `Capacity: ${fields.capacity.description}`;
  $("builder-surprise-label").textContent = fields.surprise.description;
  $("builder-surprise").checked = fight.surprise;
  const profile = profileNamed(fight.profile);
  fill($("builder-profile"),
    state.library.profiles.map((p) => option(p.name, p.name, p === profile)));
  fill($("builder-rules"), profile.switches.map((s) => houseRule(s)));
  $("builder-rules-count").textContent = rulesCount();
}
