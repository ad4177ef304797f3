"""Step 7, resolution: 7a (each combat rolled, the loser's stands removed) and 7b (repeat).

The numbers of a roll are the profile's (:mod:`allocator.games.crossfire.odds`); the whole fight
of 7b is searched by :mod:`allocator.games.crossfire.search.game`.

>>> [r.id for r in RULES]
['7a', '7b']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from allocator.core.violations import Violation
from allocator.games.crossfire.battle import Battle
from allocator.games.crossfire.rules.base import RESOLUTION, Rule
from allocator.games.crossfire.schema import Allocation

if TYPE_CHECKING:
    from allocator.games.crossfire.rules.base import SharedModel

DEPTH = RESOLUTION
STEPS = {7: "Step 7 - each combat is rolled"}
RULES = (
    Rule(
        "7a",
        7,
        "Each combat is resolved on its own; the losing side's stands in it are all removed, "
        "its leaders and FOs included.",
        checked=False,
    ),
    Rule(
        "7b",
        7,
        "While both sides still have stands in the building the procedure runs again from "
        "step 1 with the survivors; the attacker takes the building when no defender is left, "
        "the defender holds it when the attacker has no squad, CC or BC left.",
        checked=False,
    ),
)


def check(battle: Battle, allocation: Allocation) -> Iterator[Violation]:
    """Resolution rules: nothing for an allocation to break."""
    return iter(())


def variables(model: SharedModel) -> None:
    """Nothing to decide at resolution: the dice do."""


def constrain(model: SharedModel) -> None:
    """Nothing to constrain at resolution."""


def requirements(battle: Battle, step: int) -> list[str]:
    surprise = (
        " The attacker is surprised by hidden defenders this round." if battle.surprised() else ""
    )
    return [
        "Each combat is rolled on its own (7a): the side with the higher total wins and the "
        "loser's stands in that combat are all removed." + surprise,
        "If both sides still have stands in the building, the procedure runs again from step 1 "
        "with the survivors (7b), until one side has nothing left.",
    ]
