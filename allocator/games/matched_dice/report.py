"""Readable reports of the matched-dice answers: the dice, the casualties, how the chain ends.

>>> from allocator.games.matched_dice.assault import MatchedDiceEngagement, MatchedDiceResolver
>>> details = MatchedDiceResolver().resolve(MatchedDiceEngagement(attacker=4, defender=2)).details
>>> print(dice_sentence(details))
The attacker rolls 3d6 for its 4 unwounded SP, the defender 2d6 for its 2; equal dice cancel.
"""

from __future__ import annotations

from rich.console import RenderableType

from allocator.core.resolution import MatchedDiceDetails
from allocator.core.text import percent, titled_table
from allocator.games.matched_dice.assault import OUTCOME_WORDS


def dice_sentence(details: MatchedDiceDetails) -> str:
    ties = "equal dice cancel" if details.ties == "cancel" else "equal dice go to the defender"
    return (
        f"The attacker rolls {details.attacker_dice}d6 for its {details.attacker_sps} unwounded"
        f" SP, the defender {details.defender_dice}d6 for its {details.defender_sps}; {ties}."
    )


def matched_dice_report(details: MatchedDiceDetails) -> list[RenderableType]:
    """The dice, the casualties of one roll, and the ends of the chain of rounds."""
    lost = ("attacker loses", "defender loses", "chance")
    roll = titled_table("Casualties of the first roll", lost, right=lost)
    for row in details.casualties:
        roll.add_row(str(row.attacker_losses), str(row.defender_losses), percent(row.chance.exact))
    parts: list[RenderableType] = [dice_sentence(details), roll]
    if details.rounds is not None:
        left = ("attacker SPs left", "defender SPs left", "chance")
        ends = titled_table(f"How it ends within {details.rounds} rounds", ("end", *left), left)
        for end in details.ends:
            ends.add_row(
                OUTCOME_WORDS[end.end],
                str(end.attacker_sps),
                str(end.defender_sps),
                percent(end.chance.exact),
            )
        parts.append(ends)
    return parts
