"""The building (step 0): B1 and B2, how many squads and weapons a building holds.

These are facts about the scenario, not choices of the allocation: they are checked whatever
the allocation (even with none), and the CP-SAT model has nothing to constrain for them.

>>> [r.id for r in RULES]
['B1', 'B2']
"""

from __future__ import annotations

from collections.abc import Iterator

from allocator.core.text import plural
from allocator.core.violations import Violation
from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.rules.base import Rule, book
from allocator.games.crossfire.schema import Allocation

STEPS = {0: "The building"}
RULES = (
    Rule(
        "B1",
        0,
        "A building holds at most `capacity` squads and crew-served weapons together; "
        "leaders, FOs and snipers do not count.",
    ),
    Rule(
        "B2",
        0,
        "Capacity is 2 unless the scenario says 1 or 3; 4 or more is not a building "
        "but a complex of sectors, each fought as its own building.",
    ),
)
_RULE = book(RULES)


#: The roles the capacity counts (B1): squads and crew-served weapons.
INSIDE = (Role.squad, Role.weapon)


def fighting_stands(battle: Battle) -> list[str]:
    """The defending squads and crew-served weapons: what counts against the capacity."""
    return [s for role in INSIDE for s in battle.defender.ids(role)]


def check(battle: Battle, allocation: Allocation | None = None) -> Iterator[Violation]:
    capacity = battle.capacity
    if capacity >= 4:
        yield _RULE["B2"].breach(
            f"A capacity of {capacity} is not a building: split it into a complex of sectors "
            "holding 2 each and fight each sector on its own.",
            [],
        )
    fighting = fighting_stands(battle)
    if len(fighting) > capacity:
        yield _RULE["B1"].breach(
            f"{battle.scenario.building.name} holds {len(fighting)} squads and crew-served weapons "
            f"but its capacity is {capacity}: leave {len(fighting) - capacity} outside.",
            fighting,
        )


def requirements(battle: Battle, step: int) -> list[str]:
    inside = len(fighting_stands(battle))
    holds = plural(battle.capacity, "squad or crew-served weapon", "squads and crew-served weapons")
    return [
        f"{battle.scenario.building.name} holds at most {holds} (B1, B2); the defender has "
        f"{inside} there. Leaders, FOs and snipers do not count."
    ]
