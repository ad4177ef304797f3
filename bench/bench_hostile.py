"""Benchmark: the hostile corpus, the crafted files, the stress files and the trials, each run
in a process of its own.

Every file of `tests/data/hostile/` through `check`, `explain` and `solve`; every crafted
in-limit file of `tests/crafted.py` (issue 20's table) through `solve` for both sides and every
objective, `explain` and `simulate`; and `solve` on N rifles and SMGs a side (N = 12 ... 200)
and on 500 defenders against 5; all with `--time-limit 2`; then `simulate --trials 100
--objective take` on the benchmark's company files, the guide's example at 0.1 s and 120 a side
with pools of dice (issue 21). Prints each run's wall time and peak memory beside the start-up
alone (`cfalloc --version`, the baseline, run in the same process), flags a run over its time
limit plus 0.5 s, over 1 GiB or ending in exit 4, and ends with the worst ratio of wall time to
limit and the worst peak memory. Goals (issues 20 and 21): no flag on an idle machine.

    python bench/bench_hostile.py [--time-limit 2] [--only corpus|crafted|stress|trials]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "hostile"
sys.path.insert(0, str(ROOT / "tests"))

from crafted import CRAFTED, write  # noqa: E402
from processes import cfalloc, measured  # noqa: E402

GIB = 1 << 30
#: Over this many seconds past its time limit, a run is flagged (issue 20: start-up included).
GRACE = 0.5
#: What the crafted files go through.
CRAFTED_COMMANDS = {
    "solve defender take": ["solve", "--side", "defender", "--objective", "take", "--json"],
    "solve attacker take": ["solve", "--side", "attacker", "--objective", "take", "--json"],
    "solve defender sweep": ["solve", "--side", "defender", "--objective", "sweep", "--json"],
    "solve attacker sweep": ["solve", "--side", "attacker", "--objective", "sweep", "--json"],
    "solve defender exchange": ["solve", "--side", "defender", "--objective", "exchange"],
    "solve attacker exchange": ["solve", "--side", "attacker", "--objective", "exchange"],
    "explain": ["explain"],
    "simulate": ["simulate", "--seed", "1", "--rounds", "3"],
}


@dataclass
class Worst:
    """The worst run so far: the highest ratio of wall time to limit, and the highest peak."""

    ratio: float = 0.0
    ratio_of: str = ""
    peak: int = 0
    peak_of: str = ""

    def add(self, label: str, seconds: float, limit: float, peak: int) -> None:
        if seconds / limit > self.ratio:
            self.ratio, self.ratio_of = seconds / limit, label
        if peak > self.peak:
            self.peak, self.peak_of = peak, label


def timed(arguments: list[str]) -> tuple[float, int, int]:
    """Wall seconds, peak resident bytes and exit code of one `cfalloc` process."""
    done = measured(cfalloc(arguments), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return done.seconds, done.peak, done.code


def force(count: int, prefix: str, unit: str) -> str:
    kinds = ["smg", "rifle", "rifle"]
    return "\n".join(
        f"    - {{id: {prefix}{i}, type: {kinds[i % 3]}, unit: {unit}}}" for i in range(count)
    )


def stress_file(folder: Path, defenders: int, attackers: int) -> Path:
    path = folder / f"stress-{defenders}-v-{attackers}.yaml"
    path.write_text(
        f"building: {{name: Big house, capacity: {defenders}}}\n"
        "defender:\n  units: [{id: p, kind: platoon}]\n  stands:\n"
        f"{force(defenders, 'd', 'p')}\n"
        "attacker:\n  units: [{id: q, kind: platoon}]\n  stands:\n"
        f"{force(attackers, 'a', 'q')}\n"
    )
    return path


def report(label: str, arguments: list[str], limit: float, start_up: float, worst: Worst) -> bool:
    seconds, peak, code = timed(arguments)
    worst.add(label, seconds, limit, peak)
    late = seconds > limit + GRACE
    heavy = peak > GIB
    broken = code == 4
    flag = "  OVER" if late or heavy else "  EXIT 4" if broken else ""
    print(
        f"    {label:56} exit {code}  {seconds:5.2f} s ({seconds / start_up:4.1f} x start-up)  "
        f"{peak / 2**20:6.0f} MiB{flag}"
    )
    return not (late or heavy or broken)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=2.0)
    every = ["corpus", "crafted", "stress", "trials"]
    parser.add_argument("--only", choices=every, help="one part only")
    args = parser.parse_args()
    parts = {args.only} if args.only else set(every)
    limit = str(args.time_limit)
    start_up = min(timed(["--version"])[0] for _ in range(3))
    print(f"start-up (`cfalloc --version`, the baseline): {start_up:.2f} s")
    kept, worst = True, Worst()
    commands = {
        "check": ["check", "--time-limit", limit],
        "explain": ["explain", "--time-limit", limit],
        "solve": ["solve", "--side", "attacker", "--time-limit", limit],
    }
    if "corpus" in parts:
        print(f"the hostile corpus (tests/data/hostile), --time-limit {limit}")
    for path in sorted(CORPUS.glob("*.*[ln]")) if "corpus" in parts else []:
        for name, command in commands.items():
            arguments = [command[0], str(path), *command[1:]]
            kept &= report(f"{path.name} {name}", arguments, args.time_limit, start_up, worst)
    with tempfile.TemporaryDirectory() as folder:
        if "crafted" in parts:
            print(f"crafted in-limit files (tests/crafted.py), --time-limit {limit}")
        for crafted in sorted(CRAFTED) if "crafted" in parts else []:
            path = write(crafted, Path(folder))
            for name, (command, *options) in CRAFTED_COMMANDS.items():
                arguments = [command, str(path), *options, "--time-limit", limit]
                kept &= report(f"{crafted} {name}", arguments, args.time_limit, start_up, worst)
        if "stress" in parts:
            print(f"stress: solve --side defender --time-limit {limit}")
        stress = [
            (12, 12),
            (16, 16),
            (20, 20),
            (30, 30),
            (60, 60),
            (200, 200),
            (500, 5),
        ]
        for defenders, attackers in stress if "stress" in parts else []:
            path = stress_file(Path(folder), defenders, attackers)
            arguments = ["solve", str(path), "--side", "defender", "--time-limit", limit]
            kept &= report(path.name, arguments, args.time_limit, start_up, worst)
    if "trials" in parts:
        print("issue 21: simulate --trials 100 --objective take")
    trials = [
        (ROOT / "bench" / "company-v-town-house.yaml", 1.0),
        (ROOT / "bench" / "company-v-town-house-fo-sniper.yaml", 1.0),
        (ROOT / "models" / "scenarios" / "guide-2hmg-1squad-v-4.yaml", 0.1),
        (CORPUS / "120-a-side-pool-dice.yaml", 3.0),
    ]
    for path, seconds in trials if "trials" in parts else []:
        arguments = ["simulate", str(path), "--trials", "100", "--objective", "take"]
        arguments += ["--seed", "1", "--time-limit", str(seconds)]
        label = f"{path.name} --time-limit {seconds:g}"
        kept &= report(label, arguments, seconds, start_up, worst)
    print(f"worst ratio of wall time to limit: {worst.ratio:.2f} ({worst.ratio_of})")
    print(f"worst peak memory: {worst.peak / 2**20:.0f} MiB ({worst.peak_of})")
    print(
        f"every run within its limit + {GRACE} s and 1 GiB, none exit 4"
        if kept
        else "SOME RUNS OVER OR BROKEN (flagged)"
    )


if __name__ == "__main__":
    main()
