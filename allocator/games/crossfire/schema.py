"""The scenario file's schema: pydantic models, the single source of the JSON Schema.

A scenario is a building, the two forces and, optionally, a proposed allocation.

>>> s = Scenario.model_validate({
...     "building": {"name": "Barn"},
...     "defender": {"units": [{"id": "p", "kind": "platoon"}],
...                  "stands": [{"id": "d1", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}],
...                  "stands": [{"id": "a1", "type": "rifle", "unit": "q"}]},
... })
>>> s.building.capacity
2
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
)
from pydantic import Strict as PydanticStrict

from allocator.core.exact import Exact
from allocator.games.crossfire.objectives import Objective

Id = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.\-]+$")]
Name = Annotated[str, StringConstraints(max_length=200)]
Text = Annotated[str, StringConstraints(max_length=5000)]

#: The most characters of a stand's label: what a counter shows on one line without wrapping.
LABEL_LENGTH = 8


def _one_line(value: str) -> str:
    if not value.isprintable():
        raise ValueError("a label is one line of printable characters: no tab, newline or control")
    return value


#: A stand's short label on its counter ("1/2 Sqd"): one line of at most LABEL_LENGTH characters.
Label = Annotated[
    str, StringConstraints(min_length=1, max_length=LABEL_LENGTH), AfterValidator(_one_line)
]


def _not_true_or_false(value: object) -> object:
    if isinstance(value, bool):
        raise ValueError("a number is needed here, not true or false")
    return value


#: A number, a whole number or a true/false as written: never `true` read as 1, nor "yes" as
#: true. A number may be written as YAML 1.1 reads only as text (`1e3`).
Real = Annotated[float, BeforeValidator(_not_true_or_false)]
Whole = Annotated[int, PydanticStrict()]
YesNo = Annotated[bool, PydanticStrict()]

#: A coordinate on the table, in the scenario's stand widths (a table is a few hundred wide).
#: (Its bounds come before the validator, so that the JSON Schema writes them as bounds.)
Coordinate = Annotated[
    float, Field(ge=-1e6, le=1e6, allow_inf_nan=False), BeforeValidator(_not_true_or_false)
]
Position = tuple[Coordinate, Coordinate]


def is_none(value: object) -> bool:
    """``exclude_if`` of an optional part: the JSON leaves it out while it is None."""
    return value is None


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StandType(StrEnum):
    rifle = "rifle"
    smg = "smg"
    engineer = "engineer"
    jhmg = "jhmg"
    hmg = "hmg"
    mortar = "mortar"
    gun = "gun"
    pc = "pc"
    cc = "cc"
    bc = "bc"
    commissar = "commissar"
    fo = "fo"
    sniper = "sniper"


class UnitKind(StrEnum):
    battalion = "battalion"
    company = "company"
    support = "support"
    hq = "hq"
    platoon = "platoon"
    attached = "attached"


class Quality(StrEnum):
    green = "green"
    regular = "regular"
    veteran = "veteran"


class Unit(Strict):
    """A node of the organisation tree."""

    id: Id
    kind: UnitKind
    name: Name | None = Field(
        default=None, description='The unit\'s readable name, e.g. "1st Platoon" (default: its id).'
    )
    units: list[Unit] = Field(default_factory=list, description="The units under this one.")


#: The least and the most a leader's command rating may be (L1-L3; most leaders +0..+2, a
#: Commissar +2): the one home of these bounds, which the rules, the model and the page use.
RATINGS = (0, 3)


class Stand(Strict):
    """One stand (a counter or base on the table)."""

    id: Id
    type: StandType
    unit: Id = Field(
        description="The unit the stand belongs to; a leader's is the unit he commands."
    )
    name: Name | None = Field(
        default=None,
        description='The stand\'s readable name, e.g. "1st Platoon, 2nd Squad" (default: its id).',
    )
    label: Label | None = Field(
        default=None,
        description=f"A short label for its counter, at most {LABEL_LENGTH} characters on one "
        'line, e.g. "1/2 Sqd" (default: its id).',
    )
    rating: Whole | None = Field(
        default=None,
        ge=RATINGS[0],
        le=RATINGS[1],
        description=f"A leader's command rating, {RATINGS[0]} to {RATINGS[1]} (most leaders "
        "+0..+2, a Commissar +2).",
    )
    quality: Quality = Quality.regular
    suppressed: YesNo = False
    position: Position | None = Field(
        default=None,
        description="Where the stand's centre is on the table (x, y), in the scenario's "
        "`stand_width` units; attackers with positions are near each other when close enough.",
    )
    near: list[Id] = Field(
        default_factory=list,
        description="Attacking stands within one stand width of this one (attacker leaders).",
    )


class PresentStand(Strict):
    """A stand taken from an organisation file, with the fields that differ at this table."""

    id: Id
    name: Name | None = None
    label: Label | None = None
    rating: Whole | None = Field(default=None, ge=RATINGS[0], le=RATINGS[1])
    quality: Quality | None = None
    suppressed: YesNo | None = None
    near: list[Id] | None = None
    position: Position | None = None


class Force(Strict):
    """One side: either its own org tree and stands, or an organisation from models/orgs/."""

    organisation: Name | None = Field(
        default=None,
        description="Name of a shipped organisation (`cfalloc` lists them; models/orgs/), never a "
        "path.",
    )
    present: list[Id | PresentStand] = Field(
        default_factory=list,
        description="With `organisation`: the stands of that organisation that take part.",
    )
    units: list[Unit] = Field(default_factory=list, description="The organisation tree.")
    stands: list[Stand] = Field(default_factory=list, description="The stands taking part.")
    available: list[Id] | None = Field(
        default=None,
        exclude_if=is_none,
        description="For `cfalloc plan`: the stands of this side it may choose from (default: "
        "all of them). Every other command fights with all the side's stands.",
    )


class Building(Strict):
    name: Name = "Building"
    capacity: Whole = Field(
        default=2, ge=1, le=100, description="Squads and crew-served weapons it holds (B1, B2)."
    )


class Allocation(Strict):
    """Any leading part of the procedure's choices."""

    combats: dict[Id, list[Id]] | None = Field(
        default=None,
        exclude_if=is_none,
        description="Steps 1-3: the defender's named combats and their stands.",
    )
    attack: dict[Id, list[Id]] | None = Field(
        default=None,
        exclude_if=is_none,
        description="Steps 4-5: the attacking stands sent against each combat.",
    )
    reallocate: dict[Id, Id] | None = Field(
        default=None,
        exclude_if=is_none,
        description="Step 6: defending stand -> the combat it moves to.",
    )


class Expect(Strict):
    """What a worked scenario demonstrates; the test suite holds the tool to it."""

    legal: YesNo
    rules: list[str] = Field(default_factory=list, description="Rule ids the check must report.")
    stands: dict[str, list[Id]] = Field(
        default_factory=dict,
        description="For a rule of `rules`: every stand its violations name, together.",
    )
    totals: dict[Id, tuple[int, int]] = Field(
        default_factory=dict,
        description="For a complete legal allocation: each combat's (attacker, defender) totals.",
    )
    solve: dict[Objective, Exact] = Field(
        default_factory=dict,
        description="For a scenario without an allocation: the exact value of `cfalloc solve` "
        "for each objective named.",
    )


class RulesetOverride(Strict):
    """A house rule: a base profile and the values that differ from it."""

    base: Name = "crossfire"
    overrides: dict[Annotated[str, StringConstraints(max_length=64)], int | bool | str] = Field(
        default_factory=dict
    )


class Scenario(Strict):
    """A close combat in one building (or one sector of a complex)."""

    title: Name | None = None
    description: Text | None = None
    ruleset: Name | RulesetOverride = Field(
        default="crossfire",
        description="A shipped profile's name, a path (relative to this file) to a profile of "
        "your own, or a base with overrides.",
    )
    round: Whole = Field(
        default=1, ge=1, le=1000, description="Round of the fight (7b); later rounds differ."
    )
    surprise: YesNo = Field(
        default=False, description="Hidden defenders who have not fired surprise the attacker."
    )
    stand_width: Real = Field(
        default=1.0,
        gt=0,
        le=1e6,
        allow_inf_nan=False,
        description="One stand width, in the units of the stands' positions.",
    )
    building: Building = Field(default_factory=Building)
    defender: Force
    attacker: Force
    allocation: Allocation | None = None
    expect: Expect | None = None


SideName = Literal["defender", "attacker"]


class Organisation(Strict):
    """An entry of the organisation library (models/orgs/): a unit tree with all its stands."""

    name: Name = Field(description="The name a scenario gives as `organisation:` (the file's).")
    title: Name = Field(
        description='The organisation\'s display name, e.g. "German rifle company, 1944".'
    )
    description: Text = ""
    nation: Name | None = None
    sources: list[Text] = Field(
        min_length=1,
        description="Where its structure comes from: the tables of organisation it follows.",
    )
    typical: YesNo = Field(
        default=False,
        description="True when the company's own shape (its platoons, squads and weapons) is "
        "not all from a cited table of organisation but typical of the nation and period: "
        "check it against your scenario.",
    )
    units: list[Unit]
    stands: list[Stand]
