"""N4 agrees with inf-dice's engine on every Face to Face roll of the reference data.

``tests/data/inf-dice-n4-reference.json`` holds what inf-dice's N4 engine printed for 238 rolls
(every pair of bursts 1..6 with at most 9 dice, SV 0..40, every ammunition code: 1, 2 and 3
saves, the same continuous, and none); its ``about`` says how the numbers were obtained. Here
the exact engine must give the same integer counts of hits and criticals, and the same chance of
each number of failed saves to the 3 decimals printed.

One difference is inf-dice's, not ours: it follows at most 24 rounds of Continuous Damage saves
in all, so its rows for 22 or more failed saves move some chance down a row or two; there the
chance of 22 or more is compared as one number.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from allocator.games.infinity.dice import roll_counts
from allocator.games.infinity.saves import SaveRoll, failed_saves

DATA = json.loads(
    (Path(__file__).parents[1] / "data" / "inf-dice-n4-reference.json").read_text("utf-8")
)
CASES: list[dict[str, Any]] = DATA["cases"]
#: inf-dice counts at most this many failed saves (6 dice of up to 3 saves and a critical's).
MOST = 24
#: Continuous rows from here on are moved by inf-dice's limit of 24 rounds (see the docstring).
CONTINUOUS_EXACT_BELOW = 22
#: A printed percentage is rounded to 3 decimals: within half of the last digit.
PRINTED = 0.0005 + 1e-9


def players(args: list[str]) -> list[tuple[int, int, str, list[int]]]:
    """Each player's STAT, B, AMMO and the DAM of each save, from the engine's arguments."""
    found, at = [], 0
    for _ in range(2):
        stat, burst, ammo = int(args[at]), int(args[at + 1]), args[at + 2]
        at += 3
        saves = 1 if ammo == "-" else int(ammo[0])
        found.append((stat, burst, ammo, [int(args[at + 2 * k]) for k in range(saves)]))
        at += 2 * saves
    return found


def failures(case: dict[str, Any], side: str, ammo: str, damages: list[int]) -> list[Fraction]:
    """Our chance of each number of failed saves 0 .. MOST (the last: MOST or more)."""
    (active, reactive) = players(case["args"])
    counts = roll_counts(active[0], active[1], reactive[0], reactive[1])
    survivors, total = counts.of(side), counts.total(side)  # type: ignore[arg-type]
    if ammo == "-":  # no save: each success counts once
        chances = [Fraction(0)] * (MOST + 1)
        for (crits, plain), n in survivors.items():
            chances[crits + plain] += Fraction(n, total)
        chances[0] = 1 - sum(chances[1:], Fraction(0))
        return chances
    continuous = ammo.endswith("C")
    per_hit = [SaveRoll(damage, continuous) for damage in damages]
    return failed_saves(survivors, total, per_hit, [SaveRoll(damages[0])], cap=MOST).chances()


def test_the_reference_covers_every_roll_the_engine_takes():
    bursts = {tuple(int(p[1]) for p in players(case["args"])) for case in CASES}
    assert bursts >= {(a, b) for a in range(1, 7) for b in range(1, 7) if a + b <= 9}
    ammunition = {p[2] for case in CASES for p in players(case["args"])}
    assert ammunition == {"1", "2", "3", "1C", "2C", "3C", "-"}
    assert len(CASES) == 238 and len(DATA["skipped"]) == 4


@pytest.mark.parametrize("case", CASES, ids=lambda case: " ".join(case["args"]))
def test_n4_agrees_with_inf_dice(case):
    (active, reactive) = players(case["args"])
    counts = roll_counts(active[0], active[1], reactive[0], reactive[1])
    assert counts.active_total == case["total"]
    nothing = Fraction(1)
    for side, key, (_, _, ammo, damages) in (("active", "1", active), ("reactive", "2", reactive)):
        hits = {(crits, plain): n for plain, crits, n in case["hits"][key]}
        assert counts.of(side) == hits  # exact integer counts
        chances = failures(case, side, ammo, damages)
        nothing -= sum(chances[1:], Fraction(0))
        continuous = ammo.endswith("C")
        for failed, printed in case["scores"][key]:
            if continuous and failed >= CONTINUOUS_EXACT_BELOW:
                continue
            assert float(chances[failed]) * 100 == pytest.approx(float(printed), abs=PRINTED)
        if continuous:
            theirs = sum(float(p) for k, p in case["scores"][key] if k >= CONTINUOUS_EXACT_BELOW)
            ours = float(sum(chances[CONTINUOUS_EXACT_BELOW:], Fraction(0))) * 100
            assert ours == pytest.approx(theirs, abs=3 * PRINTED)
    assert float(nothing) * 100 == pytest.approx(float(case["no_successes"]), abs=PRINTED)
