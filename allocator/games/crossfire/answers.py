"""The typed contract of every Crossfire JSON answer: what ``--json`` prints and the web returns.

Each answer is a pydantic model; ``cfalloc ... --json`` prints :meth:`Answer.to_json` and the web
API uses the class as its ``response_model``, so ``/openapi.json`` documents every field. Exact
numbers are ``"p/q"`` texts (:data:`~allocator.core.exact.Exact`) beside their float values.

>>> from fractions import Fraction
>>> CombatAnswer.model_fields["p_attacker_wins_exact"].annotation is not None
True
>>> ExactValue.of(Fraction(13, 16)).model_dump(mode="json")
{'value': 0.8125, 'exact': '13/16'}
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer

from allocator.core.exact import Exact, ExactValue
from allocator.core.violations import Violation
from allocator.games.crossfire.objectives import Objective
from allocator.games.crossfire.schema import Allocation, Scenario, is_none

Side = Literal["attacker", "defender"]


class Answer(BaseModel):
    """Base of the answers. A field declared with ``exclude_if=is_none`` is left out while None,
    and so are the parts of an allocation that are not given: the same in ``--json`` and in the
    web's answers, which FastAPI serializes from the same model."""

    model_config = ConfigDict(extra="forbid")

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON-ready data (the same for the command line and the web)."""
        data: dict[str, Any] = self.model_dump(mode="json")
        return data


class CombatAnswer(Answer):
    """One combat of a round: who fights, both totals and their parts, the odds."""

    name: str
    defenders: list[str]
    attackers: list[str]
    attacker_total: int
    defender_total: int
    attacker_parts: list[tuple[str, int]] = Field(
        description="What makes up the attacker's total: (what, value) pairs."
    )
    defender_parts: list[tuple[str, int]]
    p_attacker_wins: float
    p_attacker_wins_exact: Exact
    decided: str | None = Field(
        default=None,
        exclude_if=is_none,
        description="Why the combat needs no roll (a side that cannot fight).",
    )


class OutcomeAnswer(Answer):
    """One outcome of a round: how many stands each side loses, and its probability."""

    defender_losses: int
    attacker_losses: int
    p: float
    p_exact: Exact


class RoundAnswer(Answer):
    """A complete round: every combat's odds, the outcomes, and both one-round objectives."""

    combats: list[CombatAnswer]
    outcomes: list[OutcomeAnswer]
    sweep: ExactValue
    exchange: ExactValue


class CheckAnswer(Answer):
    """What ``cfalloc check --json`` prints and ``POST /api/check`` returns."""

    legal: bool
    violations: list[Violation]
    nearest_legal: Allocation | None = Field(
        default=None,
        description="For a broken allocation: the legal one that moves the fewest stands.",
    )
    completion: Allocation | None = Field(
        default=None,
        exclude_if=is_none,
        description="For a legal leading part of the allocation: one legal way to finish it, "
        "found by the CP-SAT model (the proof that it can still be completed).",
    )
    odds: RoundAnswer | None = Field(
        default=None,
        exclude_if=is_none,
        description="Every combat's totals and odds, for a complete legal allocation.",
    )
    cut_short: str | None = Field(
        default=None,
        exclude_if=is_none,
        description="What the time limit cut short: the nearest legal allocation or the "
        "completion, when it was not found in time (the rules broken are all listed).",
    )
    still_to_place: list[str] = Field(
        default_factory=list,
        description="The stands the allocation given must still place, as far as it goes: "
        "defending stands in no combat (1c); then attacking squads sent nowhere (4e; leaders "
        "may stay out, crew-served weapons, FOs and snipers do not assault, 4d); then stands of "
        "unopposed combats that do not move yet (6a).",
    )
    warnings: list[str] = Field(default_factory=list)


class LineAnswer(Answer):
    """A line of play (the whole allocation) and its value."""

    value: float
    value_exact: Exact
    allocation: Allocation


class FightOutcome(Answer):
    """One way the whole fight can end: the stands left on each side, and its probability."""

    attacker_left: int
    defender_left: int
    p: Exact


class FightAnswer(Answer):
    """The whole fight (objective ``take``) under both sides' optimal play.

    When the time limit stopped the search, only ``bounds``, ``states`` and ``one_round`` are
    known: the rest is left out."""

    p_attacker_takes: Exact | None = Field(default=None, exclude_if=is_none)
    p_defender_holds: Exact | None = Field(default=None, exclude_if=is_none)
    expected_rounds: float | None = Field(default=None, exclude_if=is_none)
    expected_stands_lost: dict[Side, float] | None = Field(default=None, exclude_if=is_none)
    outcomes: list[FightOutcome] | None = Field(default=None, exclude_if=is_none)
    states: int = Field(description="How many states of the fight (survivors) were searched.")
    bounds: tuple[Exact, Exact] | None = Field(
        default=None,
        description="When the time limit stopped the search: the optimum lies between these.",
    )
    one_round: ExactValue | None = Field(
        default=None,
        description="What the one-round optimum (sweep) line would be worth over the whole fight.",
    )


class SolveAnswer(Answer):
    """What ``cfalloc solve --json`` prints and ``POST /api/solve`` returns."""

    status: Literal["optimal", "feasible"]
    side: Side
    objective: Objective
    value: float
    value_exact: Exact
    allocation: Allocation
    combats: list[CombatAnswer]
    alternatives: int
    alternatives_complete: bool
    runner_up: LineAnswer | None
    why: str
    warnings: list[str]
    note: str | None = Field(
        description="Why the answer is not proven optimal (the time limit), or None."
    )
    fight: FightAnswer | None = Field(default=None, exclude_if=is_none)


class ExplainStep(Answer):
    """One step of the walkthrough: what it asks, what was chosen, and whether it was followed."""

    step: int
    title: str
    rules: list[str]
    text: list[str]
    status: Literal["followed", "optimal", "best found", "broken", "not given", "not reached"]
    violations: list[Violation]
    odds: RoundAnswer | None = Field(default=None, exclude_if=is_none)
    stands: list[str] = Field(
        default_factory=list,
        description="The stands this step places or moves (a picture of the step lights them).",
    )


class ExplainAnswer(Answer):
    """What ``cfalloc explain --json`` prints and ``POST /api/explain`` returns."""

    title: str
    mode: Literal["check", "optimal", "best found"] = Field(
        description="check: the file's allocation; optimal: the proven best line of play; "
        "best found: the best line the time limit allowed, not proven optimal."
    )
    objective: Objective | None = Field(default=None, exclude_if=is_none)
    steps: list[ExplainStep]
    warnings: list[str] = Field(default_factory=list)
    fight: FightAnswer | None = Field(default=None, exclude_if=is_none)


class Roll(Answer):
    """One roll of a combat: each side's die (the best die of a pool) and the score compared."""

    attacker: int
    defender: int
    attacker_score: int
    defender_score: int


class RolledCombat(Answer):
    name: str
    attackers: list[str]
    defenders: list[str]
    attacker_total: int
    defender_total: int
    attacker_parts: list[tuple[str, int]]
    defender_parts: list[tuple[str, int]]
    rolls: list[Roll]
    winner: Side
    note: str | None = Field(default=None, exclude_if=is_none)


class PlayedRound(Answer):
    round: int
    allocation: Allocation
    combats: list[RolledCombat]
    removed: dict[Side, list[str]]


class TableRoll(Answer):
    """One roll at the table, as the dice fell: each side's die (one die each), or each die of
    its pool (one die per fighting stand, as the profile's ``dice_mode`` says)."""

    attacker: list[int]
    defender: list[int]


def _as_written(scenario: Scenario) -> dict[str, Any]:
    """A scenario as its file holds it: the parts given, nothing filled in."""
    written: dict[str, Any] = scenario.model_dump(mode="json", exclude_unset=True)
    return written


#: A scenario in an answer: the data of a scenario file (``scenario.schema.json``).
ScenarioData = Annotated[Scenario, PlainSerializer(_as_written, return_type=dict[str, Any])]


class PlayAnswer(Answer):
    """What ``cfalloc play --json`` prints and ``POST /api/play`` returns: one round played with
    the dice rolled at the table (or on the page), and the next round's scenario."""

    round: int = Field(description="The round played (the scenario's `round`).")
    seed: int | None = Field(
        default=None,
        exclude_if=is_none,
        description="When the dice were rolled here rather than at the table: their seed.",
    )
    combats: list[RolledCombat] = Field(
        description="Each combat: who fought, the totals, the rolls scored, the winner."
    )
    dice: dict[str, list[TableRoll]] = Field(
        description="The dice applied to each combat that was rolled, as they fell (a tie "
        "re-rolled is a second roll); a combat decided without a roll has none."
    )
    removed: dict[Side, list[str]] = Field(description="The stands each side lost (7a).")
    left: dict[Side, list[str]] = Field(description="The stands each side has left.")
    over: bool = Field(description="Whether the fight is over (7b).")
    winner: Side | None = Field(
        description="Who holds the building when the fight is over: the attacker took it, or "
        "the defender held it (None while it goes on)."
    )
    result: str = Field(description="What happened, in words.")
    next_scenario: ScenarioData | None = Field(
        default=None,
        exclude_if=is_none,
        description="While the fight goes on: the next round's scenario (the survivors, from "
        "step 1), as a scenario file holds it.",
    )
    fight: FightAnswer | None = Field(
        default=None,
        exclude_if=is_none,
        description="While the fight goes on: the whole fight from the next round on, both "
        "sides at their best (objective `take`); left out when the time limit allowed no "
        "answer.",
    )


#: The warnings of a fight played by the dice: those a solve of its scenario gives.
PlayedWarnings = Annotated[
    list[str],
    Field(
        default_factory=list,
        description="What `cfalloc solve` warns of for this scenario (a building that breaks "
        "B1 or B2, played as given; a leader who can join no combat).",
    ),
]


class SimulateAnswer(Answer):
    """What ``cfalloc simulate --json`` prints and ``POST /api/simulate`` returns."""

    seed: int
    rounds: list[PlayedRound]
    left: dict[Side, list[str]]
    winner: Side | None
    warnings: PlayedWarnings


class TrialCombat(Answer):
    name: str
    attacker_win_rate: float
    p_attacker_wins: float
    p_attacker_wins_exact: Exact


class TrialsAnswer(Answer):
    """What ``cfalloc simulate --trials K --json`` prints."""

    trials: int = Field(description="The trials played (fewer than asked if the time ran out).")
    asked: int = Field(description="The trials asked for (--trials).")
    seed: int
    objective: Objective
    rounds: int | None = Field(description="The most rounds a fight was played (--rounds).")
    file_allocation: bool = Field(
        description="Round 1 was played as the file's allocation (else as the best line); "
        "later rounds are always both sides' best line."
    )
    combats: list[TrialCombat]
    sweep_rate: float
    p_sweep: float
    p_sweep_exact: Exact
    take_rate: float | None = Field(
        default=None,
        exclude_if=is_none,
        description="With `take`: the share of the fights the attacker took.",
    )
    p_take: float | None = Field(default=None, exclude_if=is_none)
    p_take_exact: Exact | None = Field(
        default=None,
        exclude_if=is_none,
        description="With `take`: the exact chance of taking the building, round 1 played as "
        "the trials played it (absent when the time limit stopped the whole fight's search).",
    )
    note: str | None = Field(
        default=None,
        exclude_if=is_none,
        description="When the time limit ended the trials, or stopped a search of the lines "
        "they played (then the best found, not proven optimal).",
    )
    warnings: PlayedWarnings


class PlanPoint(Answer):
    """One choice of stands of a plan: the squads in it, the attacker's P(take), the stands."""

    squads: int = Field(description="The squads chosen (leaders, weapons, FOs and snipers too).")
    value: float
    value_exact: Exact = Field(description="The attacker's chance of taking the building.")
    stands: list[str] = Field(description="The stands committed (attacker) or garrisoned.")
    against: list[str] = Field(
        description="The other side's stands: the defenders (attacker's plan), or the "
        "attacker's best commitment against this garrison (defender's plan)."
    )


class PlanDip(Answer):
    """A step of the curve against the planning side: one more squad, a worse best value."""

    squads: int
    value: float
    value_exact: Exact
    previous: float = Field(description="The best value with one squad fewer.")
    previous_exact: Exact


class PlanAnswer(Answer):
    """What ``cfalloc plan --json`` prints: the curve of the best choice by squads, the best
    choice and, with a target, the fewest stands that reach it. Every value is the attacker's
    chance of taking the building over the whole fight."""

    status: Literal["optimal", "feasible"]
    side: Side
    target: float | None
    target_exact: Exact | None
    rounds: int | None = Field(description="The most rounds fought (--rounds), or None: all.")
    curve: list[PlanPoint]
    best: PlanPoint
    reaching: PlanPoint | None = Field(
        description="With a target: the choice of the fewest stands that reaches it (the "
        "attacker: at least the target; the defender: at most); None without a target or "
        "when no choice reaches it."
    )
    dips: list[PlanDip] = Field(
        description="Where one more squad makes the best value worse for the planning side."
    )
    choices: int = Field(description="The distinct choices (interchangeable stands swapped).")
    valued: int = Field(description="The choices valued (fewer when the time limit stopped).")
    fights: int = Field(description="The whole fights solved to value them.")
    note: str | None = Field(
        description="Why the answer is not proven optimal (the time limit), or None."
    )
    warnings: list[str]


class CompareLine(Answer):
    """One objective's optimum under one profile: its value and the defender's best line (with
    the attacker's best answer)."""

    value: float
    value_exact: Exact = Field(description="The attacker's value, both sides at their best.")
    allocation: Allocation


class CompareProfile(Answer):
    name: str = Field(description="The profile as given (--profile).")
    ruleset: str = Field(description="The profile's own name (its base, for house rules).")
    one_round: CompareLine = Field(description="Objective sweep: the first round alone.")
    whole_fight: CompareLine = Field(description="Objective take: the whole fight.")


class CompareChange(Answer):
    """A ruleset value that is not the same in every profile."""

    key: str
    values: dict[str, int | bool | str] = Field(description="Its value in each profile.")
    source: str = Field(description="Where the first profile's value comes from.")


class CompareEffect(Answer):
    """The first profile with only one value changed to another profile's, and its values."""

    profile: str
    key: str
    before: int | bool | str
    after: int | bool | str
    one_round: float
    one_round_exact: Exact
    whole_fight: float
    whole_fight_exact: Exact


class CompareAnswer(Answer):
    """What ``cfalloc compare --json`` prints: the fight under each profile side by side."""

    status: Literal["optimal", "feasible"]
    profiles: list[CompareProfile]
    changed: list[CompareChange]
    effects: list[CompareEffect] = Field(
        description="For each value another profile changes: the first profile with that "
        "change alone (for a profile with one change only, its own values)."
    )
    summary: list[str] = Field(description="What differs and why, in words.")
    warnings: list[str] = Field(description="The solves' warnings about the fight, each once.")
    note: str | None = Field(
        description="Why the answer is not proven optimal (the time limit), or None."
    )
