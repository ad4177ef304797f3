"""``cfalloc sweep --plot FILE``: the values of a sweep as a line chart or a heatmap.

The spec's ``plot:`` says what to draw (:class:`~allocator.games.crossfire.sweep.SweepPlot`):
the value along ``x``, one line for each value of ``y`` (``chart: line``), or a grid of ``x``
by ``y`` coloured by the value (``chart: heatmap``), every other varied path held at the value
``where`` gives it (its first by default). Drawn with matplotlib's object interface (no pyplot,
no window), the optional extra ``plot``.
"""

from __future__ import annotations

import io
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import JsonValue

from allocator.core.errors import InputError
from allocator.core.optional import optional_module
from allocator.core.text import percent, plain, signed

if TYPE_CHECKING:
    from allocator.games.crossfire.sweep import Sweep, SweepLine

#: Above this share of the colour scale viridis is light: a heatmap's numbers are written dark.
BRIGHT = 0.6


def require_plot(sweep: Sweep) -> None:
    """Refuse before any work a picture that cannot be drawn: no matplotlib, nothing varied,
    a heatmap with one path."""
    optional_module("matplotlib", "--plot", "plot")
    axes(sweep)


def axes(sweep: Sweep) -> tuple[str, str | None, dict[str, JsonValue]]:
    """The picture's x path, its y path (None: a single line) and every other path's value.

    Raises
    ------
    InputError
        When nothing varies, or a heatmap has no second path, naming the spec's place.
    """
    paths, plot = sweep.paths, sweep.spec.plot
    if not paths:
        raise InputError(
            "nothing varies: --plot needs at least one path in vary", file=sweep.file, place="vary"
        )
    x = plot.x or next((path for path in paths if path != plot.y), paths[0])
    y = plot.y or next((path for path in paths if path != x), None)
    if y == x:
        raise InputError(
            f"x and y are both {x}: give y another path of vary", file=sweep.file, place="plot.y"
        )
    if plot.chart == "heatmap" and y is None:
        raise InputError(
            "a heatmap needs two paths of vary (x and y); with one, draw chart: line",
            file=sweep.file,
            place="plot.chart",
        )
    fixed = {
        path: plot.where.get(path, sweep.spec.vary[path][0]) for path in paths if path not in (x, y)
    }
    return x, y, fixed


def draw(sweep: Sweep, lines: list[SweepLine], path: Path) -> None:
    """Draw the picture of ``lines`` into ``path`` (its suffix says the format).

    Raises
    ------
    InputError
        When the picture cannot be drawn (:func:`axes`) or the file cannot be written.
    """
    from allocator.core.files import write_atomically
    from allocator.games.crossfire.sweep import identity, value_text

    optional_module("matplotlib", "--plot", "plot")
    from matplotlib.figure import Figure

    x, y, fixed = axes(sweep)
    wanted = {path: identity(value) for path, value in fixed.items()}
    values: dict[tuple[str, str], Fraction | None] = {}
    for line in lines:
        if all(identity(line.cell[p]) == v for p, v in wanted.items()):
            key = (identity(line.cell[x]), identity(line.cell.get(y) if y else None))
            values[key] = line.value_exact
    xs = sweep.spec.vary[x]
    ys: list[JsonValue] = list(sweep.spec.vary[y]) if y else [None]
    objective = sweep.spec.objective
    chance = objective.unit == "chance"
    label = _label(f"P({objective.label})" if chance else objective.label)

    def at(xv: JsonValue, yv: JsonValue) -> float:
        found = values.get((identity(xv), identity(yv)))
        return float("nan") if found is None else float(found)

    figure = Figure(figsize=(7.5, 4.8), layout="constrained")
    ax = figure.add_subplot()
    if sweep.spec.plot.chart == "line":
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in xs)
        positions: list[Any] = list(xs) if numeric else list(range(len(xs)))
        for yv in ys:
            named = None if y is None else _label(f"{y} = {value_text(yv)}")
            ax.plot(positions, [at(xv, yv) for xv in xs], marker="o", label=named)
        if not numeric:
            ax.set_xticks(positions, [_label(value_text(v)) for v in xs])
        if y is not None:
            ax.legend()
        if chance:
            ax.set_ylim(0, 1)
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3)
    else:
        grid = [[at(xv, yv) for xv in xs] for yv in ys]
        image = ax.imshow(
            grid,
            origin="lower",
            aspect="auto",
            cmap="viridis",
            vmin=0 if chance else None,
            vmax=1 if chance else None,
        )
        ax.set_xticks(range(len(xs)), [_label(value_text(v)) for v in xs])
        ax.set_yticks(range(len(ys)), [_label(value_text(v)) for v in ys])
        for row, yv in enumerate(ys):
            for column, xv in enumerate(xs):
                found = values.get((identity(xv), identity(yv)))
                shown = "-" if found is None else percent(found) if chance else signed(found, 3)
                bright = found is not None and _share(float(found), image.get_clim()) > BRIGHT
                ax.text(column, row, shown, ha="center", va="center", color=_ink(bright))
        ax.set_ylabel(_label(y or ""))
        figure.colorbar(image, ax=ax, label=label)
    ax.set_xlabel(_label(x))
    title = sweep.spec.title or f"Sweep of {sweep.scenario_file}"
    held = ", ".join(f"{p} = {value_text(v)}" for p, v in fixed.items())
    ax.set_title(_label(title) + (f"\n{_label(f'({held})')}" if held else ""), fontsize=10)
    picture = io.BytesIO()
    suffix = path.suffix.lower()
    figure.savefig(
        picture, format=suffix[1:], metadata={"Date": None} if suffix == ".svg" else None
    )
    write_atomically(path, picture.getvalue())


def _share(value: float, scale: tuple[float, float]) -> float:
    """Where ``value`` lies on the colour scale, from 0 to 1."""
    low, high = scale
    return (value - low) / (high - low) if high > low else 0.0


def _ink(bright: bool) -> str:
    return "black" if bright else "white"


def _label(text: str) -> str:
    """A text from a file, drawn as written: no control characters, no mathtext (``$``)."""
    return plain(text).replace("$", r"\$")
