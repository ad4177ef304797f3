"""The fight at the table: the dice the players rolled applied to a round's allocation, the
survivors, and the next round's scenario (7a, 7b).

A combat's dice are written attacker first: ``4-3`` is the attacker's 4 against the defender's
3. With the profile's ``dice_mode: pool`` each side rolls one die per fighting stand, written
with spaces: ``6 2-3``. A tie that the profile re-rolls is followed by its re-roll after a
slash: ``4-4/5-2``. ``cfalloc play --dice`` names each combat: ``A:4-3,B:6-1``.

>>> from allocator.core.library import folder
>>> from allocator.games.crossfire.battle import load_battle
>>> b = load_battle(folder("scenarios") / "guide-2hmg-1squad-v-4.yaml")
>>> played = play_round(b, dice_of("A:4-3,B:1-5"))
>>> [(c.name, c.winner) for c in played.combats], played.over
([('A', 'attacker'), ('B', 'defender')], False)
>>> played.removed["defender"], played.left["defender"]
(['d1', 'h1'], ['h2'])
>>> played.next_scenario.round
2
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Mapping
from itertools import cycle, islice
from typing import Any, NamedTuple

from allocator.core.errors import InputError, TimeLimitError
from allocator.core.library import is_path
from allocator.core.reader import excerpt
from allocator.core.text import plural
from allocator.games.crossfire.answers import FightAnswer, PlayAnswer, Roll, RolledCombat, TableRoll
from allocator.games.crossfire.battle import SIDES, Battle
from allocator.games.crossfire.odds import CombatOdds, round_odds
from allocator.games.crossfire.profile import GAME, Ruleset, shipped_profile
from allocator.games.crossfire.rules import check, resolution
from allocator.games.crossfire.schema import Allocation, RulesetOverride, Scenario, SideName

#: Seeds are drawn from this range when the player gives none (small enough to type back in).
SEED_RANGE = 1_000_000
#: The faces of a die.
FACES = range(1, 7)
#: The most rolls one combat may be given (a tie re-rolled again and again).
MAX_ROLLS = 50
#: The most digits a face is read with (``004`` is a 4; a longer number is no face at all).
LONGEST_FACE = 9
#: The longest dice text accepted for one round.
MAX_DICE_TEXT = 10_000
#: A combat's name, as an allocation writes it.
_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,64}")
#: How a roll is written: the attacker's dice, a dash, the defender's dice.
_ROLL = re.compile(r"\s*(\d+(?:\s+\d+)*)\s*-\s*(\d+(?:\s+\d+)*)\s*")


def fresh_seed() -> int:
    """A new seed for dice nobody asked to repeat."""
    return secrets.randbelow(SEED_RANGE)


class TableDice(NamedTuple):
    """One roll's dice as they fell: each side's die, or each die of its pool."""

    attacker: tuple[int, ...]
    defender: tuple[int, ...]


class CombatDice(NamedTuple):
    """How one combat is rolled: each side's number of dice and what is added to its best die.

    With one die each the die is added to the side's total; with a pool each fighting stand's
    die replaces its +1 (the best die counts).
    """

    attacker: int
    defender: int
    attacker_add: int
    defender_add: int

    @classmethod
    def of(cls, ruleset: Ruleset, combat: CombatOdds) -> CombatDice:
        if ruleset.value("dice_mode") != "pool":
            return cls(1, 1, combat.attacker.total, combat.defender.total)
        return cls(
            max(combat.attacker.fighters, 1),
            max(combat.defender.fighters, 1),
            combat.attacker.total - combat.attacker.fighters,
            combat.defender.total - combat.defender.fighters,
        )

    def words(self) -> str:
        """``one die each``, or ``the attacker 2 dice, the defender 1 die``."""
        if self.attacker == self.defender == 1:
            return "one die each"
        return (
            f"the attacker {plural(self.attacker, 'die', 'dice')}, "
            f"the defender {plural(self.defender, 'die', 'dice')}"
        )

    def example(self) -> str:
        """A roll written for this combat: ``4-3``, ``5 2-3``.

        >>> CombatDice(4, 1, 0, 0).example()
        '4 2 1 4-3'
        """
        attacker = islice(cycle((4, 2, 1)), self.attacker)
        defender = islice(cycle((3, 5, 6)), self.defender)
        return f"{' '.join(map(str, attacker))}-{' '.join(map(str, defender))}"

    def scores(self, roll: TableDice) -> tuple[int, int]:
        """Each side's score: its best die and what is added to it."""
        return max(roll.attacker) + self.attacker_add, max(roll.defender) + self.defender_add

    def scored(self, roll: TableDice) -> Roll:
        attacker, defender = max(roll.attacker), max(roll.defender)
        return Roll(
            attacker=attacker,
            defender=defender,
            attacker_score=attacker + self.attacker_add,
            defender_score=defender + self.defender_add,
        )

    def rolled(self, rng: random.Random, ties: str) -> list[TableDice]:
        """Dice rolled here for this combat, until a roll decides it (a tie re-rolled)."""
        low, high = FACES.start, FACES.stop - 1
        rolls = []
        while True:
            attacker = tuple(rng.randint(low, high) for _ in range(self.attacker))
            defender = tuple(rng.randint(low, high) for _ in range(self.defender))
            rolls.append(TableDice(attacker, defender))
            attacker_score, defender_score = self.scores(rolls[-1])
            if ties != "reroll" or attacker_score != defender_score:
                return rolls


def resolve_combat(battle: Battle, combat: CombatOdds, rolls: list[TableDice]) -> RolledCombat:
    """One combat resolved with ``rolls`` (7a): the higher score wins, a tie as the profile
    says; a combat decided without a roll takes no dice.

    Raises
    ------
    InputError
        Naming the combat: dice for a combat decided without a roll, none for one that is
        rolled, the wrong number of dice, a face that is not on a die, a roll after the one
        that decided it, or a tie the profile re-rolls without its re-roll.
    """
    name = combat.name
    if combat.decided:
        if rolls:
            raise InputError(f"combat {name} takes no dice: {combat.decided}")
        return _without_roll(combat)
    dice = CombatDice.of(battle.ruleset, combat)
    if not rolls:
        raise InputError(
            f"combat {name} has no dice: give {dice.words()}, e.g. {name}:{dice.example()}"
        )
    ties = battle.ruleset.value("ties")
    scored: list[Roll] = []
    for number, roll in enumerate(rolls, start=1):
        _check_roll(name, dice, roll, number if len(rolls) > 1 else None)
        if scored and (ties != "reroll" or _decides(scored[-1])):
            decided = "is not re-rolled here" if ties != "reroll" else "was not a tie"
            raise InputError(
                f"combat {name}: roll {number} follows a roll that decided the combat "
                f"(a tie {decided}): give the dice of the deciding roll last"
            )
        scored.append(dice.scored(roll))
    last = scored[-1]
    if not _decides(last) and ties == "reroll":
        raise InputError(
            f"combat {name}: {_written(rolls[-1])} is a tie ({last.attacker_score} against "
            f"{last.defender_score}), which is rolled again: add the re-roll after a slash, "
            f"e.g. {name}:{_written(rolls[-1])}/{dice.example()}"
        )
    return _rolled(combat, scored, _winner(last, ties))


def roll_combat(battle: Battle, combat: CombatOdds, rng: random.Random) -> RolledCombat:
    """One combat rolled here as the profile says (7a): the dice of :meth:`CombatDice.rolled`,
    which need none of :func:`resolve_combat`'s checks."""
    if combat.decided:
        return _without_roll(combat)
    dice = CombatDice.of(battle.ruleset, combat)
    ties = battle.ruleset.value("ties")
    scored = [dice.scored(roll) for roll in dice.rolled(rng, ties)]
    return _rolled(combat, scored, _winner(scored[-1], ties))


def _without_roll(combat: CombatOdds) -> RolledCombat:
    """A combat decided without a roll: the side that cannot fight loses."""
    return _rolled(combat, [], "attacker" if combat.p_attacker_wins == 1 else "defender")


def _winner(last: Roll, ties: str) -> SideName:
    """Who the deciding roll makes the winner: the higher score, a tie as the profile says."""
    if last.attacker_score == last.defender_score:
        return "attacker" if ties == "attacker" else "defender"
    return "attacker" if last.attacker_score > last.defender_score else "defender"


def _decides(roll: Roll) -> bool:
    return roll.attacker_score != roll.defender_score


def _check_roll(name: str, dice: CombatDice, roll: TableDice, number: int | None) -> None:
    which = f"combat {name}" + ("" if number is None else f", roll {number}")
    for side, count, faces in (
        ("attacker", dice.attacker, roll.attacker),
        ("defender", dice.defender, roll.defender),
    ):
        if len(faces) != count:
            raise InputError(
                f"{which}: the {side} rolls {plural(count, 'die', 'dice')} here "
                f"({dice.words()}), not {len(faces)}"
            )
        wrong = [face for face in faces if face not in FACES]
        if wrong:
            raise _not_a_face(which, wrong[0])


def _not_a_face(which: str, face: object) -> InputError:
    return InputError(
        f"{which}: {excerpt(face, 20)} is not a face of a die ({FACES.start} to {FACES.stop - 1})"
    )


def _written(roll: TableDice) -> str:
    return f"{' '.join(map(str, roll.attacker))}-{' '.join(map(str, roll.defender))}"


def _rolled(combat: CombatOdds, rolls: list[Roll], winner: SideName) -> RolledCombat:
    return RolledCombat(
        name=combat.name,
        attackers=list(combat.attackers),
        defenders=list(combat.defenders),
        attacker_total=combat.attacker.total,
        defender_total=combat.defender.total,
        attacker_parts=list(combat.attacker.parts),
        defender_parts=list(combat.defender.parts),
        rolls=rolls,
        winner=winner,
        note=combat.decided,
    )


def rolls_of(name: str, text: str) -> list[TableDice]:
    """The rolls of one combat written as text: ``4-3``, ``6 2-3``, ``4-4/5-2``.

    >>> rolls_of("A", "4-4/5 1-2")
    [TableDice(attacker=(4,), defender=(4,)), TableDice(attacker=(5, 1), defender=(2,))]
    """
    written = text.split("/")
    if len(written) > MAX_ROLLS:
        raise InputError(f"combat {name}: {len(written):,} rolls; at most {MAX_ROLLS} are taken")
    rolls = []
    for part in written:
        found = _ROLL.fullmatch(part)
        if found is None:
            raise InputError(
                f"combat {name}: {excerpt(part.strip())} is not a roll: write the attacker's "
                "die, a dash and the defender's die, e.g. 4-3 (with a pool, each side's dice "
                "with spaces: 6 2-3)"
            )
        attacker, defender = (_faces(name, side) for side in found.groups())
        rolls.append(TableDice(attacker, defender))
    return rolls


def _faces(name: str, written: str) -> tuple[int, ...]:
    """One side's dice as numbers; a number too long to be any face is refused unread (Python
    reads no more than 4,300 digits)."""
    faces = written.split()
    for face in faces:
        if len(face) > LONGEST_FACE:
            raise _not_a_face(f"combat {name}", face)
    return tuple(int(face) for face in faces)


def dice_of(text: str) -> dict[str, list[TableDice]]:
    """Every combat's rolls written on one line, each combat named: ``A:4-3,B:6-1`` (none:
    every combat of the round is decided without a roll).

    >>> {name: len(rolls) for name, rolls in dice_of("A:4-4/5-2, B:6-1").items()}
    {'A': 2, 'B': 1}
    """
    if len(text) > MAX_DICE_TEXT:
        raise InputError(f"{len(text):,} characters of dice; at most {MAX_DICE_TEXT:,} are read")
    found: dict[str, list[TableDice]] = {}
    for entry in text.split(","):
        if not entry.strip():
            continue
        name, colon, rolls = entry.partition(":")
        name = name.strip()
        if not colon or not name:
            raise InputError(
                f"{excerpt(entry.strip())} names no combat: write each combat's name, a colon "
                "and its dice, e.g. A:4-3,B:6-1"
            )
        if not _NAME.fullmatch(name):
            raise InputError(f"{excerpt(name)} is not the name of a combat (A, B, ...)")
        if name in found:
            raise InputError(f"combat {name} is given dice twice")
        found[name] = rolls_of(name, rolls)
    return found


def given_allocation(battle: Battle) -> Allocation | None:
    """The scenario's allocation when it is complete (the attacker's answer given), checked.

    Raises
    ------
    InputError
        When it breaks a rule: the first one named.
    """
    allocation = battle.allocation
    if allocation is None or allocation.attack is None:
        return None
    broken = check(battle)
    if broken:
        raise InputError(
            f"the allocation breaks rule {broken[0].rule}: {broken[0].message} "
            "(run `cfalloc check` for the full report)",
            file=battle.file,
            place="allocation",
        )
    return allocation


def round_combats(battle: Battle) -> list[CombatOdds]:
    """The combats of the round the battle's allocation plays, with their totals.

    Raises
    ------
    InputError
        When the allocation is not complete, or breaks a rule (named).
    """
    allocation = given_allocation(battle)
    if allocation is None:
        raise InputError(
            "the scenario has no complete allocation to play: add the one the players chose "
            "(the defender's combats and the attacker's answer) under `allocation:`; "
            "`cfalloc solve` finds the best one",
            file=battle.file,
            place="allocation",
        )
    return round_odds(
        battle, allocation.combats or {}, allocation.attack or {}, allocation.reallocate or {}
    )


def play_round(
    battle: Battle,
    dice: Mapping[str, list[TableDice]] | None = None,
    seed: int | None = None,
    odds_time_limit: float | None = None,
) -> PlayAnswer:
    """Play the round of the battle's allocation with the dice rolled at the table (``dice``,
    by combat), or with dice rolled here (from ``seed``, else fresh) when none are given; then
    the survivors (7a) and, while the fight goes on (7b), the next round's scenario and, given
    ``odds_time_limit``, the whole fight's odds from there.

    Parameters
    ----------
    battle : Battle
        A scenario with a complete, legal allocation.
    dice : mapping of combat name to its rolls, optional
        Every combat that is rolled, and only those.
    seed : int, optional
        The seed of the dice rolled here (without ``dice``).
    odds_time_limit : float, optional
        Seconds for the whole fight's odds of the next round (None: not worked out; left out
        too when the time limit allows no answer at all).

    Returns
    -------
    PlayAnswer

    Raises
    ------
    InputError
        Every problem of the dice, each naming its combat; or an allocation that cannot be
        played (:func:`round_combats`).
    """
    combats = round_combats(battle)
    if dice is None:
        seed = fresh_seed() if seed is None else seed
        rng = random.Random(seed)
        ties = battle.ruleset.value("ties")
        dice = {
            c.name: CombatDice.of(battle.ruleset, c).rolled(rng, ties)
            for c in combats
            if not c.decided
        }
    else:
        seed = None
    problems: list[InputError] = []
    names = [c.name for c in combats]
    for name in dice:
        if name not in names:
            problems.append(
                InputError(
                    f"there is no combat {excerpt(name)} this round (its combats: "
                    f"{', '.join(names)})"
                )
            )
    played: list[RolledCombat] = []
    for combat in combats:
        try:
            played.append(resolve_combat(battle, combat, list(dice.get(combat.name, []))))
        except InputError as problem:
            problems.append(problem)
    if problems:
        raise InputError.of(problems)
    removed: dict[SideName, list[str]] = {
        "attacker": sorted(a for c in played if c.winner != "attacker" for a in c.attackers),
        "defender": sorted(d for c in played if c.winner != "defender" for d in c.defenders),
    }
    left = {side: [s for s in battle.side(side).stands if s not in removed[side]] for side in SIDES}
    winner = resolution.winner(battle, left)
    following = None if winner is not None else next_scenario(battle, left)
    return PlayAnswer(
        round=battle.scenario.round,
        seed=seed,
        combats=played,
        dice={
            c.name: [
                TableRoll(attacker=list(r.attacker), defender=list(r.defender))
                for r in dice[c.name]
            ]
            for c in combats
            if not c.decided
        },
        removed=removed,
        left={side: sorted(ids) for side, ids in left.items()},
        over=winner is not None,
        winner=winner,
        result=_result(winner, battle.scenario.round),
        next_scenario=following,
        fight=None
        if following is None or odds_time_limit is None
        else _whole_fight(battle, following, odds_time_limit),
    )


def _result(winner: SideName | None, round_: int) -> str:
    if winner == "attacker":
        return "The fight is over: the attacker takes the building (no defending stand is left)."
    if winner == "defender":
        return (
            "The fight is over: the defender holds the building (the attacker has no squad, CC "
            "or BC left)."
        )
    return (
        f"The fight goes on: both sides still have stands in the building, so round "
        f"{round_ + 1} starts again from step 1 with the survivors (7b)."
    )


def _whole_fight(battle: Battle, following: Scenario, time_limit: float) -> FightAnswer | None:
    from allocator.games.crossfire.battle import battle_from_scenario
    from allocator.games.crossfire.fight import fight_answer
    from allocator.games.crossfire.objectives import objective_named
    from allocator.games.crossfire.search.solve import solve

    later = battle_from_scenario(following, battle.file)
    try:
        return fight_answer(solve(later, "defender", objective_named("take"), time_limit))
    except TimeLimitError:  # the round is played all the same; its odds are left out
        return None


def next_scenario(battle: Battle, alive: Mapping[SideName, list[str]]) -> Scenario:
    """The scenario of the next round (7b): the survivors only, where they stood, no allocation
    yet; written as the battle's own file writes it (an organisation's stands as ``present``).

    A profile of the player's own (a path) is written as the shipped profile's overrides, so
    that the next round's file reads the same wherever it is saved.

    >>> from allocator.games.crossfire.battle import battle_from_data
    >>> b = battle_from_data({"round": 1, "allocation": {"combats": {"A": ["de-1plt-sq1"]}},
    ...     "defender": {"organisation": "german-rifle-company",
    ...                  "present": ["de-1plt-sq1", "de-1plt-sq2"]},
    ...     "attacker": {"units": [{"id": "q", "kind": "platoon"}], "stands": [
    ...         {"id": "a1", "type": "rifle", "unit": "q"},
    ...         {"id": "pc", "type": "pc", "unit": "q", "near": ["a1", "a2"]},
    ...         {"id": "a2", "type": "rifle", "unit": "q"}]},
    ... })
    >>> s = next_scenario(b, {"defender": ["de-1plt-sq2"], "attacker": ["a1", "pc"]})
    >>> s.round, s.allocation, s.defender.present, [(x.id, x.near) for x in s.attacker.stands]
    (2, None, ['de-1plt-sq2'], [('a1', []), ('pc', ['a1'])])
    """
    data = battle.scenario.model_dump(mode="json", exclude_unset=True)
    data.pop("allocation", None)
    data.pop("expect", None)
    data["round"] = battle.scenario.round + 1
    spec = battle.scenario.ruleset
    if is_path(spec.base if isinstance(spec, RulesetOverride) else spec):
        data["ruleset"] = _as_overrides(battle.ruleset)
    for side in SIDES:
        keep = set(alive[side])
        force = data[side]
        if force.get("organisation") is not None and not force.get("present"):
            force["present"] = [s for s in battle.side(side).stands if s not in _own(force)]
        if "present" in force:
            force["present"] = _survivors(force["present"], keep)
        if "stands" in force:
            force["stands"] = _survivors(force["stands"], keep)
    return Scenario.model_validate(data)


def _own(force: dict[str, Any]) -> set[str]:
    """The ids of the stands a force lists itself (beside an organisation's)."""
    return {stand["id"] for stand in force.get("stands", [])}


def _survivors(entries: list[Any], keep: set[str]) -> list[Any]:
    """The entries of the stands in ``keep`` (an id, or a stand's mapping), each ``near`` only
    the stands still there."""
    kept = []
    for entry in entries:
        stand_id = entry if isinstance(entry, str) else entry["id"]
        if stand_id not in keep:
            continue
        if isinstance(entry, dict) and entry.get("near"):
            entry = entry | {"near": [other for other in entry["near"] if other in keep]}
        kept.append(entry)
    return kept


def _as_overrides(ruleset: Ruleset) -> dict[str, Any]:
    """A profile as the shipped Crossfire profile and the values that differ from it."""
    base = shipped_profile(GAME)
    changed = {
        key: value.value
        for key, value in ruleset.values.items()
        if value.value != base.value(key) or type(value.value) is not type(base.value(key))
    }
    return {"base": GAME, "overrides": changed}
