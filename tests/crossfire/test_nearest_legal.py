"""The nearest legal allocation of `check` moves the fewest stands: held to brute force.

The brute force tries every legal line of the oracle (the plain checker, no CP-SAT) up to the
depth the player gave, under every naming of its combats (a combat may keep one of the player's
names or take a new one), and counts the stands placed differently: a defender in another combat
(or in none of the player's), an attacker sent elsewhere (or sent where he was left out, or left
out where he was sent), a defender reallocated elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import product
from typing import Any

import oracle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import allocations, near_legal_allocations, scenarios

from allocator.games.crossfire.battle import Battle, battle_from_data
from allocator.games.crossfire.check import allocation_depth, check_battle
from allocator.games.crossfire.rules import check
from allocator.games.crossfire.schema import Allocation

#: The label of a combat that takes none of the player's names.
FRESH = None


def first_place(parts: Mapping[str, Sequence[str]], stand: str) -> str | None:
    return next((name for name, ids in parts.items() if stand in ids), None)


def moved(battle: Battle, given: Allocation, line: Allocation) -> int:
    """Stands of ``line`` placed differently from ``given`` (a new combat matches nothing)."""

    def differ(was: str | None, now: str | None, missing_counts: bool) -> int:
        if was is None:
            return 1 if missing_counts or now is not None else 0
        return 0 if now == was else 1

    count = 0
    if given.combats is not None and line.combats is not None:
        for s in battle.defender.ids():
            count += differ(first_place(given.combats, s), first_place(line.combats, s), True)
    if given.attack is not None and line.attack is not None:
        for a in battle.attacker.ids():
            count += differ(first_place(given.attack, a), first_place(line.attack, a), False)
    if given.reallocate is not None and line.reallocate is not None:
        for s in battle.defender.ids():
            count += differ(given.reallocate.get(s), line.reallocate.get(s), False)
    return count


def namings(combats: Sequence[str], names: Sequence[str]) -> Iterator[dict[str, str | None]]:
    """Every way to give the combats the player's names (each at most once) or new ones."""
    for labels in product([*names, FRESH], repeat=len(combats)):
        taken = [label for label in labels if label is not FRESH]
        if len(taken) == len(set(taken)):
            yield dict(zip(combats, labels, strict=True))


def renamed(line: Allocation, naming: Mapping[str, str | None]) -> Allocation:
    fresh = iter(f"new{i}" for i in range(len(naming)))
    final = {old: label if label is not FRESH else next(fresh) for old, label in naming.items()}
    return Allocation(
        combats={final[n]: ids for n, ids in (line.combats or {}).items()},
        attack=None if line.attack is None else {final[n]: ids for n, ids in line.attack.items()},
        reallocate=None
        if line.reallocate is None
        else {s: final[n] for s, n in line.reallocate.items()},
    )


def legal_lines(battle: Battle, depth: int) -> Iterator[Allocation]:
    for combats in oracle.legal_groupings(battle):
        if depth == 1:
            yield Allocation(combats=combats)
            continue
        for attack in oracle.legal_attacks(battle, combats):
            if depth == 2:
                yield Allocation(combats=combats, attack=attack)
                continue
            for reallocate in oracle.legal_reallocations(battle, combats, attack):
                yield Allocation(combats=combats, attack=attack, reallocate=reallocate)


def fewest_moved(battle: Battle, given: Allocation) -> int:
    names = list(given.combats or {})
    return min(
        moved(battle, given, renamed(line, naming))
        for line in legal_lines(battle, allocation_depth(given))
        for naming in namings(list(line.combats or {}), names)
    )


def rifles(defenders: int, attackers: int, **more: Any) -> dict[str, Any]:
    """A scenario of rifle squads: d1, d2, ... against a1, a2, ..."""

    def side(prefix: str, unit: str, count: int) -> dict[str, Any]:
        ids = [f"{prefix}{n}" for n in range(1, count + 1)]
        stands = [{"id": stand, "type": "rifle", "unit": unit} for stand in ids]
        return {"units": [{"id": unit, "kind": "platoon"}], "stands": stands}

    return {"defender": side("d", "p", defenders), "attacker": side("a", "q", attackers), **more}


@st.composite
def broken_cases(draw: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    scenario = draw(scenarios(max_defenders=3, max_attackers=3))
    making = near_legal_allocations if draw(st.booleans()) else allocations
    return scenario, draw(making(scenario))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_cases())
def test_the_nearest_legal_allocation_moves_the_fewest_stands(
    case: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    scenario, allocation = case
    battle = battle_from_data({**scenario, "allocation": allocation})
    given_allocation = battle.allocation
    assert given_allocation is not None
    answer = check_battle(battle)
    if not any(v.step > 0 for v in answer.violations):
        assert answer.nearest_legal is None
        return
    nearest = answer.nearest_legal
    assert nearest is not None, "a broken allocation of a small battle always has a nearest"
    assert [v for v in check(battle, nearest) if v.step > 0] == []
    assert moved(battle, given_allocation, nearest) == fewest_moved(battle, given_allocation)


def test_brute_force_counts_moves_as_the_docstring_says() -> None:
    battle = battle_from_data(rifles(defenders=2, attackers=2))
    given = Allocation(combats={"A": ["d1", "d2"]}, attack={"A": ["a1", "a2"]})
    assert fewest_moved(battle, given) == 2  # d2 to a new combat, and one attacker after it
    same = Allocation(combats={"A": ["d1"], "B": ["d2"]}, attack={"A": ["a1"], "B": ["a2"]})
    assert moved(battle, given, same) == 2
    assert moved(battle, given, renamed(same, {"A": FRESH, "B": FRESH})) == 4


class _StoppedSolver:
    """A CP-SAT solver whose every search ends as the time limit would end it."""

    def __init__(self, solver: Any, status: int) -> None:
        self.solver, self.status = solver, status

    def solve(self, model: Any) -> int:
        self.solver.solve(model)
        return self.status

    def __getattr__(self, name: str) -> Any:
        return getattr(self.solver, name)


def stopped_check(monkeypatch: Any, status_name: str) -> Any:
    from allocator.core import cpsat

    solver_of = cpsat.new_solver
    status = getattr(cpsat.cp_model, status_name)
    monkeypatch.setattr(
        cpsat, "new_solver", lambda *a, **k: _StoppedSolver(solver_of(*a, **k), status)
    )
    broken = rifles(defenders=2, attackers=1, allocation={"combats": {"A": ["d1", "d2"]}})
    return check_battle(battle_from_data(broken))


def test_a_nearest_not_proven_fewest_says_so(monkeypatch: Any) -> None:
    answer = stopped_check(monkeypatch, "FEASIBLE")
    assert answer.nearest_legal is not None and not answer.legal
    assert answer.cut_short and "proven to move the fewest stands" in answer.cut_short


def test_no_nearest_in_time_still_lists_every_broken_rule(monkeypatch: Any) -> None:
    answer = stopped_check(monkeypatch, "UNKNOWN")
    assert answer.nearest_legal is None
    assert [v.rule for v in answer.violations] == ["1a"]
    assert answer.cut_short and "the nearest legal allocation was not found" in answer.cut_short
