"""Benchmark: exact whole fights from a platoon to a battalion against a house (issue 16).

Every row is one cold `cfalloc solve FILE --side S --objective O --json` process: its CPU
seconds (user and system, what the targets are in), wall seconds, peak memory, status, states
of the fight searched and value. Baseline, in the same run: the same file's cold one-round
`sweep` solve (the ratio is the row's CPU over the baseline's), and the start-up alone
(`cfalloc --version`). The houses (``scale_cases.py``): two rifle squads, an HMG and a PC in a
3-capacity house against a platoon (3 squads, PC, CC), two platoons, a company (9 squads, 3 PCs,
CC, HMG), two companies and a battalion, every attacking leader within one stand width of every
attacking squad; a company with rating-0 leaders against a veteran garrison with a +3 PC; and
bench (c)'s house with an FO and a sniper against a company, both sides, `exchange` and `take`.
Goals: a platoon or a company under 1 s, two companies under 3 s, a battalion under 10 s, the FO
and sniper house under 1 s, each `optimal` and under 1 GiB.

With ``--plot FILE`` (PNG or SVG; matplotlib, the optional extra ``plot``) it also draws how
the cost grows with the attacker's size from the rows it measured: each size's CPU seconds
beside its one-round baseline and the start-up alone, and the states of the fight searched
(``docs/img/scale.png`` is drawn so).

    python bench/bench_scale.py [--repeat 1] [--plot docs/img/scale.png]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent / "tests"))

from processes import cfalloc, measured  # noqa: E402
from scale_cases import ATTACKERS, attack_on_house  # noqa: E402

from allocator.core.optional import optional_module  # noqa: E402

FO_SNIPER = BENCH / "company-v-town-house-fo-sniper.yaml"
#: The runs may keep the bytecode they compile, as an installed copy has it: where
#: PYTHONDONTWRITEBYTECODE is set, every cold run would compile the package from source again
#: (about 0.06 s CPU each).
COMPILED = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
GIB = 2**30


@dataclass
class Run:
    """One cold process: CPU and wall seconds, peak bytes, and the JSON it printed."""

    cpu: float
    wall: float
    peak: int
    answer: dict[str, Any]


def cold(arguments: list[str]) -> Run:
    """One `cfalloc` process, measured by the operating system."""
    with tempfile.TemporaryFile() as output:
        done = measured(cfalloc(arguments), stdout=output, stderr=subprocess.DEVNULL, env=COMPILED)
        output.seek(0)
        printed = output.read()
    answer = json.loads(printed) if printed.startswith(b"{") else {}
    return Run(done.cpu, done.seconds, done.peak, answer)


def median_run(arguments: list[str], repeat: int) -> Run:
    runs = sorted((cold(arguments) for _ in range(repeat)), key=lambda run: run.cpu)
    return runs[len(runs) // 2]


@dataclass
class Row:
    name: str
    path: Path
    stands: int
    side: str
    objective: str
    goal: float


def rows(folder: Path) -> list[Row]:
    """The table's rows, their files written into ``folder``."""
    goals = {"two companies": 3.0, "battalion": 10.0}
    found = []
    cases = {name: attack_on_house(name) for name in ATTACKERS}
    cases["company, rating-0 leaders, veteran garrison"] = attack_on_house(
        "company", veteran=True, pc_rating=3, leader_rating=0
    )
    for name, case in cases.items():
        path = folder / f"{name.replace(' ', '-').replace(',', '')}.yaml"
        path.write_text(yaml.safe_dump(case))
        stands = len(case["attacker"]["stands"])
        found.append(Row(name, path, stands, "defender", "take", goals.get(name, 1.0)))
    with FO_SNIPER.open() as file:
        stands = len(yaml.safe_load(file)["attacker"]["stands"])
    for objective in ("exchange", "take"):
        for side in ("defender", "attacker"):
            found.append(Row("FO and sniper house", FO_SNIPER, stands, side, objective, 1.0))
    return found


def measure(row: Row, repeat: int) -> tuple[Run, Run]:
    """The row's run and its baseline (the same file's one-round sweep)."""
    solve = ["solve", str(row.path), "--side", row.side, "--json", "--objective"]
    return median_run([*solve, row.objective], repeat), median_run([*solve, "sweep"], repeat)


def line(row: Row, run: Run, baseline: Run) -> str:
    answer = run.answer
    states = answer.get("fight", {}).get("states", "-")
    met = answer.get("status") == "optimal" and run.cpu < row.goal and run.peak < GIB
    return (
        f"  {row.name:44} {row.stands:3} {row.side:8} {row.objective:8} "
        f"{run.cpu:6.2f} {run.wall:6.2f} {run.peak / 2**20:6.0f} "
        f"{answer.get('status')!s:8} {states!s:>6} {answer.get('value_exact')!s:>24} "
        f"{baseline.cpu:6.2f} {run.cpu / baseline.cpu:5.1f}x  < {row.goal:g} s "
        f"{'met' if met else 'MISSED'}"
    )


HEADER = (
    f"  {'attacker':44} {'st':>3} {'side':8} {'obj':8} {'cpu s':>6} {'wall':>6} {'MB':>6} "
    f"{'status':8} {'states':>6} {'value':>24} {'sweep':>6} {'ratio':>6}  goal"
)


Measured = list[tuple[Row, Run, Run]]


def plot(measured: Measured, start_up: float, path: Path) -> None:
    """How the cost grows with the attacker's size, from the rows of :data:`ATTACKERS`: CPU
    seconds of the whole fight and of its one-round baseline, the start-up alone and the
    goals; beside it the states of the fight searched (none: proved without a search)."""
    optional_module("matplotlib", "--plot", "plot")
    from matplotlib.figure import Figure

    sizes = [(row, run, baseline) for row, run, baseline in measured if row.name in ATTACKERS]
    stands = [row.stands for row, _, _ in sizes]
    figure = Figure(figsize=(9, 3.6), layout="constrained")
    cost, states = figure.subplots(1, 2)
    cost.plot(stands, [run.cpu for _, run, _ in sizes], "o-", label="whole fight (take)")
    cost.plot(stands, [b.cpu for _, _, b in sizes], "s--", label="one round (sweep)")
    cost.axhline(start_up, color="grey", linestyle=":", label="start-up alone")
    cost.step(
        stands,
        [row.goal for row, _, _ in sizes],
        where="mid",
        color="tab:red",
        alpha=0.5,
        label="goal",
    )
    for row, run, _ in sizes:
        if run.answer.get("status") != "optimal":
            cost.annotate(str(run.answer.get("status")), (row.stands, run.cpu))
    cost.set(xlabel="attacking stands", ylabel="CPU seconds, cold process", ylim=(0, None))
    cost.legend(fontsize="small")
    counted = [int(run.answer.get("fight", {}).get("states", 0)) for _, run, _ in sizes]
    states.bar([str(n) for n in stands], counted, color="tab:blue")
    for k, n in enumerate(counted):
        states.annotate(f"{n:,}", (k, n), ha="center", va="bottom")
    states.set(xlabel="attacking stands", ylabel="states of the fight searched")
    figure.suptitle("Whole fights against a house of two squads, an HMG and a PC")
    figure.savefig(path, dpi=100, metadata={"Software": None} if path.suffix == ".png" else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--plot", type=Path, help="draw the cost by size into this PNG or SVG")
    args = parser.parse_args()
    if args.plot is not None:
        optional_module("matplotlib", "--plot", "plot")
    start_up = statistics.median(cold(["--version"]).cpu for _ in range(max(args.repeat, 3)))
    print(f"start-up alone (`cfalloc --version`): {start_up:.2f} s CPU; median of {args.repeat}")
    print(HEADER)
    measured: Measured = []
    with tempfile.TemporaryDirectory() as folder:
        for row in rows(Path(folder)):
            run, baseline = measure(row, args.repeat)
            measured.append((row, run, baseline))
            print(line(row, run, baseline), flush=True)
    if args.plot is not None:
        plot(measured, start_up, args.plot)
        print(f"drawn: {args.plot}")


if __name__ == "__main__":
    main()
