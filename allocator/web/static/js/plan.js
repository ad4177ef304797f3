// The Plan panel: /api/plan for either side, the curve drawn as SVG and the best choice;
// the compare toggle: /api/compare, the fight under another profile side by side.
import {api, errorNode} from "./api.js";
import {$, el, fill, plural, ratio, share} from "./dom.js";
import {scenarioWith} from "./check.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 300;
const HEIGHT = 160;
const PAD = 28;

function svg(tag, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

/** The curve: the attacker's chance of taking the building by squads, the best circled. */
function curve(answer) {
  const points = answer.curve;
  const first = points[0].squads;
  const span = Math.max(1, points[points.length - 1].squads - first);
  const x = (squads) => PAD + ((squads - first) / span) * (WIDTH - 2 * PAD);
  const y = (exact) => HEIGHT - PAD - ratio(exact) * (HEIGHT - 2 * PAD);
  const dips = new Set(answer.dips.map((dip) => dip.squads));
  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", class: "plan-curve",
    "data-testid": "plan-curve",
    "aria-label": "The attacker's chance of taking the building by squads: " +
      points.map((p) => `${plural(p.squads, "squad")} ${share(p.value_exact)}`).join(", "),
  });
  chart.append(
    svg("line", {x1: PAD, y1: HEIGHT - PAD, x2: WIDTH - PAD, y2: HEIGHT - PAD, class: "axis"}),
    svg("line", {x1: PAD, y1: PAD, x2: PAD, y2: HEIGHT - PAD, class: "axis"}),
    svg("text", {x: 2, y: PAD + 4, class: "tick"}, "100%"),
    svg("text", {x: 10, y: HEIGHT - PAD + 4, class: "tick"}, "0%"),
    svg("polyline", {
      class: "curve", fill: "none",
      points: points.map((p) => `${x(p.squads)},${y(p.value_exact)}`).join(" "),
    }));
  if (answer.target_exact) {
    const level = y(answer.target_exact);
    chart.append(svg("line", {x1: PAD, y1: level, x2: WIDTH - PAD, y2: level, class: "target"}));
  }
  for (const p of points) {
    const best = p.squads === answer.best.squads;
    chart.append(
      svg("circle", {cx: x(p.squads), cy: y(p.value_exact), r: best ? 6 : 3.5,
        class: [best ? "best" : "point", dips.has(p.squads) ? "dip" : ""].join(" ").trim(),
        "data-squads": p.squads, "data-exact": p.value_exact}),
      svg("text", {x: x(p.squads), y: HEIGHT - PAD + 14, class: "tick",
        "text-anchor": "middle"}, String(p.squads)));
  }
  return chart;
}

function planAnswer(answer) {
  const best = answer.best;
  const reaching = answer.reaching;
  return [
    answer.note ? el("p", {class: "note", text: answer.note}) : null,
    curve(answer),
    el("p", {class: "status", "data-testid": "plan-best", "data-exact": best.value_exact},
      el("strong", {text: answer.status === "optimal" ? "Best: " : "Best found: "}),
      `${best.stands.join(", ")} (${plural(best.squads, "squad")}): the attacker takes the ` +
      `building ${share(best.value_exact)}.`),
    answer.target_exact
      ? el("p", {"data-testid": "plan-reaching", text: reaching
        ? `Fewest stands for the target: ${reaching.stands.join(", ")}, ` +
          `${share(reaching.value_exact)}.`
        : "No choice reaches the target."})
      : null,
    answer.dips.map((dip) => el("p", {class: "warning", "data-testid": "plan-dip",
      text: `Dip: with ${plural(dip.squads, "squad")} the best is ${share(dip.value_exact)}, ` +
        `worse than ${share(dip.previous_exact)} with one squad fewer.`})),
  ];
}

async function plan() {
  const result = $("plan-result");
  const button = $("plan-run");
  const target = $("plan-target").value.trim().replace(/%$/, "");
  const body = {scenario: scenarioWith(null), side: $("plan-side").value};
  if (target) {
    const percent = $("plan-target").value.trim().endsWith("%");
    body.target = percent ? `${target}/100` : target;
  }
  button.disabled = true;
  fill(result, el("p", {class: "note", text: "Valuing every choice over the whole fight…"}));
  try {
    fill(result, planAnswer(await api("/api/plan", {body})));
  } catch (error) {
    fill(result, errorNode(error, "plan-error"));
  } finally {
    button.disabled = false;
  }
}


/** The combats in words: `A: d1, cc1 against a1; C: pc2, not attacked`. */
function line(allocation) {
  return Object.entries(allocation.combats).map(([combat, defenders]) => {
    const attackers = allocation.attack[combat] || [];
    const against = attackers.length ? ` against ${attackers.join(", ")}` : ", not attacked";
    return `${combat}: ${defenders.join(", ")}${against}`;
  }).join("; ");
}

/** The fight under the scenario's ruleset and the other profile, one column each. */
function compareAnswer(answer) {
  const names = answer.profiles.map((profile) => profile.name);
  const row = (label, key) => el("tr", {"data-testid": `compare-${key.replace("_", "-")}`},
    el("th", {scope: "row", text: label}),
    answer.profiles.map((profile) => el("td", {"data-exact": profile[key].value_exact},
      el("strong", {text: share(profile[key].value_exact)}),
      el("br"), el("small", {text: line(profile[key].allocation)}))));
  return [
    answer.note ? el("p", {class: "note", text: answer.note}) : null,
    el("table", {class: "compare", "data-testid": "compare-table"},
      el("caption", {text: "The attacker's chance, both sides at their best"}),
      el("tr", {}, el("th", {}), names.map((name) => el("th", {scope: "col", text: name}))),
      row("One round", "one_round"),
      row("Whole fight", "whole_fight")),
    el("ul", {"data-testid": "compare-summary"},
      answer.summary.map((sentence) => el("li", {text: sentence}))),
  ];
}

async function compare() {
  const result = $("compare-result");
  const button = $("compare-run");
  const body = {scenario: scenarioWith(null), profile: $("compare-profile").value.trim()};
  button.disabled = true;
  fill(result, el("p", {class: "note", text: "Solving the fight under both profiles…"}));
  try {
    fill(result, compareAnswer(await api("/api/compare", {body})));
  } catch (error) {
    fill(result, errorNode(error, "compare-error"));
  } finally {
    button.disabled = false;
  }
}

export function wirePlan() {
  $("plan-run").addEventListener("click", plan);
  $("compare-run").addEventListener("click", compare);
}
