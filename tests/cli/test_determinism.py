"""The same input gives byte-identical ``--json`` output, run after run.

Each command runs twice as the installed ``cfalloc``, in fresh processes with different
``PYTHONHASHSEED`` values (so that no set or dict order that depends on string hashing can leak
into the output), side by side to save time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "models" / "scenarios"
BENCH = ROOT / "bench"

CASES = {
    "check-legal": ["check", SCENARIOS / "guide-2hmg-1squad-v-4.yaml"],
    "check-nearest-legal": ["check", SCENARIOS / "guide-2hmg-1squad-v-4-both-pair.yaml"],
    "check-org-library": ["check", SCENARIOS / "guide-5-squads-v-2-five-and-none.yaml"],
    "solve-defender-company": [
        "solve",
        BENCH / "company-v-town-house.yaml",
        "--side",
        "defender",
        "--objective",
        "sweep",
    ],
    "solve-attacker-exchange": [
        "solve",
        BENCH / "platoon-v-squad-hmg-pc.yaml",
        "--side",
        "attacker",
        "--objective",
        "exchange",
    ],
    "solve-take-whole-fight": [
        "solve",
        SCENARIOS / "fight-together-or-apart.yaml",
        "--objective",
        "take",
    ],
    "solve-attacker-runner-up-fo-sniper": [
        "solve",
        BENCH / "company-v-town-house-fo-sniper.yaml",
        "--side",
        "attacker",
        "--objective",
        "exchange",
    ],
    "simulate-seeded-fight": [
        "simulate",
        SCENARIOS / "fight-together-or-apart.yaml",
        "--objective",
        "take",
        "--rounds",
        "5",
        "--seed",
        "3",
    ],
    "play-table-dice": [
        "play",
        SCENARIOS / "guide-2hmg-1squad-v-4.yaml",
        "--dice",
        "A:4-3,B:2-5/6-1",
    ],
    "explain-optimal": ["explain", BENCH / "platoon-v-squad-hmg-pc.yaml"],
    "explain-allocation": ["explain", SCENARIOS / "guide-rifle-and-cc-v-2-smg-illegal.yaml"],
}


def cfalloc() -> str:
    exe = shutil.which("cfalloc", path=str(Path(sys.executable).parent)) or shutil.which("cfalloc")
    assert exe, "the cfalloc command is not installed"
    return exe


@pytest.mark.parametrize("args", CASES.values(), ids=CASES.keys())
def test_json_output_is_byte_identical(args: list[object]) -> None:
    # A limit the answers never reach, even on a loaded machine (start-up counts against it):
    # what is compared is the proven answer, never a line the limit cut short.
    command = [cfalloc(), *map(str, args), "--json", "--time-limit", "120"]
    runs = [
        subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=os.environ | {"PYTHONHASHSEED": seed},
        )
        for seed in ("1", "2")
    ]
    outputs = [run.communicate(timeout=240) for run in runs]
    codes = [run.returncode for run in runs]
    assert codes[0] == codes[1] and codes[0] in (0, 1), [err.decode() for _, err in outputs]
    first, second = (out for out, _ in outputs)
    assert first, "no output"
    assert first == second
