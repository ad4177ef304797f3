"""Pictures of answers, drawn with matplotlib (the optional extra ``plot``, imported lazily).

The files are deterministic: the same answer gives the same bytes (no date in them, and the
SVG's element ids from a fixed salt).
"""

from __future__ import annotations

import io
import textwrap
from pathlib import Path
from typing import Any

from allocator.core.errors import InputError
from allocator.core.files import write_atomically
from allocator.games.crossfire.answers import PlanAnswer

#: The formats a picture may be written in, by the file's suffix.
FORMATS = {".png": "png", ".svg": "svg"}


def pyplot() -> Any:
    """matplotlib's pyplot on its file-only backend, or a clear error naming the extra."""
    try:
        import matplotlib
    except ImportError:
        raise InputError(
            "--plot draws with matplotlib, which is not installed: pip install 'cfalloc[plot]'",
            place="--plot",
        ) from None
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "cfalloc"
    import matplotlib.pyplot as plt

    return plt


def picture_format(path: Path) -> str:
    """The format of a picture file, from its suffix (refused before any work)."""
    found = FORMATS.get(path.suffix.lower())
    if found is None:
        raise InputError(
            f"a picture is a .png or .svg file, not '{path.name[:60]}'", place="--plot"
        )
    return found


def plot_plan(answer: PlanAnswer, path: Path, title: str) -> None:
    """Draw a plan's curve: the attacker's P(take) by squads, the best choice marked.

    Parameters
    ----------
    answer : PlanAnswer
    path : Path
        A ``.png`` or ``.svg`` file, written whole or not at all.
    title : str
        The fight's title, above the curve.

    Raises
    ------
    InputError
        A suffix other than .png or .svg, matplotlib not installed, or a file that cannot be
        written.
    """
    kind = picture_format(path)
    plt = pyplot()
    squads = [p.squads for p in answer.curve]
    values = [p.value for p in answer.curve]
    figure, axes = plt.subplots(figsize=(6, 3.6))
    try:
        axes.plot(squads, values, marker="o", color="#1f5fa8", label="best choice")
        axes.scatter(
            [answer.best.squads], [answer.best.value], s=140, facecolors="none",
            edgecolors="#c0392b", linewidths=2, zorder=3, label="best",
        )  # fmt: skip
        for dip in answer.dips:
            axes.annotate("dip", (dip.squads, dip.value), textcoords="offset points",
                          xytext=(0, -16), ha="center", color="#c0392b")  # fmt: skip
        if answer.target is not None:
            axes.axhline(answer.target, color="#7f8c8d", linestyle="--", label="target")
        side = "committed" if answer.side == "attacker" else "in the garrison"
        axes.set_xlabel(f"squads {side}")
        axes.set_ylabel("P(attacker takes the building)")
        axes.set_xticks(squads)
        axes.set_ylim(0, 1.02)
        axes.grid(True, alpha=0.3)
        heading = textwrap.wrap(f"{title}: the {answer.side}'s plan", 72)
        axes.set_title("\n".join(heading), fontsize=9)
        axes.legend(loc="lower right", fontsize=8)
        figure.tight_layout()
        metadata = {"Date": None} if kind == "svg" else {"Software": None}
        drawn = io.BytesIO()
        figure.savefig(drawn, format=kind, metadata=metadata)
    finally:
        plt.close(figure)
    write_atomically(path, drawn.getvalue())
