"""The Infinity answer as a page shows it: the command line's report as tables of text, the bars
of a chart and the measures that saved results are compared by, all in players' words.

A page draws these as they are: every word and every rounded number is made here, from the
same report the command line prints, so that nothing of the rules (which outcome is whose,
what a state is called, how a chance is rounded) is written again in the page.

>>> from allocator.games.infinity.calculator import close_combat
>>> shown = infinity_view(close_combat({"attribute": 12}, {"attribute": 12}))
>>> shown.title, [group.title for group in shown.chart]
('Infinity close combat: Face to Face roll', ['Who wins', 'Hits that get through'])
>>> [(bar.side, bar.percent) for bar in shown.chart[0].bars]
[('active', '40.5%'), ('reactive', '40.5%'), (None, '19.0%')]
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from allocator.core.exact import ExactValue, fraction_text
from allocator.core.report import Note, Table
from allocator.core.resolution import Resolution
from allocator.core.text import percent
from allocator.games.infinity.details import InfinityDetails, Side, TrooperOutcome
from allocator.games.infinity.report import infinity_report, state_words, vita_word
from allocator.games.infinity.rolls import OUTCOME_WORDS

__all__ = ["ChartBar", "ChartGroup", "InfinityView", "Measure", "ViewTable", "infinity_view"]

#: Whose result each outcome is (none: neither side's, or both sides').
OUTCOME_SIDES: dict[str, Side | None] = {
    "active_wins": "active",
    "reactive_wins": "reactive",
    "neither": None,
    "only_active_succeeds": "active",
    "only_reactive_succeeds": "reactive",
    "both_succeed": None,
    "neither_succeeds": None,
}


class _View(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ViewTable(_View):
    """One table of the report, every cell a text as the command line prints it."""

    title: str
    columns: list[str]
    right: list[str] = Field(description="The columns of numbers (set right).")
    rows: list[list[str]]
    caption: str | None = None


class ChartBar(_View):
    """One bar: whose result it is, what it is, its chance and that chance as a percentage."""

    side: Side | None = Field(description="The trooper it is about; none: neither, or both.")
    label: str
    chance: ExactValue
    percent: str = Field(description="The chance rounded as the command line rounds it.")


class ChartGroup(_View):
    """A titled group of bars (who wins, the hits, the wounds, the states, the orders)."""

    title: str
    bars: list[ChartBar]


class Measure(_View):
    """One number saved results are compared by: a chance, or wounds on average."""

    key: str = Field(description="The same for the same measure of any result.")
    label: str
    kind: Literal["chance", "mean"]
    value: ExactValue | None = Field(description="None: no bound (Continuous Damage).")
    text: str = Field(description="The value as the command line writes it.")


class InfinityView(_View):
    """What a page shows of one close combat, beside the answer's numbers."""

    title: str = Field(description="Says the roll made: Face to Face, Normal, ...")
    rolls: str = Field(description="Both rolls in one sentence: SV, Burst, special dice.")
    tables: list[ViewTable] = Field(
        description="The outcomes, the modifiers applied, the hits, the wounds and each "
        "trooper's states and orders, as `cfalloc resolve infinity` prints them."
    )
    notes: list[str] = Field(description="What is not allowed, and the report's notes.")
    chart: list[ChartGroup]
    summary: list[Measure]


def _table(part: Table) -> ViewTable:
    def text(cell: str | bool) -> str:
        return ("yes" if cell else "no") if isinstance(cell, bool) else cell

    return ViewTable(
        title=part.title,
        columns=list(part.columns),
        right=list(part.right),
        rows=[[text(cell) for cell in row] for row in part.rows],
        caption=part.caption,
    )


def _bar(side: Side | None, label: str, chance: Fraction) -> ChartBar:
    return ChartBar(side=side, label=label, chance=ExactValue.of(chance), percent=percent(chance))


def _who(trooper: TrooperOutcome) -> str:
    return f"the {trooper.side} trooper" + (f" ({trooper.name})" if trooper.name else "")


def _chart(details: InfinityDetails, outcomes: dict[str, Fraction]) -> list[ChartGroup]:
    who_wins = "Who succeeds" if details.roll == "normal_rolls" else "Who wins"
    wins = [_bar(OUTCOME_SIDES[name], OUTCOME_WORDS[name], p) for name, p in outcomes.items()]
    groups = [ChartGroup(title=who_wins, bars=wins)]
    hits: dict[tuple[Side, int], Fraction] = defaultdict(Fraction)
    for kept in details.surviving_hits:
        hits[kept.winner, kept.successes] += kept.chance.exact
    if hits:
        bars = [
            _bar(side, f"the {side} trooper: {count} hit{'s' if count > 1 else ''}", chance)
            for (side, count), chance in sorted(hits.items())
        ]
        groups.append(ChartGroup(title="Hits that get through", bars=bars))
    wounds = [
        _bar(
            wounded.target,
            f"the {wounded.target} trooper: at least {count.wounds}"
            f" wound{'s' if count.wounds > 1 else ''}",
            count.at_least.exact,
        )
        for wounded in details.wounds
        for count in wounded.counts
        if count.wounds > 0
    ]
    if wounds:
        groups.append(ChartGroup(title="Wounds", bars=wounds))
    if details.troopers:
        states = [
            _bar(
                trooper.side,
                f"{_who(trooper)}: "
                + state_words(row, vita_word(details, trooper), trooper.fights_on),
                row.chance.exact,
            )
            for trooper in details.troopers
            for row in trooper.states
        ]
        groups.append(ChartGroup(title="After the roll", bars=states))
        orders = [
            _bar(
                trooper.side,
                f"{_who(trooper)}: within {within.orders} order{'s' if within.orders > 1 else ''}",
                within.out_of_the_fight.exact,
            )
            for trooper in details.troopers
            for within in trooper.orders
        ]
        groups.append(ChartGroup(title="Out of the fight within 1, 2, ... orders", bars=orders))
    return groups


def _chance(key: str, label: str, chance: Fraction) -> Measure:
    return Measure(
        key=key, label=label, kind="chance", value=ExactValue.of(chance), text=percent(chance)
    )


def _summary(details: InfinityDetails, outcomes: dict[str, Fraction]) -> list[Measure]:
    found = [_chance(name, OUTCOME_WORDS[name], p) for name, p in outcomes.items()]
    for wounded in details.wounds:
        mean = wounded.expected
        found.append(
            Measure(
                key=f"{wounded.target}.wounds",
                label=f"wounds on the {wounded.target} trooper, on average",
                kind="mean",
                value=mean,
                text="no bound" if mean is None else f"{float(mean.exact):.2f}",
            )
        )
    for trooper in details.troopers:
        side, first, last = trooper.side, trooper.orders[0], trooper.orders[-1]
        found += [
            _chance(f"{side}.wounded", f"the {side} trooper: wounded", first.wounded.exact),
            _chance(
                f"{side}.out_of_the_fight",
                f"the {side} trooper: out of the fight",
                first.out_of_the_fight.exact,
            ),
            _chance(f"{side}.dead", f"the {side} trooper: Dead", first.dead.exact),
            _chance(
                f"{side}.out_within_{last.orders}",
                f"the {side} trooper: out of the fight within {last.orders} orders",
                last.out_of_the_fight.exact,
            ),
        ]
    return found


def infinity_view(resolution: Resolution) -> InfinityView:
    """What a page shows of ``resolution`` (a close combat of :mod:`.calculator`).

    Parameters
    ----------
    resolution : Resolution
        A resolution whose details are an :class:`~.details.InfinityDetails`.

    Returns
    -------
    InfinityView
        The report's title, the rolls in one sentence, its tables (the outcomes first) and
        notes, the chart's bars and the measures to compare results by.
    """
    details = resolution.details_of(InfinityDetails)
    report = infinity_report(resolution)
    outcomes = resolution.distribution
    tables = [
        ViewTable(
            title="Outcomes",
            columns=["outcome", "chance", "exact"],
            right=["chance", "exact"],
            rows=[
                [report.outcomes.get(name, name), percent(p), fraction_text(p)]
                for name, p in outcomes.items()
            ],
        )
    ]
    tables += [_table(part) for part in report.parts if isinstance(part, Table)]
    sentences = [part for part in report.parts if isinstance(part, str)]
    notes = [f"{v.rule}: {v.message}" for v in resolution.violations]
    notes += [part.text for part in report.parts if isinstance(part, Note)]
    return InfinityView(
        title=report.title,
        rolls=" ".join(sentences),
        tables=tables,
        notes=notes,
        chart=_chart(details, outcomes),
        summary=_summary(details, outcomes),
    )
