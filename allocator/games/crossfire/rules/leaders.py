"""The leader bonuses: L1-L3, which leaders' ratings count in a combat, and how they add up;
and which CCs and BCs count as squads there.

These rules score a combat rather than make an allocation legal: the plain odds
(:mod:`allocator.games.crossfire.odds`) and the odds inside CP-SAT
(:mod:`allocator.games.crossfire.cp_odds`) both take a side's leader bonus (:func:`bonus_parts`,
:func:`bonus_expression`) and its CCs and BCs that count as squads (:func:`as_squads`,
:func:`as_squads_expression`) from here.

>>> from allocator.games.crossfire.battle import battle_from_data
>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}, {"id": "o", "kind": "platoon"}],
...                  "stands": [{"id": "d1", "type": "rifle", "unit": "p"},
...                             {"id": "pc", "type": "pc", "unit": "o", "rating": 2}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}],
...                  "stands": [{"id": "a1", "type": "rifle", "unit": "q"}]},
... })
>>> bonus_parts(b, ["d1", "pc"])  # L1: the PC has none of his platoon here
[]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from allocator.core.text import listing
from allocator.core.violations import Violation
from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.rules.attack import acting_commander
from allocator.games.crossfire.rules.base import Rule
from allocator.games.crossfire.schema import RATINGS, Allocation, StandType

if TYPE_CHECKING:
    from allocator.core.cpsat import BoolVar, Expr, IntVar
    from allocator.games.crossfire.rules.attack import AttackVariables
    from allocator.games.crossfire.rules.base import SharedModel

STEPS: dict[int, str] = {}
RULES = (
    Rule(
        "L1",
        7,
        "A PC's rating counts in a combat only if at least one squad or crew-served weapon "
        "there is from his platoon.",
        checked=False,
    ),
    Rule(
        "L2",
        7,
        "A CC's or BC's rating always counts (also when he heads a combat, 1b or 4b).",
        checked=False,
    ),
    Rule(
        "L3",
        7,
        "A side's leader bonus in a combat is the highest rating among its eligible leaders "
        "there (a profile switch may sum them instead).",
        checked=False,
    ),
)


def rating(battle: Battle, leader: str) -> int:
    """A leader's rating (a Commissar's from the profile when the file gives none)."""
    stand = battle.stand(leader)
    if stand.rating is not None:
        return stand.rating
    value: int = (
        battle.ruleset.value("commissar_rating") if stand.type == StandType.commissar else 0
    )
    return value


def counts(battle: Battle, leader: str, ids: Sequence[str]) -> bool:
    """L1/L2: a CC's or BC's rating always counts; a PC's only beside troops of his platoon."""
    if not battle.platoon_leader(leader):
        return True
    return any(
        battle.role(s) in (Role.squad, Role.weapon) and battle.commands(leader, s) for s in ids
    )


def bonus_parts(battle: Battle, ids: Sequence[str]) -> list[tuple[str, int]]:
    """L3: the ratings that count for one side of a combat, as ``(who leads, rating)`` parts."""
    ratings = [
        (rating(battle, s), s)
        for s in ids
        if battle.role(s) == Role.leader and counts(battle, s, ids)
    ]
    ratings = [(r, s) for r, s in ratings if r]
    if not ratings:
        return []
    if battle.ruleset.value("leader_bonus") == "sum":
        return [(f"{s} leads", r) for r, s in sorted(ratings, key=lambda x: x[1])]
    best, who = min(ratings, key=lambda x: (-x[0], x[1]))
    return [(f"{who} leads", best)]


def as_squads(battle: Battle, ids: Sequence[str], attacking: bool) -> list[str]:
    """The CCs and BCs of one side of a combat who count as squads there (each adds a squad's
    value, ``commander_as_squad``, beside his rating under L2).

    Only where that side has no squad: for the defender every CC and BC there (one who formed a
    combat of his own, 1b, or joined a lone weapon, 3b; two such heads folded together at step 6
    count twice); for the attacker the one who takes the combat as a squad (4b,
    :func:`~allocator.games.crossfire.rules.attack.acting_commander`), any other having joined
    at step 5 as a leader only (5c).

    Parameters
    ----------
    battle : Battle
    ids : sequence of str
        One side's stands in the combat.
    attacking : bool
        Whether they are the attacker's.

    Returns
    -------
    list of str

    Examples
    --------
    >>> from allocator.games.crossfire.battle import battle_from_data
    >>> b = battle_from_data({
    ...     "defender": {"units": [{"id": "c", "kind": "company"}], "stands": [
    ...         {"id": "dcc", "type": "cc", "unit": "c"},
    ...         {"id": "dbc", "type": "bc", "unit": "c"}]},
    ...     "attacker": {"units": [{"id": "k", "kind": "company"}], "stands": [
    ...         {"id": "cc", "type": "cc", "unit": "k"}, {"id": "bc", "type": "bc", "unit": "k"}]},
    ... })
    >>> as_squads(b, ["dcc", "dbc"], attacking=False), as_squads(b, ["cc", "bc"], attacking=True)
    (['dcc', 'dbc'], ['cc'])
    """
    if attacking:
        head = acting_commander(battle, ids)
        return [] if head is None else [head]
    if any(battle.role(s) == Role.squad for s in ids):
        return []
    return [s for s in ids if battle.is_commander(s)]


def as_squads_expression(
    model: SharedModel,
    attack: AttackVariables,
    slot: int,
    members: Mapping[str, BoolVar],
    has_squad: BoolVar,
    attacking: bool,
) -> Expr:
    """:func:`as_squads` inside CP-SAT: how many CCs and BCs of one side count as squads in a
    slot, as a linear expression of ``members`` (the side's membership literals there).

    For the attacker it is the attack family's choice of who takes the combat as a squad (the
    literals ``attack.acting[k, slot]``, at most one true, 4b); for the defender every CC and BC
    there while ``has_squad`` is false.
    """
    commanders = [s for s in members if model.battle.is_commander(s)]
    if attacking:
        return sum(attack.acting[k, slot] for k in commanders)
    return sum(
        model.reify_and([members[k], has_squad.negated()], f"o_as{k}{slot}") for k in commanders
    )


def bonus_expression(
    model: SharedModel,
    members: Mapping[str, BoolVar],
    troops_there: Callable[[list[str], str], BoolVar],
    name: str,
) -> IntVar:
    """L1-L3 inside CP-SAT: the bonus of one side of one slot, as an integer variable.

    ``members`` maps the side's stands to their membership literals in the slot;
    ``troops_there(stands, tag)`` gives a literal that is true when any of them is there.
    """
    b, m = model.battle, model.model
    leaders = [s for s in members if b.role(s) == Role.leader]
    terms = []
    for leader in leaders:
        value = rating(b, leader)
        if not value:
            continue
        if b.platoon_leader(leader):  # L1
            own = [
                s
                for s in members
                if b.role(s) in (Role.squad, Role.weapon) and b.commands(leader, s)
            ]
            eligible = model.reify_and(
                [members[leader], troops_there(own, f"own{leader}")], f"{name}el{leader}"
            )
        else:  # L2
            eligible = members[leader]
        terms.append(value * eligible)
    bonus = m.new_int_var(0, RATINGS[1] * max(1, len(leaders)), f"{name}bonus")
    if b.ruleset.value("leader_bonus") == "sum":  # L3
        m.add(bonus == sum(terms))
    else:
        m.add_max_equality(bonus, [0, *terms])
    return bonus


def check(battle: Battle, allocation: Allocation) -> Iterator[Violation]:
    """Scoring rules: nothing for an allocation to break."""
    return iter(())


def requirements(battle: Battle, step: int) -> list[str]:
    pcs = [
        s
        for side in (battle.defender, battle.attacker)
        for s in side.ids(Role.leader)
        if battle.platoon_leader(s)
    ]
    summed = battle.ruleset.value("leader_bonus") == "sum"
    how = (
        "the ratings of all its eligible leaders"
        if summed
        else "the rating of its best eligible leader"
    )
    pc_text = (
        f", a PC's ({listing(pcs)}) only beside a squad or weapon of his platoon (L1)"
        if pcs
        else ""
    )
    return [f"Each side adds {how} in a combat (L3): a CC's or BC's always counts (L2){pc_text}."]
