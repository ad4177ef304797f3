"""Rules 7a and 7b (``rules/resolution.py``, rolling and the next round), one test each.

These rules resolve a round: no allocation breaks them, so they have no passing and failing
scenarios. Each test holds the plain form of its rule to the other form the search values a
fight by: 7a, the round's outcomes of ``odds.py`` to every combat rolled on its own with its
loser's stands all gone; 7b, the family's ``winner`` to the enumeration's ``Space.winner``,
which decides the end of the fight from counts of interchangeable stands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import chain, combinations, product
from math import prod

from allocator.games.crossfire.battle import battle_from_data
from allocator.games.crossfire.odds import round_odds, round_outcome
from allocator.games.crossfire.rules import check
from allocator.games.crossfire.rules.resolution import winner
from allocator.games.crossfire.search.classes import Classes
from allocator.games.crossfire.search.enumeration import Space

DEFENDER_UNITS = [{"id": "coy", "kind": "company", "units": [{"id": "p", "kind": "platoon"}]}]
ATTACKER_UNITS = [{"id": "acoy", "kind": "company", "units": [{"id": "q", "kind": "platoon"}]}]


def subsets(ids: list[str]) -> Iterator[tuple[str, ...]]:
    return chain.from_iterable(combinations(ids, n) for n in range(len(ids) + 1))


def test_7a_each_combat_is_rolled_on_its_own_and_its_loser_loses_every_stand_there() -> None:
    battle = battle_from_data(
        {
            "defender": {
                "units": DEFENDER_UNITS,
                "stands": [
                    {"id": "d1", "type": "rifle", "unit": "p"},
                    {"id": "d2", "type": "rifle", "unit": "p"},
                    {"id": "dpc", "type": "pc", "unit": "p", "rating": 1},
                    {"id": "dfo", "type": "fo", "unit": "coy"},
                ],
            },
            "attacker": {
                "units": ATTACKER_UNITS,
                "stands": [
                    {"id": "a1", "type": "rifle", "unit": "q"},
                    {"id": "a2", "type": "rifle", "unit": "q"},
                    {"id": "apc", "type": "pc", "unit": "q", "rating": 2, "near": ["a1"]},
                ],
            },
            "allocation": {
                "combats": {"A": ["d1", "dpc", "dfo"], "B": ["d2"]},
                "attack": {"A": ["a1", "apc"], "B": ["a2"]},
            },
        }
    )
    assert check(battle) == []
    allocation = battle.allocation
    assert allocation is not None and allocation.combats and allocation.attack
    combats = round_odds(battle, allocation.combats, allocation.attack, {})
    in_combat = {s for c in combats for s in (*c.defenders, *c.attackers)}
    assert {"dpc", "dfo", "apc"} <= in_combat  # leaders and an FO are lost with their combat
    # every combat's winner on its own: the chances multiply, the losers' stands add up
    expected: Counter[tuple[int, int]] = Counter()
    for winners in product(("attacker", "defender"), repeat=len(combats)):
        chance = prod(
            c.p_attacker_wins if w == "attacker" else 1 - c.p_attacker_wins
            for c, w in zip(combats, winners, strict=True)
        )
        lost = (
            sum(len(c.defenders) for c, w in zip(combats, winners, strict=True) if w == "attacker"),
            sum(len(c.attackers) for c, w in zip(combats, winners, strict=True) if w == "defender"),
        )
        expected[lost] += chance
    assert 0 < combats[0].p_attacker_wins < 1 and 0 < combats[1].p_attacker_wins < 1
    assert round_outcome(combats).outcomes == dict(expected)


def test_7b_the_fight_ends_with_no_defender_or_no_attacking_squad_cc_or_bc_left() -> None:
    battle = battle_from_data(
        {
            "defender": {
                "units": DEFENDER_UNITS,
                "stands": [
                    {"id": "d1", "type": "rifle", "unit": "p"},
                    {"id": "d2", "type": "rifle", "unit": "p"},
                    {"id": "dpc", "type": "pc", "unit": "p"},
                ],
            },
            "attacker": {
                "units": ATTACKER_UNITS,
                "stands": [
                    {"id": "a1", "type": "rifle", "unit": "q"},
                    {"id": "a2", "type": "rifle", "unit": "q"},
                    {"id": "apc", "type": "pc", "unit": "q"},
                    {"id": "acc", "type": "cc", "unit": "acoy"},
                    {"id": "hmg", "type": "hmg", "unit": "acoy"},
                    {"id": "fo", "type": "fo", "unit": "acoy"},
                ],
            },
        }
    )
    # what keeps the attacker's fight going: a squad, or a CC or BC (not a PC, weapon or FO)
    fighters = {"a1", "a2", "acc"}
    classes = Classes.of(battle)
    space = Space(classes)
    seen = set()
    for defenders in subsets(battle.defender.ids()):
        for attackers in subsets(battle.attacker.ids()):
            plain = winner(battle, {"defender": defenders, "attacker": attackers})
            state = space.index(
                classes.counts("defender", defenders), classes.counts("attacker", attackers)
            )
            assert space.winner(state) == plain, (defenders, attackers)
            if not defenders:  # a lone PC left keeps the building too
                assert plain == "attacker", (defenders, attackers)
            else:
                assert plain == (None if fighters & set(attackers) else "defender"), attackers
            seen.add(plain)
    assert seen == {"attacker", "defender", None}
