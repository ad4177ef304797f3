"""Exact odds of one combat and of a whole round (docs/rules.md; every number from the profile).

A side's total adds its stands' values, the best eligible leader's rating (L1-L3) and the
modifiers; then one d6 each (or one d6 per fighting stand, highest counts) decides, ties as the
profile says.

>>> from fractions import Fraction
>>> [str(win_probability(d, "single", "reroll")) for d in (0, 1, 2, 3, 4, 5)]
['1/2', '21/31', '13/16', '10/11', '33/34', '1']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from allocator.core.exact import ExactValue
from allocator.games.crossfire.answers import (
    CombatAnswer,
    OutcomeAnswer,
    RoundAnswer,
)
from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.objectives import OBJECTIVES, RoundObjective
from allocator.games.crossfire.profile import Ruleset
from allocator.games.crossfire.rules import leaders
from allocator.games.crossfire.schema import StandType

#: Beyond this difference of modifiers a single d6 (or the best of a pool) cannot turn the result.
DIFF_LIMIT = 6


@dataclass(frozen=True)
class SideTotal:
    """A side's total in one combat, with what makes it up."""

    total: int
    parts: tuple[tuple[str, int], ...]
    fighters: int
    can_fight: bool
    stands: int

    def explain(self) -> str:
        return " ".join(f"{what} {value:+d}" for what, value in self.parts) or "nothing"


@cache
def _at_most(dice: int) -> tuple[int, ...]:
    """How many of the 6**dice rolls have no die above k, for k = 0..6."""
    return tuple(k**dice for k in range(7))


@cache
def win_probability(diff: int, mode: str, ties: str, dice: tuple[int, int] = (1, 1)) -> Fraction:
    """P(attacker wins) when his modifiers exceed the defender's by ``diff``.

    ``mode`` "single": one d6 each; "pool": ``dice`` = (attacker's, defender's) d6, highest counts.
    """
    diff = max(-DIFF_LIMIT, min(DIFF_LIMIT, diff))
    attacker, defender = dice if mode == "pool" else (1, 1)
    a_at_most, d_at_most = _at_most(max(attacker, 1)), _at_most(max(defender, 1))
    win = lose = 0
    for face in range(1, 7):  # the attacker's highest die; the defender's below or above it
        highest = a_at_most[face] - a_at_most[face - 1]
        win += highest * d_at_most[min(max(face + diff - 1, 0), 6)]
        lose += highest * (d_at_most[6] - d_at_most[min(max(face + diff, 0), 6)])
    if ties == "reroll":
        return Fraction(win, win + lose) if win + lose else Fraction(1, 2)
    total = a_at_most[6] * d_at_most[6]
    return Fraction(win + (total - win - lose if ties == "attacker" else 0), total)


def stand_value(ruleset: Ruleset, battle: Battle, stand: str) -> list[tuple[str, int]]:
    """What one fighting stand adds (its quality and suppression included)."""
    info = battle.stand(stand)
    role = battle.role(stand)
    parts: list[tuple[str, int]] = []
    if role == Role.squad:
        parts.append((f"{stand} squad", ruleset.value("squad")))
        if info.type == StandType.smg:
            parts.append((f"{stand} SMG", ruleset.value("smg")))
    elif role == Role.weapon:
        parts.append((f"{stand} weapon", ruleset.value("weapon")))
        parts.append((f"{stand} crew", ruleset.value("crew")))
    else:
        return parts
    quality = ruleset.value(info.quality.value)
    if quality:
        parts.append((f"{stand} {info.quality.value}", quality))
    if info.suppressed:
        parts.append((f"{stand} suppressed", ruleset.value("suppressed")))
    return parts


def side_total(battle: Battle, ids: Sequence[str], attacking: bool) -> SideTotal:
    """One side's total in a combat holding ``ids`` (that side's stands)."""
    ruleset = battle.ruleset
    parts: list[tuple[str, int]] = []
    for stand in ids:
        parts += stand_value(ruleset, battle, stand)
    squads = [s for s in ids if battle.role(s) == Role.squad]
    weapons = [s for s in ids if battle.role(s) == Role.weapon]
    commanders = [s for s in ids if battle.is_commander(s)]
    heads = leaders.as_squads(battle, ids, attacking)
    for commander in heads:
        parts.append((f"{commander} fights as a squad", ruleset.value("commander_as_squad")))
    fighters = len(squads) + len(weapons) + len(heads)
    parts += leaders.bonus_parts(battle, ids)
    if attacking and battle.surprised():
        parts.append(("surprised", ruleset.value("surprise")))
    total = sum(value for _, value in parts)
    can_fight = bool(squads or weapons or commanders)
    if not can_fight and not ruleset.value("lone_noncombatant_loses"):
        can_fight = not any(battle.role(s) == Role.leader for s in ids) and bool(ids)
    return SideTotal(total, tuple(parts), fighters, can_fight, len(ids))


@dataclass(frozen=True)
class CombatOdds:
    name: str
    defenders: tuple[str, ...]
    attackers: tuple[str, ...]
    attacker: SideTotal
    defender: SideTotal
    p_attacker_wins: Fraction
    decided: str | None = None

    def answer(self) -> CombatAnswer:
        return CombatAnswer(
            name=self.name,
            defenders=list(self.defenders),
            attackers=list(self.attackers),
            attacker_total=self.attacker.total,
            defender_total=self.defender.total,
            attacker_parts=list(self.attacker.parts),
            defender_parts=list(self.defender.parts),
            p_attacker_wins=float(self.p_attacker_wins),
            p_attacker_wins_exact=self.p_attacker_wins,
            decided=self.decided,
        )


def combat_odds(
    battle: Battle, name: str, defenders: Sequence[str], attackers: Sequence[str]
) -> CombatOdds:
    attacker = side_total(battle, attackers, attacking=True)
    defender = side_total(battle, defenders, attacking=False)
    decided = None
    if not attacker.can_fight:
        p, decided = Fraction(0), "the attacker has no fighting stand and loses without a roll"
    elif not defender.can_fight:
        p, decided = Fraction(1), "the defender has no fighting stand and loses without a roll"
    else:
        p = combat_probability(battle.ruleset, attacker, defender)
    return CombatOdds(name, tuple(defenders), tuple(attackers), attacker, defender, p, decided)


def combat_probability(ruleset: Ruleset, attacker: SideTotal, defender: SideTotal) -> Fraction:
    mode, ties = ruleset.value("dice_mode"), ruleset.value("ties")
    if mode == "pool":
        diff = (attacker.total - attacker.fighters) - (defender.total - defender.fighters)
        return win_probability(diff, mode, ties, (attacker.fighters, defender.fighters))
    return win_probability(attacker.total - defender.total, mode, ties)


def final_combats(
    combats: dict[str, list[str]], attack: dict[str, list[str]], reallocate: dict[str, str]
) -> dict[str, tuple[list[str], list[str]]]:
    """The fights after step 6: combats with attackers, with the moved stands added."""
    fights = {
        n: (list(ids), list(attack.get(n, []))) for n, ids in combats.items() if attack.get(n)
    }
    for stand, target in reallocate.items():
        if target in fights:
            fights[target][0].append(stand)
    return fights


def round_odds(
    battle: Battle,
    combats: dict[str, list[str]],
    attack: dict[str, list[str]],
    reallocate: dict[str, str],
) -> list[CombatOdds]:
    return [
        combat_odds(battle, name, defenders, attackers)
        for name, (defenders, attackers) in final_combats(combats, attack, reallocate).items()
    ]


@dataclass
class RoundOutcome:
    """P(defender loses i stands and attacker loses j) for the whole round."""

    outcomes: dict[tuple[int, int], Fraction] = field(default_factory=dict)

    def answer(self) -> list[OutcomeAnswer]:
        return [
            OutcomeAnswer(defender_losses=d, attacker_losses=a, p=float(p), p_exact=p)
            for (d, a), p in sorted(self.outcomes.items())
        ]


def round_answer(odds: list[CombatOdds]) -> RoundAnswer:
    """Every combat's odds, the round's outcomes and the round's value under each round
    objective (a field of :class:`RoundAnswer` by the objective's name)."""
    values = {
        name: ExactValue.of(o.of_round(odds))
        for name, o in OBJECTIVES.items()
        if isinstance(o, RoundObjective)
    }
    return RoundAnswer.model_validate(
        {"combats": [c.answer() for c in odds], "outcomes": round_outcome(odds).answer(), **values}
    )


def round_outcome(odds: Iterable[CombatOdds]) -> RoundOutcome:
    outcomes = {(0, 0): Fraction(1)}
    for combat in odds:
        step: dict[tuple[int, int], Fraction] = {}
        p = combat.p_attacker_wins
        for (d, a), q in outcomes.items():
            for key, weight in (
                ((d + len(combat.defenders), a), p),
                ((d, a + len(combat.attackers)), 1 - p),
            ):
                if weight:
                    step[key] = step.get(key, Fraction(0)) + q * weight
        outcomes = step
    return RoundOutcome(outcomes)
