"""The readable answer of the matched-dice resolver: the dice, the casualties, how the chain ends.

Plain data (:mod:`allocator.core.report`): the command line draws it.

>>> from allocator.games.matched_dice.assault import MatchedDiceEngagement, MatchedDiceResolver
>>> resolution = MatchedDiceResolver().resolve(MatchedDiceEngagement(attacker=4, defender=2))
>>> print(dice_sentence(resolution.details_of(MatchedDiceDetails)))
The attacker rolls 3d6 for its 4 unwounded SP, the defender 2d6 for its 2; equal dice cancel.
>>> chain = MatchedDiceEngagement(attacker=6, defender=3, quality="veteran")
>>> print(limit_sentence(MatchedDiceResolver().resolve(chain).details_of(MatchedDiceDetails)))
A veteran attacker assaults for at most 4 rounds (the profile's attack limit): the chain ...
"""

from __future__ import annotations

from allocator.core.exact import fraction_text
from allocator.core.report import Part, Report, Table
from allocator.core.resolution import Resolution
from allocator.core.text import percent
from allocator.games.matched_dice.details import MatchedDiceDetails, StrengthPlan


def dice_sentence(details: MatchedDiceDetails) -> str:
    ties = "equal dice cancel" if details.ties == "cancel" else "equal dice go to the defender"
    return (
        f"The attacker rolls {details.attacker_dice}d6 for its {details.attacker_sps} unwounded"
        f" SP, the defender {details.defender_dice}d6 for its {details.defender_sps}; {ties}."
    )


def limit_sentence(details: MatchedDiceDetails) -> str | None:
    """What the attack limit of the attacker's quality does to the chain (none: no quality)."""
    limit = details.attack_limit
    if limit is None:
        return None
    kind = f"{'An' if limit.quality[:1] in 'aeiou' else 'A'} {limit.quality} attacker"
    if details.rounds == limit.rounds:
        sentence = (
            f"{kind} assaults for at most {limit.rounds} rounds (the profile's attack limit):"
            " the chain stops there."
        )
    else:
        sentence = (
            f"{kind} may assault for {limit.rounds} rounds (the profile's attack limit); the"
            f" chain stops after the {details.rounds} asked."
        )
    if limit.unverified:
        sentence += (
            " This limit is not verified against the rulebook: check it and pass your own with"
            " --profile FILE."
        )
    return sentence


def plan_parts(plan: StrengthPlan, rounds: int | None) -> list[Part]:
    """The answer to ``--plan``: the fewest SPs (or that none is enough) and the curve."""
    target = f"{percent(plan.target.exact)} ({fraction_text(plan.target.exact)})"
    if plan.fewest_sps is None:
        why = (
            "more SPs add no dice and are never all lost within the rounds"
            if plan.more_adds_nothing
            else "the most an assault may bring"
        )
        sentence = (
            f"A chance of {target} of winning the chain is not reached up to {plan.most_sps} SP"
            f" ({why}): below, the assault at {plan.most_sps}."
        )
    else:
        sentence = (
            f"The fewest attacking SPs that win the chain with a chance of at least {target}:"
            f" {plan.fewest_sps}."
        )
    columns = ("attacking SPs", "chance of winning", "exact")
    curve = Table(
        f"The attacker's chance of winning within {rounds} rounds, by strength",
        columns,
        [
            (
                str(point.attacker_sps),
                percent(point.chance.exact),
                fraction_text(point.chance.exact),
            )
            for point in plan.curve
        ],
        right=columns,
    )
    return [sentence, curve]


def report(resolution: Resolution) -> Report:
    """The dice, the casualties of one roll, and the ends of the chain of rounds."""
    from allocator.games.matched_dice.assault import OUTCOME_WORDS

    details = resolution.details_of(MatchedDiceDetails)
    lost = ("attacker loses", "defender loses", "chance", "exact")
    roll = Table(
        "Casualties of the first roll",
        lost,
        [
            (
                str(row.attacker_losses),
                str(row.defender_losses),
                percent(row.chance.exact),
                fraction_text(row.chance.exact),
            )
            for row in details.casualties
        ],
        right=lost,
    )
    parts: list[Part] = [] if details.plan is None else plan_parts(details.plan, details.rounds)
    parts += [dice_sentence(details), roll]
    if details.rounds is not None:
        limit = limit_sentence(details)
        if limit:
            parts.append(limit)
        left = ("SPs left", "chance", "exact")
        ends = [
            (
                OUTCOME_WORDS[end.end],
                f"{end.attacker_sps} v {end.defender_sps}",
                percent(end.chance.exact),
                fraction_text(end.chance.exact),
            )
            for end in details.ends
        ]
        title = f"How it ends within {details.rounds} rounds (SPs left: attacker v defender)"
        parts.append(Table(title, ("end", *left), ends, left))
    title = f"Matched-dice close assault: {details.attacker_sps} SP against {details.defender_sps}"
    return Report(title, OUTCOME_WORDS, parts)
