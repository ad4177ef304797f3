// The chart of a roll: the bars of /api/infinity/roll's ``view.chart`` drawn as plain SVG, one
// titled group after another (who wins, the hits, the wounds, the states, the orders), each bar
// as long as its chance, with the chance as the server wrote it. Nothing is computed here but
// the lengths; every text is set with textContent.
const SVG = "http://www.w3.org/2000/svg";
const LINE = 17;      // the height of one line of a label
const BAR = 12;       // the height of a bar
const GAP = 9;        // between two bars
const NUMBER = 62;    // the room for the percentage after the longest bar

function svg(tag, attributes = {}, text = undefined) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A text as lines of at most ``width`` pixels (measured once it is in the drawing). */
function wrapped(chart, text, y, width, kind) {
  const node = svg("text", {x: 0, y, class: kind});
  chart.append(node);
  let line = svg("tspan", {x: 0}, "");
  node.append(line);
  let lines = 1;
  for (const word of text.split(" ")) {
    const before = line.textContent;
    line.textContent = before ? `${before} ${word}` : word;
    if (before && line.getComputedTextLength() > width) {
      line.textContent = before;
      line = svg("tspan", {x: 0, dy: LINE}, word);
      node.append(line);
      lines += 1;
    }
  }
  return lines;
}

/** Draw ``groups`` (the view's chart) in ``box``, as wide as the box is. */
export function drawChart(box, groups) {
  const width = Math.max(260, Math.floor(box.clientWidth || 600));
  const area = width - NUMBER;
  const chart = svg("svg", {
    class: "inf-svg", role: "img", "aria-labelledby": "inf-chart-title", width,
    "data-width": width,
  });
  box.replaceChildren(chart);
  let y = 0;
  for (const group of groups) {
    y += 26;
    y += (wrapped(chart, group.title, y, width, "inf-group-title") - 1) * LINE + 8;
    for (const bar of group.bars) {
      y += LINE - 3;
      const lines = wrapped(chart, bar.label, y, width, "inf-bar-label");
      y += (lines - 1) * LINE + 5;
      const length = Math.min(area, Math.max(0, bar.chance.value * area));
      const side = bar.side ?? "none";
      chart.append(svg("rect", {x: 0, y, width: area, height: BAR, class: "inf-track"}));
      const filled = svg("rect", {
        x: 0, y, width: length.toFixed(1), height: BAR, class: `inf-bar ${side}`,
        "data-testid": "inf-bar", "data-side": side,
      });
      filled.append(svg("title", {}, `${bar.label}: ${bar.percent} (${bar.chance.exact})`));
      chart.append(filled);
      chart.append(svg("text", {x: area + 6, y: y + BAR - 1, class: "inf-bar-number"},
        bar.percent));
      y += BAR + GAP;
    }
  }
  chart.setAttribute("height", y + 6);
  chart.setAttribute("viewBox", `0 0 ${width} ${y + 6}`);
}

let observed = null;

/** Redraw the chart when its box changes width (a phone turned, a window resized). */
export function keepDrawn(box, groupsOf) {
  if (observed) return;
  observed = new ResizeObserver(() => {
    const groups = groupsOf();
    const drawn = box.querySelector("svg");
    if (groups && drawn && Number(drawn.dataset.width) !== Math.max(260, box.clientWidth)) {
      drawChart(box, groups);
    }
  });
  observed.observe(box);
}
