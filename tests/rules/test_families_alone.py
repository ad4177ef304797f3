"""Each rule family's CP-SAT constraints, built alone through the model's ``families=`` seam.

In the style of the cpsat-primer's ``AssertModelFeasible``: for every rule fixture, the model of
the rule's own family alone, with the fixture's allocation fixed, is feasible for the passing
scenario and infeasible for the failing one; and every other family together accepts the failing
allocation, so that it is this family, and no other, that forbids it. An allocation the model's
variables cannot express at all (a stand in two combats, an attack on a combat the defender does
not have) is refused by ``fix`` before any family's constraint, with no family at all.

The model keeps each family's variables in the typed container that the family's
``variables`` returns, builds them whichever families' constraints it adds, and has none of a
family whose depth it does not reach.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from allocator.core.library import folder
from allocator.games.crossfire.battle import Battle, load_battle
from allocator.games.crossfire.model import ATTACK, GROUPING, REALLOCATION, RulesModel, SlotNames
from allocator.games.crossfire.rules import (
    FAMILIES,
    RULES,
    attack,
    check,
    family_of,
    grouping,
    reallocation,
)
from allocator.games.crossfire.rules.attack import AttackVariables
from allocator.games.crossfire.rules.base import Family
from allocator.games.crossfire.rules.grouping import GroupingVariables
from allocator.games.crossfire.rules.reallocation import ReallocationVariables

SCENARIOS = folder("scenarios")
#: The families that create variables, by the model's attribute that keeps them: each with
#: its container's class and the depth from which the model builds them.
WITH_VARIABLES: dict[str, tuple[ModuleType, type, int]] = {
    "grouping": (grouping, GroupingVariables, GROUPING),
    "attack": (attack, AttackVariables, ATTACK),
    "reallocation": (reallocation, ReallocationVariables, REALLOCATION),
}
#: A battle where every family has something to constrain: two defending squads against one
#: squad and a BC (who takes a combat as a squad, 4b, or leaves it unopposed for step 6).
BATTLE = SCENARIOS / "rule-4b-pass.yaml"


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


@pytest.mark.parametrize("kept", WITH_VARIABLES)
def test_the_model_keeps_the_container_its_family_returns(
    monkeypatch: pytest.MonkeyPatch, kept: str
) -> None:
    family, container, _ = WITH_VARIABLES[kept]
    returned: list[object] = []
    made: Callable[..., object] = family.variables

    def keep(*args: object) -> object:
        returned.append(made(*args))
        return returned[-1]

    monkeypatch.setattr(family, "variables", keep)
    model = RulesModel(load_battle(BATTLE), families=[family])
    assert len(returned) == 1
    assert isinstance(returned[0], container)
    assert getattr(model, kept) is returned[0]


def test_each_family_alone_adds_its_own_constraints_and_together_they_add_up() -> None:
    """Built alone (``families=[family]``) a family adds its constraints to the variables of
    every family, and no other family's: the constraints of all of them are theirs summed."""
    battle = load_battle(BATTLE)

    def constraints(families: list[Family] | None) -> int:
        return len(RulesModel(battle, families=families).model.proto.constraints)

    bare = constraints([])
    alone = [constraints([family]) - bare for family, _, _ in WITH_VARIABLES.values()]
    assert all(alone)
    assert constraints(None) - bare == sum(alone)


@pytest.mark.parametrize("kept", WITH_VARIABLES)
def test_a_model_has_the_variables_of_the_families_its_depth_reaches(kept: str) -> None:
    _, container, depth = WITH_VARIABLES[kept]
    battle = load_battle(BATTLE)
    assert isinstance(getattr(RulesModel(battle, depth=depth), kept), container)
    if depth > GROUPING:
        with pytest.raises(AttributeError, match=f"depth {depth - 1} has no {kept} variables"):
            getattr(RulesModel(battle, depth=depth - 1), kept)
