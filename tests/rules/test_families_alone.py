"""Each rule family's CP-SAT constraints, built alone through the model's ``families=`` seam.

In the style of the cpsat-primer's ``AssertModelFeasible``: for every rule fixture, the model of
the rule's own family alone, with the fixture's allocation fixed, is feasible for the passing
scenario and infeasible for the failing one; and every other family together accepts the failing
allocation, so that it is this family, and no other, that forbids it. An allocation the model's
variables cannot express at all (a stand in two combats, an attack on a combat the defender does
not have) is refused by ``fix`` before any family's constraint, with no family at all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from allocator.core.library import folder
from allocator.games.crossfire.battle import Battle, load_battle
from allocator.games.crossfire.model import REALLOCATION, RulesModel, SlotNames
from allocator.games.crossfire.rules import FAMILIES, RULES, check, family_of
from allocator.games.crossfire.rules.base import Family

SCENARIOS = folder("scenarios")


def fixtures(outcome: str) -> list[Path]:
    """The rule fixtures whose file names say ``outcome`` (pass or fail) of a rule the model
    enforces (steps 1 to 6; the building's rules are checked when the file is read)."""
    found = []
    for path in sorted(SCENARIOS.glob(f"rule-*-{outcome}*.yaml")):
        rule = path.stem.split("-")[1]
        if rule in RULES and RULES[rule].step > 0:
            found.append(path)
    return found


def rule_of(path: Path) -> str:
    return path.stem.split("-")[1]


def accepts(battle: Battle, families: list[Family]) -> bool | None:
    """Whether the model of ``families`` alone has a solution with the battle's allocation;
    ``None`` when the model's variables cannot express the allocation."""
    allocation = battle.allocation
    assert allocation is not None
    names = SlotNames.for_proposal(
        list(allocation.combats or {}),
        max(len(allocation.combats or {}), len(battle.defender.stands)),
    )
    model = RulesModel(battle, depth=REALLOCATION, slots=len(names.names), families=families)
    if not model.fix(allocation, names):
        return None
    return model.solve_status() in ("OPTIMAL", "FEASIBLE")


def own_family(path: Path) -> Family:
    return next(f for f in FAMILIES if f is family_of(rule_of(path)))


@pytest.mark.parametrize("path", fixtures("pass"), ids=lambda p: p.stem)
def test_a_passing_fixture_is_feasible_in_its_family_alone(path: Path) -> None:
    battle = load_battle(path)
    assert accepts(battle, [own_family(path)])


@pytest.mark.parametrize("path", fixtures("fail"), ids=lambda p: p.stem)
def test_a_failing_fixture_is_infeasible_in_its_family_alone(path: Path) -> None:
    battle = load_battle(path)
    assert rule_of(path) in {v.rule for v in check(battle)}
    assert not accepts(battle, [own_family(path)])
    if accepts(battle, []) is None:
        assert rule_of(path) in {"1c", "4c"}, "only these rules forbid what cannot be expressed"


@pytest.mark.parametrize("path", fixtures("fail"), ids=lambda p: p.stem)
def test_the_other_families_accept_what_only_this_family_forbids(path: Path) -> None:
    battle = load_battle(path)
    family = own_family(path)
    if {family_of(v.rule) for v in check(battle) if v.step > 0} != {family}:
        pytest.skip("this fixture also breaks another family's rules")
    if accepts(battle, []) is None:
        pytest.skip("the model cannot express this allocation, whatever the families")
    assert accepts(battle, [f for f in FAMILIES if f is not family])


def test_every_family_with_constraints_has_fixtures() -> None:
    covered = {own_family(path) for path in fixtures("fail")}
    constrained = {f for f in FAMILIES if any(r.step > 0 and r.checked for r in f.RULES)}
    assert constrained <= covered
