"""Every shipped scenario solves for both sides and both objectives, and the line is legal."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import check_grouping

from allocator.games.crossfire.battle import load_battle
from allocator.games.crossfire.objectives import objective_named
from allocator.games.crossfire.rules import check
from allocator.games.crossfire.search.solve import solve

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "models" / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_solves_for_both_sides(path: Path) -> None:
    battle = load_battle(path)
    given = battle.allocation.combats if battle.allocation is not None else None
    for name in ("sweep", "exchange"):
        for side in ("defender", "attacker"):
            result = solve(battle, side, objective_named(name))
            assert result.status == "optimal"
            broken = [v for v in check(battle, result.line.allocation()) if v.step > 0]
            assert broken == [], broken
            capacity = [v for v in check(battle) if v.step == 0]
            assert len([w for w in result.warnings if w[:2] in ("B1", "B2")]) == len(capacity)
            if side == "attacker" and given is not None:
                if list(check_grouping(battle, given)):
                    assert any("The file's combats break rule" in w for w in result.warnings)
                else:
                    assert result.line.combats == given
