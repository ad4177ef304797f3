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
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Id = Annotated[str, StringConstraints(min_length=1, pattern=r"^[A-Za-z0-9_.\-]+$")]


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
    name: str | None = None
    units: list[Unit] = Field(default_factory=list, description="The units under this one.")


class Stand(Strict):
    """One stand (a counter or base on the table)."""

    id: Id
    type: StandType
    unit: Id = Field(
        description="The unit the stand belongs to; a leader's is the unit he commands."
    )
    rating: int | None = Field(
        default=None, ge=0, le=3, description="A leader's command rating (+0..+2, Commissar +2)."
    )
    quality: Quality = Quality.regular
    suppressed: bool = False
    position: tuple[float, float] | None = Field(
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
    rating: int | None = Field(default=None, ge=0, le=3)
    quality: Quality | None = None
    suppressed: bool | None = None
    near: list[Id] | None = None
    position: tuple[float, float] | None = None


class Force(Strict):
    """One side: either its own org tree and stands, or an organisation from models/orgs/."""

    organisation: str | None = Field(
        default=None, description="Name of an organisation in models/orgs/ (without .yaml)."
    )
    present: list[Id | PresentStand] = Field(
        default_factory=list,
        description="With `organisation`: the stands of that organisation that take part.",
    )
    units: list[Unit] = Field(default_factory=list, description="The organisation tree.")
    stands: list[Stand] = Field(default_factory=list, description="The stands taking part.")


class Building(Strict):
    name: str = "Building"
    capacity: int = Field(
        default=2, ge=1, description="Squads and crew-served weapons it holds (B1, B2)."
    )


class Allocation(Strict):
    """Any leading part of the procedure's choices."""

    combats: dict[Id, list[Id]] | None = Field(
        default=None, description="Steps 1-3: the defender's named combats and their stands."
    )
    attack: dict[Id, list[Id]] | None = Field(
        default=None, description="Steps 4-5: the attacking stands sent against each combat."
    )
    reallocate: dict[Id, Id] | None = Field(
        default=None, description="Step 6: defending stand -> the combat it moves to."
    )


class Expect(Strict):
    """What a worked scenario demonstrates; the test suite holds the tool to it."""

    legal: bool
    rules: list[str] = Field(default_factory=list, description="Rule ids the check must report.")


class RulesetOverride(Strict):
    """A house rule: a base profile and the values that differ from it."""

    base: str = "crossfire"
    overrides: dict[str, Any] = Field(default_factory=dict)


class Scenario(Strict):
    """A close combat in one building (or one sector of a complex)."""

    title: str | None = None
    description: str | None = None
    ruleset: str | RulesetOverride = Field(
        default="crossfire", description="A profile name, a path, or a base with overrides."
    )
    round: int = Field(default=1, ge=1, description="Round of the fight (7b); later rounds differ.")
    surprise: bool = Field(
        default=False, description="Hidden defenders who have not fired surprise the attacker."
    )
    stand_width: float = Field(
        default=1.0, gt=0, description="One stand width, in the units of the stands' positions."
    )
    building: Building = Field(default_factory=Building)
    defender: Force
    attacker: Force
    allocation: Allocation | None = None
    expect: Expect | None = None


SideName = Literal["defender", "attacker"]


class Organisation(Strict):
    """An entry of the organisation library (models/orgs/): a unit tree with all its stands."""

    name: str
    description: str = ""
    nation: str | None = None
    units: list[Unit]
    stands: list[Stand]
