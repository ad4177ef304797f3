"""An independent brute-force oracle: every legal line of play, enumerated without CP-SAT.

Legality is the plain checker's (:mod:`allocator.games.crossfire.rules`); the values are exact
fractions from :mod:`allocator.games.crossfire.odds`. Only for small scenarios: it tries every
partition, every attack and every reallocation.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from string import ascii_uppercase

from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.objectives import RoundObjective, objective_named
from allocator.games.crossfire.odds import round_odds
from allocator.games.crossfire.rules import attack as attack_rules
from allocator.games.crossfire.rules import grouping as grouping_rules
from allocator.games.crossfire.rules import reallocation as reallocation_rules
from allocator.games.crossfire.schema import Allocation


def check_grouping(battle: Battle, combats: dict[str, list[str]]) -> list[object]:
    return list(grouping_rules.check(battle, Allocation(combats=combats)))


def check_attack(
    battle: Battle, combats: dict[str, list[str]], attack: dict[str, list[str]]
) -> list[object]:
    return list(attack_rules.check(battle, Allocation(combats=combats, attack=attack)))


def check_reallocation(
    battle: Battle,
    combats: dict[str, list[str]],
    attack: dict[str, list[str]],
    reallocate: dict[str, str],
) -> list[object]:
    allocation = Allocation(combats=combats, attack=attack, reallocate=reallocate)
    return list(reallocation_rules.check(battle, allocation))


def set_partitions(items: list[str]) -> Iterator[list[list[str]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def legal_groupings(battle: Battle) -> Iterator[dict[str, list[str]]]:
    for partition in set_partitions(battle.defender.ids()):
        combats = dict(zip(ascii_uppercase, partition, strict=False))
        if not list(check_grouping(battle, combats)):
            yield combats


def legal_attacks(battle: Battle, combats: dict[str, list[str]]) -> Iterator[dict[str, list[str]]]:
    names = list(combats)
    squads = battle.attacker.ids(Role.squad)
    leaders = battle.attacker.ids(Role.leader)
    for squad_targets in product(names, repeat=len(squads)):
        for leader_targets in product([*names, None], repeat=len(leaders)):
            attack: dict[str, list[str]] = {}
            for stand, target in zip(squads + leaders, squad_targets + leader_targets, strict=True):
                if target is not None:
                    attack.setdefault(target, []).append(stand)
            if not list(check_attack(battle, combats, attack)):
                yield attack


def legal_reallocations(
    battle: Battle, combats: dict[str, list[str]], attack: dict[str, list[str]]
) -> Iterator[dict[str, str]]:
    active = [n for n in combats if attack.get(n)]
    moving = [s for n in combats if not attack.get(n) for s in combats[n]]
    for targets in product(active, repeat=len(moving)):
        reallocate = dict(zip(moving, targets, strict=True))
        if not list(check_reallocation(battle, combats, attack, reallocate)):
            yield reallocate


def value(
    battle: Battle,
    objective: str,
    combats: dict[str, list[str]],
    attack: dict[str, list[str]],
    reallocate: dict[str, str],
) -> Fraction:
    found = objective_named(objective)
    assert isinstance(found, RoundObjective), objective
    return found.of_round(round_odds(battle, combats, attack, reallocate))


def attacker_value(battle: Battle, objective: str, combats: dict[str, list[str]]) -> Fraction:
    """max over attacks of min over reallocations."""
    return max(
        min(
            value(battle, objective, combats, attack, r)
            for r in legal_reallocations(battle, combats, attack)
        )
        for attack in legal_attacks(battle, combats)
    )


def game_value(battle: Battle, objective: str) -> Fraction:
    """min over groupings of the attacker's best answer."""
    return min(attacker_value(battle, objective, g) for g in legal_groupings(battle))


def fight_value(
    battle: Battle,
    rounds: int | None = None,
    first: tuple[dict[str, list[str]], dict[str, list[str]], dict[str, str]] | None = None,
) -> Fraction:
    """P(the attacker takes the building) with both sides playing every round optimally.

    A plain recursion over the survivors of each round (rule 7b), every line of each round
    enumerated with the plain checker; ``rounds`` bounds the fight (a building not taken by
    then counts as held). With ``first`` (combats, attack, reallocation), round 1 is played
    as that line instead.
    """
    memo: dict[tuple[frozenset[str], bool, int | None], Fraction] = {}

    def line(
        current: Battle,
        combats: dict[str, list[str]],
        attack: dict[str, list[str]],
        reallocate: dict[str, str],
        later: int | None,
    ) -> Fraction:
        alive = frozenset(current.defender.ids() + current.attacker.ids())
        odds = round_odds(current, combats, attack, reallocate)
        total = Fraction(0)
        for wins in product((True, False), repeat=len(odds)):
            prob = Fraction(1)
            removed: set[str] = set()
            for combat, won in zip(odds, wins, strict=True):
                prob *= combat.p_attacker_wins if won else 1 - combat.p_attacker_wins
                removed |= set(combat.defenders if won else combat.attackers)
            if prob:
                total += prob * state(current.next_round(alive - removed), later)
        return total

    def state(current: Battle, left: int | None) -> Fraction:
        if not current.defender.stands:
            return Fraction(1)
        fighting = [
            s
            for s in current.attacker.ids()
            if current.role(s) == Role.squad or current.is_commander(s)
        ]
        if not fighting:
            return Fraction(0)
        if left == 0:
            return Fraction(0)
        alive = frozenset(current.defender.ids() + current.attacker.ids())
        key = (alive, current.scenario.round > 1, left)
        if key not in memo:
            later = None if left is None else left - 1
            memo[key] = min(
                max(
                    min(line(current, g, a, r, later) for r in legal_reallocations(current, g, a))
                    for a in legal_attacks(current, g)
                )
                for g in legal_groupings(current)
            )
        return memo[key]

    if first is not None:
        return line(battle, *first, None if rounds is None else rounds - 1)
    return state(battle, rounds)
