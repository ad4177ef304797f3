"""What the page needs to set up a fight and draw it: the library, the words, the board, the YAML.

The page copies no rule of the game: the organisations (grouped by nation, stands by unit), the
ruleset profiles and their switches, the stand labels, the page's stages and what each step asks,
the rules' statements, the scenario file's defaults and bounds, the server's limits, how numbers
are rounded, the capacity count, who is within one stand width of whom, the names of new combats
and the scenario file's text all come from here, built on the same functions the command line
uses. Every name in a request is a bare library
name (never a path), and every scenario goes through the same reader, validation and limits as a
file does.

>>> from fastapi.testclient import TestClient
>>> from allocator.web.app import create_app
>>> client = TestClient(create_app(), base_url="http://127.0.0.1")
>>> first = client.get("/api/organisations").json()["nations"][0]
>>> first["nation"], first["organisations"][0]["name"], first["organisations"][0]["title"]
('Britain', 'british-rifle-company-1944', 'British rifle company, 1944')
"""

from __future__ import annotations

import re
from functools import cache
from itertools import groupby
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from allocator.core.budget import Budget
from allocator.core.library import names
from allocator.core.limits import Limits
from allocator.core.reader import excerpt
from allocator.core.text import PERCENT_DIGITS, SIGNED_DIGITS, listing
from allocator.core.violations import Violation
from allocator.games.crossfire.battle import (
    COMMANDERS,
    ROLES,
    Battle,
    Role,
    battle_from_data,
    load_organisation,
)
from allocator.games.crossfire.explain import PART_OF_STEP, requirements
from allocator.games.crossfire.objectives import DEFAULT_OBJECTIVE, OBJECTIVES
from allocator.games.crossfire.profile import crossfire_profiles, shipped_profile
from allocator.games.crossfire.rules import RULES, STEP_TITLES, step_rules
from allocator.games.crossfire.rules import capacity as capacity_rules
from allocator.games.crossfire.rules.attack import never_assaulting
from allocator.games.crossfire.rules.base import combat_names
from allocator.games.crossfire.rules.resolution import keeps_fighting
from allocator.games.crossfire.scenario_file import scenario_yaml
from allocator.games.crossfire.schema import (
    Building,
    Organisation,
    Position,
    Quality,
    Scenario,
    SideName,
    Stand,
    StandType,
    Unit,
    UnitKind,
)
from allocator.games.crossfire.warnings import battle_warnings, leaders_near
from allocator.web.bodies import ScenarioBody
from allocator.web.errors import JSON_REFUSALS, NotFound, refusals
from allocator.web.work import ApiRoute, Work

#: How each stand type is written on a counter.
TYPE_LABELS: dict[StandType, str] = {
    StandType.rifle: "Rifle",
    StandType.smg: "SMG",
    StandType.engineer: "Engineer",
    StandType.jhmg: "HMG squad",
    StandType.hmg: "HMG",
    StandType.mortar: "Mortar",
    StandType.gun: "Gun",
    StandType.pc: "PC",
    StandType.cc: "CC",
    StandType.bc: "BC",
    StandType.commissar: "Commissar",
    StandType.fo: "FO",
    StandType.sniper: "Sniper",
}
ROLE_LABELS: dict[Role, str] = {
    Role.squad: "squad",
    Role.weapon: "crew-served weapon",
    Role.leader: "leader",
    Role.noncombatant: "non-combatant",
}
#: The page's stages, one for each part of an allocation (its steps: ``PART_OF_STEP``), and the
#: side that moves in each.
STAGE_PARTS: dict[str, tuple[SideName, str]] = {
    "combats": ("defender", "Defender combats"),
    "attack": ("attacker", "Attacker answer"),
    "reallocate": ("defender", "Reallocation"),
}

# ---------------------------------------------------------------- the answers


class StandTypeTerm(BaseModel):
    type: StandType
    label: str = Field(description="How a counter names the type, e.g. `HMG`.")
    role: Role
    role_label: str
    commander: bool = Field(description="A CC or BC: may head a combat and count as a squad.")
    rated: bool = Field(description="A leader, who has a command rating.")
    fights: bool = Field(
        description="A squad, CC or BC: an attacking leader joins a combat beside one (5a), and "
        "a side with one left can still assault (7b)."
    )


class RuleTerm(BaseModel):
    id: str
    step: int
    statement: str


class StepTerm(BaseModel):
    step: int
    title: str


class ObjectiveTerm(BaseModel):
    """One objective the search plays for (``--objective``, ``objective`` in the API)."""

    name: str
    title: str = Field(description="A short label for a picker.")
    words: str = Field(description="What it is, in a sentence for a player.")
    label: str = Field(
        description="What a value says: `attacker wins every combat: 81.3% (13/16)`, "
        "`expected exchange +0.44 stands (7/16)`."
    )
    unit: Literal["chance", "stands"] = Field(
        description="A value is a chance (0 to 1) or a number of stands."
    )
    whole_fight: bool = Field(description="Valued over the whole fight, not one round.")


class StageTerm(BaseModel):
    """One stage of the page's board: the part of the allocation it builds, and its steps."""

    stage: int
    part: Literal["combats", "attack", "reallocate"] = Field(
        description="The part of the allocation this stage builds."
    )
    side: SideName = Field(description="The side whose stands move in this stage.")
    steps: list[int] = Field(description="The steps of the procedure it covers.")
    title: str
    procedure: str = Field(description="Its steps in words: `steps 1–3`.")


class FieldTerm(BaseModel):
    """One field of the scenario file as its JSON Schema states it: default, bounds, words."""

    default: int | bool | str | None = None
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    description: str | None = None
    rules: list[str] = Field(default_factory=list, description="The rules about this field.")


class ScenarioFields(BaseModel):
    """The fields of a scenario the page sets, as the file format states them."""

    title: FieldTerm
    building_name: FieldTerm
    capacity: FieldTerm
    surprise: FieldTerm
    ruleset: FieldTerm
    stand_id: FieldTerm
    rating: FieldTerm
    quality: FieldTerm
    suppressed: FieldTerm
    near: FieldTerm
    unit_kind: FieldTerm = Field(description="The kind of a new unit of the player's own.")
    stand_type: FieldTerm = Field(description="The type of a new stand of the player's own.")


class NumberFormat(BaseModel):
    """How the command line rounds numbers (half up), so that the page writes the same."""

    percent_digits: int = Field(description="Decimals of a percentage: 13/16 is 81.3%.")
    signed_digits: int = Field(description="Decimals of an expectation: +0.44, 2.07 stands.")


class Terms(BaseModel):
    """The words of the game and of the page: stand types, unit kinds, qualities, rules, steps,
    the board's stages, the scenario fields' defaults and bounds, the limits, number format."""

    stand_types: list[StandTypeTerm]
    unit_kinds: list[UnitKind]
    qualities: list[Quality]
    rules: list[RuleTerm]
    steps: list[StepTerm]
    stages: list[StageTerm]
    fields: ScenarioFields
    limits: Limits = Field(description="This server's size and time limits.")
    numbers: NumberFormat
    objectives: list[ObjectiveTerm] = Field(description="In the order a picker offers them.")
    default_objective: str = Field(description="What every command and the page play for.")


class OrganisationEntry(BaseModel):
    name: str = Field(description="The name a scenario gives as `organisation:`.")
    title: str = Field(description='Its display name, e.g. "German rifle company, 1944".')
    description: str
    stands: int


class Nation(BaseModel):
    nation: str
    organisations: list[OrganisationEntry]


class Library(BaseModel):
    """The shipped organisations, grouped by nation."""

    nations: list[Nation]


class StandEntry(BaseModel):
    """A stand with what the page shows of it."""

    id: str
    type: StandType
    unit: str
    rating: int | None
    quality: Quality
    suppressed: bool
    position: Position | None
    near: list[str]
    role: Role
    commander: bool
    label: str = Field(description="The type as a counter names it.")
    name: str = Field(description='Its readable name, "1st Platoon, 2nd Squad" (else its id).')
    counter_label: str = Field(description='Its counter\'s short label, "1/2 Sqd" (else its id).')
    description: str = Field(description="The stand in words, for a screen reader.")


class UnitStands(BaseModel):
    """One unit of an organisation (in tree order) and the stands that belong to it."""

    id: str
    kind: UnitKind
    name: str | None
    depth: int = Field(description="0 for a top unit, 1 for the units under it, ...")
    parent: str | None
    stands: list[StandEntry]


class OrganisationDetail(BaseModel):
    name: str
    description: str
    nation: str | None
    units: list[UnitStands]


class Switch(BaseModel):
    """One value of a ruleset profile, which a house rule may change."""

    key: str
    value: int | bool | str
    kind: Literal["bool", "int", "choice"]
    choices: list[str] | None
    range: tuple[int, int] | None
    verified: bool
    source: str


class Profile(BaseModel):
    name: str
    description: str
    switches: list[Switch]


class Profiles(BaseModel):
    """The shipped Crossfire ruleset profiles."""

    profiles: list[Profile]


class StepWords(BaseModel):
    """What one step of the procedure asks of this scenario's stands, in words."""

    step: int
    title: str
    rules: list[str]
    says: list[str]


class Board(BaseModel):
    """A scenario as the page draws it: the building, both sides' stands and what follows."""

    title: str
    description: str | None
    building: Building
    inside: int = Field(description="The defender's squads and crew-served weapons (B1).")
    counted: list[str] = Field(description="The defending stands that count against capacity (B1).")
    building_problems: list[Violation] = Field(
        description="The building's rules this fight breaks whatever the allocation (B1, B2): "
        "put right before the fight can be played."
    )
    not_fighting: list[str] = Field(
        description="The attacking stands that take no part in the assault (4d)."
    )
    not_fighting_words: str = Field(description="Why they take no part, in the rule's words.")
    building_text: str = Field(description="What the building holds, in a sentence.")
    defender: list[StandEntry]
    attacker: list[StandEntry]
    combat_names: list[str] = Field(
        description="Names for new combats, in order: a new combat takes the first one unused."
    )
    near: dict[str, list[str]] = Field(
        description="Each attacking leader and the squads, CCs and BCs within one stand width "
        "of him (5a), by `near` lists or positions."
    )
    near_words: dict[str, str] = Field(description="Each attacking leader's `near`, in words.")
    steps: list[StepWords] = Field(description="What each step asks of these stands (explain).")
    warnings: list[str]


class ScenarioYaml(BaseModel):
    """A scenario as a file: ``cfalloc check`` reads this text as it is."""

    yaml: str
    file_name: str


# ---------------------------------------------------------------- building them


def stand_entry(side: SideName | None, stand: Stand) -> StandEntry:
    """A stand with its role, label and description (``side`` leads the description)."""
    role = ROLES[stand.type]
    rating = "" if stand.rating is None else f", rating +{stand.rating}"
    named = f"{stand.name}, " if stand.name else ""
    words = (
        f"{named}{TYPE_LABELS[stand.type]} {stand.id} ({ROLE_LABELS[role]}), "
        f"unit {stand.unit}{rating}"
    )
    return StandEntry(
        **stand.model_dump(exclude={"position", "near", "name", "label"}),
        name=stand.name or stand.id,
        counter_label=stand.label or stand.id,
        position=stand.position,
        near=list(stand.near),
        role=role,
        commander=stand.type in COMMANDERS,
        label=TYPE_LABELS[stand.type],
        description=words if side is None else f"{side} {words}",
    )


def stages() -> list[StageTerm]:
    """The page's stages, in the order of the procedure: each part of an allocation."""
    found = []
    for number, (part, (side, title)) in enumerate(STAGE_PARTS.items(), start=1):
        steps = sorted(step for step, of in PART_OF_STEP.items() if of == part)
        procedure = f"steps {steps[0]}–{steps[-1]}" if len(steps) > 1 else f"step {steps[0]}"
        found.append(
            StageTerm(
                stage=number, part=part, side=side, steps=steps, title=title, procedure=procedure
            )
        )
    return found


def _field(schema: dict[str, Any], *place: str, rules: tuple[str, ...] = ()) -> FieldTerm:
    """A field of the scenario's JSON Schema (``$defs``, a model, a property), its ``null``
    alternative left out."""
    node: dict[str, Any] = schema
    for key in place:
        node = node["$defs"][key] if key[0].isupper() else node["properties"][key]
    facts = dict(node)
    for alternative in node.get("anyOf", ()):
        if alternative.get("type") != "null" and "$ref" not in alternative:
            facts = alternative | facts
    return FieldTerm(
        default=facts.get("default"),
        minimum=facts.get("minimum"),
        maximum=facts.get("maximum"),
        max_length=facts.get("maxLength"),
        pattern=facts.get("pattern"),
        description=facts.get("description"),
        rules=list(rules),
    )


def scenario_fields() -> ScenarioFields:
    """The defaults and bounds of the fields the page sets, from the scenario's JSON Schema."""
    schema = Scenario.model_json_schema()
    return ScenarioFields(
        title=_field(schema, "title"),
        building_name=_field(schema, "Building", "name"),
        capacity=_field(schema, "Building", "capacity", rules=("B1", "B2")),
        surprise=_field(schema, "surprise"),
        ruleset=_field(schema, "ruleset"),
        stand_id=_field(schema, "Stand", "id"),
        rating=_field(schema, "Stand", "rating", rules=("L1", "L2", "L3")),
        quality=_field(schema, "Stand", "quality"),
        suppressed=_field(schema, "Stand", "suppressed"),
        near=_field(schema, "Stand", "near", rules=("5a",)),
        unit_kind=FieldTerm(default=UnitKind.platoon),
        stand_type=FieldTerm(default=StandType.rifle),
    )


@cache
def _terms() -> Terms:
    return Terms(
        stand_types=[
            StandTypeTerm(
                type=kind,
                label=TYPE_LABELS[kind],
                role=ROLES[kind],
                role_label=ROLE_LABELS[ROLES[kind]],
                commander=kind in COMMANDERS,
                rated=ROLES[kind] == Role.leader,
                fights=keeps_fighting(ROLES[kind], kind in COMMANDERS),
            )
            for kind in StandType
        ],
        unit_kinds=list(UnitKind),
        qualities=list(Quality),
        rules=[RuleTerm(id=r.id, step=r.step, statement=r.statement) for r in RULES.values()],
        steps=[StepTerm(step=step, title=title) for step, title in STEP_TITLES.items()],
        stages=stages(),
        fields=scenario_fields(),
        limits=Limits(),
        numbers=NumberFormat(percent_digits=PERCENT_DIGITS, signed_digits=SIGNED_DIGITS),
        objectives=[
            ObjectiveTerm(
                name=o.name,
                title=o.title,
                words=o.words,
                label=o.label,
                unit=o.unit,
                whole_fight=not o.one_round,
            )
            for o in OBJECTIVES.values()
        ],
        default_objective=DEFAULT_OBJECTIVE.name,
    )


def terms(limits: Limits | None = None) -> Terms:
    """The words of the game and the page (built once), with this server's ``limits``."""
    return _terms().model_copy(update={"limits": limits or Limits()})


def organisations() -> list[Organisation]:
    return [load_organisation(name) for name in names("orgs")]


def library() -> Library:
    """The organisations by nation (nations and names sorted; no nation last)."""

    def nation(org: Organisation) -> str:
        return org.nation or "Other"

    ordered = sorted(organisations(), key=lambda o: (o.nation is None, nation(o), o.name))
    return Library(
        nations=[
            Nation(
                nation=key,
                organisations=[
                    OrganisationEntry(
                        name=org.name,
                        title=org.title,
                        description=org.description.strip(),
                        stands=len(org.stands),
                    )
                    for org in group
                ],
            )
            for key, group in groupby(ordered, key=nation)
        ]
    )


def _units_in_order(units: list[Unit]) -> list[tuple[Unit, int, str | None]]:
    """Every unit of a tree, depth first in file order, with its depth and parent."""
    found: list[tuple[Unit, int, str | None]] = []
    stack: list[tuple[Unit, int, str | None]] = [(u, 0, None) for u in reversed(units)]
    while stack:
        unit, depth, parent = stack.pop()
        found.append((unit, depth, parent))
        stack.extend((child, depth + 1, unit.id) for child in reversed(unit.units))
    return found


def organisation_detail(name: str) -> OrganisationDetail:
    """One organisation's units in tree order, each with its stands (a bare name only)."""
    org = load_organisation(name)
    return OrganisationDetail(
        name=org.name,
        description=org.description.strip(),
        nation=org.nation,
        units=[
            UnitStands(
                id=unit.id,
                kind=unit.kind,
                name=unit.name,
                depth=depth,
                parent=parent,
                stands=[stand_entry(None, s) for s in org.stands if s.unit == unit.id],
            )
            for unit, depth, parent in _units_in_order(org.units)
        ],
    )


def profiles() -> Profiles:
    found = []
    for name in crossfire_profiles():
        profile = shipped_profile(name)
        found.append(
            Profile(
                name=profile.name,
                description=profile.description,
                switches=[
                    Switch(
                        key=key,
                        value=value.value,
                        kind="bool"
                        if isinstance(value.value, bool)
                        else "int"
                        if isinstance(value.value, int)
                        else "choice",
                        choices=value.choices,
                        range=value.range,
                        verified=value.verified,
                        source=value.source,
                    )
                    for key, value in profile.values.items()
                ],
            )
        )
    return Profiles(profiles=found)


def board(battle: Battle) -> Board:
    scenario = battle.scenario
    near = leaders_near(battle)
    return Board(
        title=battle.title,
        description=scenario.description,
        building=scenario.building,
        inside=len(capacity_rules.fighting_stands(battle)),
        counted=capacity_rules.fighting_stands(battle),
        building_problems=list(capacity_rules.check(battle)),
        not_fighting=never_assaulting(battle),
        not_fighting_words=f"Not in the assault: {RULES['4d'].statement} (4d)",
        building_text=capacity_rules.requirements(battle, 0)[0],
        defender=[stand_entry("defender", s) for s in battle.defender.stands.values()],
        attacker=[stand_entry("attacker", s) for s in battle.attacker.stands.values()],
        combat_names=combat_names(len(battle.defender.stands) + 1),
        near=near,
        near_words={leader: near_words(leader, ids) for leader, ids in near.items()},
        steps=[
            StepWords(
                step=step, title=title, rules=step_rules(step), says=requirements(battle, step)
            )
            for step, title in STEP_TITLES.items()
        ],
        warnings=battle_warnings(battle),
    )


def near_words(leader: str, near: list[str]) -> str:
    """``apc is within one stand width of a1 and a2.``"""
    return f"{leader} is within one stand width of {listing(near, 'nobody who fights')}."


def file_name(battle: Battle) -> str:
    """A file name for the scenario, from its title: ``farmhouse-assault.yaml``."""
    slug = re.sub(r"[^a-z0-9]+", "-", battle.title.lower()).strip("-")[:60].strip("-")
    return f"{slug or 'fight'}.yaml"


# ---------------------------------------------------------------- the routes

router = APIRouter(prefix="/api", route_class=ApiRoute, tags=["page"])


@router.get("/terms", responses=refusals(400))
def get_terms(work: Work) -> Terms:
    """The words of the game and the page: stand types with their labels and roles, unit kinds,
    qualities, every rule's statement and every step's title, the board's stages, the defaults
    and bounds of the scenario's fields, this server's limits and how numbers are rounded."""
    return terms(work.settings.limits)


@router.get("/organisations", responses=refusals(400))
def get_library() -> Library:
    """The shipped organisations (`models/orgs/`), grouped by nation."""
    return library()


@router.get("/organisations/{name}", responses=refusals(400, 404, 422))
def get_organisation(name: str) -> OrganisationDetail:
    """One shipped organisation: its units in tree order, each with its stands."""
    if name not in names("orgs"):
        raise NotFound(
            f"no shipped organisation {excerpt(name)} (shipped: {', '.join(names('orgs'))})",
            place="name",
        )
    return organisation_detail(name)


@router.get("/profiles", responses=refusals(400))
def get_profiles() -> Profiles:
    """The shipped Crossfire ruleset profiles, with every value a house rule may change."""
    return profiles()


@router.post("/board", responses=JSON_REFUSALS)
async def post_board(scenario: ScenarioBody, work: Work) -> Board:
    """A scenario as the page draws it: the building and what it holds, both sides' stands
    (organisations expanded) with their labels, names for new combats, which attacking leaders
    are near whom, and the warnings."""

    def job() -> Board:
        return board(battle_from_data(scenario, limits=work.settings.limits))

    return await work.run(job)


@router.post("/scenario-yaml", responses=JSON_REFUSALS)
async def post_scenario_yaml(scenario: ScenarioBody, work: Work) -> ScenarioYaml:
    """A scenario as the text of a scenario file, checked as `cfalloc check` would read it."""

    def job() -> ScenarioYaml:
        budget = Budget(work.settings.solve_time_limit)
        battle = battle_from_data(scenario, limits=work.settings.limits)
        return ScenarioYaml(
            yaml=scenario_yaml(battle.scenario, budget), file_name=file_name(battle)
        )

    return await work.run(job)
