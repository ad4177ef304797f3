"""Benchmark: the hostile corpus and the stress files, each run in a process of its own.

Every file of `tests/data/hostile/` through `check`, `explain` and `solve` (with `--time-limit
2`), `solve --time-limit 2` on N rifles and SMGs a side (N = 12 ... 200) and on 500 defenders
against 5, and `simulate --trials 100 --objective take` on the benchmark's company files, the
guide's example at 0.1 s and 120 a side with pools of dice (issue 21). Prints each run's wall
time and peak memory beside the start-up alone (`cfalloc --version`, the baseline, run in the
same process), and flags a run over its time limit plus 1.5 s or over 1 GiB. Goals (issues 10
and 21): no flag, and no exit 4; up to 16 a side, a line of play.

    python bench/bench_hostile.py [--time-limit 2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "hostile"
GIB = 1 << 30
#: Over this many seconds past its time limit, a run is flagged.
GRACE = 1.5


def timed(arguments: list[str]) -> tuple[float, int, int]:
    """Wall seconds, peak resident bytes and exit code of one `cfalloc` process."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "allocator.cli", *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(process.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status)


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


def report(label: str, arguments: list[str], limit: float, start_up: float) -> bool:
    seconds, peak, code = timed(arguments)
    late = seconds > limit + GRACE
    heavy = peak > GIB
    broken = code == 4
    flag = "  OVER" if late or heavy else "  EXIT 4" if broken else ""
    print(
        f"    {label:48} exit {code}  {seconds:5.2f} s ({seconds / start_up:4.1f} x start-up)  "
        f"{peak / 2**20:6.0f} MiB{flag}"
    )
    return not (late or heavy or broken)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=2.0)
    args = parser.parse_args()
    limit = str(args.time_limit)
    start_up = min(timed(["--version"])[0] for _ in range(3))
    print(f"start-up (`cfalloc --version`, the baseline): {start_up:.2f} s")
    kept = True
    print(f"the hostile corpus (tests/data/hostile), --time-limit {limit}")
    commands = {
        "check": ["check", "--time-limit", limit],
        "explain": ["explain", "--time-limit", limit],
        "solve": ["solve", "--side", "attacker", "--time-limit", limit],
    }
    for path in sorted(CORPUS.glob("*.*[ln]")):
        for name, command in commands.items():
            arguments = [command[0], str(path), *command[1:]]
            kept &= report(f"{path.name} {name}", arguments, args.time_limit, start_up)
    print(f"stress: solve --side defender --time-limit {limit}")
    with tempfile.TemporaryDirectory() as folder:
        for defenders, attackers in [
            (12, 12),
            (16, 16),
            (20, 20),
            (30, 30),
            (60, 60),
            (200, 200),
            (500, 5),
        ]:
            path = stress_file(Path(folder), defenders, attackers)
            arguments = ["solve", str(path), "--side", "defender", "--time-limit", limit]
            kept &= report(path.name, arguments, args.time_limit, start_up)
    print("issue 21: simulate --trials 100 --objective take")
    trials = [
        (ROOT / "bench" / "company-v-town-house.yaml", 1.0),
        (ROOT / "bench" / "company-v-town-house-fo-sniper.yaml", 1.0),
        (ROOT / "models" / "scenarios" / "guide-2hmg-1squad-v-4.yaml", 0.1),
        (CORPUS / "120-a-side-pool-dice.yaml", 3.0),
    ]
    for path, seconds in trials:
        arguments = ["simulate", str(path), "--trials", "100", "--objective", "take"]
        arguments += ["--seed", "1", "--time-limit", str(seconds)]
        kept &= report(f"{path.name} --time-limit {seconds:g}", arguments, seconds, start_up)
    print(
        "every run within its limit + 1.5 s and 1 GiB, none exit 4"
        if kept
        else "SOME RUNS OVER OR BROKEN (flagged)"
    )


if __name__ == "__main__":
    main()
