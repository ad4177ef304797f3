"""An independent brute-force oracle: every legal line of play, enumerated without CP-SAT.

Legality is the plain checker's (:mod:`allocator.games.crossfire.rules`); the values are exact
fractions of its own reading of the combat model (RULES.md, section 2, with 5c: an attacking
CC or BC who joins at step 5 is a leader only), written here without the odds module or the
rule families' predicates: only the dice arithmetic (``win_probability``) is shared. Only for
small scenarios: it tries every partition, every attack and every reallocation.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from math import prod
from string import ascii_uppercase

from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.odds import win_probability
from allocator.games.crossfire.rules import attack as attack_rules
from allocator.games.crossfire.rules import grouping as grouping_rules
from allocator.games.crossfire.rules import reallocation as reallocation_rules
from allocator.games.crossfire.schema import Allocation, StandType

#: A combat as the oracle scores it: P(attacker wins), the defending and the attacking stands.
Fought = tuple[Fraction, list[str], list[str]]


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


def rating(battle: Battle, leader: str) -> int:
    """A leader's rating; the optional Commissar's is the profile's when the file gives none."""
    stand = battle.stand(leader)
    if stand.rating is not None:
        return stand.rating
    return int(battle.ruleset.value("commissar_rating")) if stand.type == StandType.commissar else 0


def side_total(battle: Battle, ids: list[str], attacking: bool) -> tuple[int, int, bool]:
    """One side of one combat, by RULES.md section 2: (total, fighting stands, can fight)."""
    value = battle.ruleset.value
    squads = [s for s in ids if battle.role(s) == Role.squad]
    weapons = [s for s in ids if battle.role(s) == Role.weapon]
    commanders = [s for s in ids if battle.is_commander(s)]
    total = 0
    for s in squads + weapons:
        stand = battle.stand(s)
        total += value("squad") if s in squads else value("weapon") + value("crew")
        total += value("smg") if stand.type == StandType.smg else 0
        total += value(stand.quality.value) + (value("suppressed") if stand.suppressed else 0)
    heads = 0
    if not squads:
        # A CC or BC heading a combat where his side has no squad counts as a squad: every
        # defending one (two folded together at step 6 are +2); of the attacker's only the one
        # who takes it as a squad (4b): any other joined at step 5, a leader only (5c).
        heads = min(1, len(commanders)) if attacking else len(commanders)
    total += heads * value("commander_as_squad")
    troops = squads + weapons
    eligible = [  # L1: a PC's (and a platoon's Commissar's) only beside troops of his platoon
        rating(battle, s)
        for s in ids
        if battle.role(s) == Role.leader
        and (not battle.platoon_leader(s) or any(battle.commands(s, t) for t in troops))
    ]
    if eligible:  # L3
        total += sum(eligible) if value("leader_bonus") == "sum" else max(eligible)
    if attacking and battle.surprised():
        total += value("surprise")
    can_fight = bool(troops or commanders)
    if not can_fight and not value("lone_noncombatant_loses"):  # an FO or sniper may roll
        can_fight = bool(ids) and not any(battle.role(s) == Role.leader for s in ids)
    return total, len(troops) + heads, can_fight


def p_attacker_wins(battle: Battle, defenders: list[str], attackers: list[str]) -> Fraction:
    attack, a_dice, a_fights = side_total(battle, attackers, attacking=True)
    defence, d_dice, d_fights = side_total(battle, defenders, attacking=False)
    if not a_fights:
        return Fraction(0)
    if not d_fights:
        return Fraction(1)
    ties = battle.ruleset.value("ties")
    if battle.ruleset.value("dice_mode") == "pool":  # each fighting stand's +1 is its die
        return win_probability(
            (attack - a_dice) - (defence - d_dice), "pool", ties, (a_dice, d_dice)
        )
    return win_probability(attack - defence, "single", ties)


def round_combats(
    battle: Battle,
    combats: dict[str, list[str]],
    attack: dict[str, list[str]],
    reallocate: dict[str, str],
) -> list[Fought]:
    """Every combat with attackers after step 6, the moved stands in it."""
    fought = []
    for name, ids in combats.items():
        if attack.get(name):
            defenders = list(ids) + [s for s, target in reallocate.items() if target == name]
            attackers = list(attack[name])
            fought.append((p_attacker_wins(battle, defenders, attackers), defenders, attackers))
    return fought


def value(
    battle: Battle,
    objective: str,
    combats: dict[str, list[str]],
    attack: dict[str, list[str]],
    reallocate: dict[str, str],
) -> Fraction:
    """A line's value for the attacker: ``sweep`` (he wins every combat) or ``exchange`` (the
    defending stands removed minus his own, on average)."""
    fought = round_combats(battle, combats, attack, reallocate)
    if objective == "sweep":
        return prod((p for p, _, _ in fought), start=Fraction(1))
    assert objective == "exchange", objective
    return sum((p * len(d) - (1 - p) * len(a) for p, d, a in fought), Fraction(0))


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
        fought = round_combats(current, combats, attack, reallocate)
        total = Fraction(0)
        for wins in product((True, False), repeat=len(fought)):
            prob = Fraction(1)
            removed: set[str] = set()
            for (p, defenders, attackers), won in zip(fought, wins, strict=True):
                prob *= p if won else 1 - p
                removed |= set(defenders if won else attackers)
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
