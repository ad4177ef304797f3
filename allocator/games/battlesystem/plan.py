"""Battlesystem (2nd ed.) buildings: predicates over a building plan, each with its reason.

A plan is rooms (rectangles, each in a structure), the connections between rooms (wall, door,
breach or open: a networkx graph, with "outside" as a node), commanders and stands with their
positions in inches (centre of the base). Every predicate answers yes or no and why.

>>> plan = BattlesystemPlan(
...     rooms=[Room(name="hall", structure="keep", width_in=8, depth_in=6)],
...     connections=[Connection(between=("hall", "outside"), kind="door", width_in=1)],
...     commanders=[Commander(name="Lord", charisma=14, room="hall", x=1, y=1)],
...     units=[Unit(name="guards", commander="Lord")],
...     stands=[Stand(name="g1", unit="guards", figures=3, room="hall", x=3, y=4)])
>>> in_command(plan, default_profile(), "g1").reason
'within 3.6" of Lord (command diameter 8")'
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field, model_validator

from allocator.core.resolution import Resolution, load_profile, row_reached
from allocator.core.violations import Violation

OUTSIDE = "outside"


class CommandRow(BaseModel):
    model_config = ConfigDict(extra="forbid")

    min_charisma: int
    diameter_in: float = Field(gt=0)
    bonus: int


class BattlesystemProfile(BaseModel):
    """The numbers of ``models/rulesets/battlesystem.yaml``."""

    model_config = ConfigDict(extra="forbid")

    unverified: bool = True
    command: list[CommandRow] = Field(min_length=1)
    indoor_gap_per_figure_in: float = Field(gt=0)

    def row(self, charisma: int) -> CommandRow:
        return row_reached(
            self.command,
            lambda row: row.min_charisma,
            charisma,
            f"no command row in the profile for charisma {charisma}",
        )


@cache
def default_profile() -> BattlesystemProfile:
    return load_profile(BattlesystemProfile, "battlesystem")


def load_battlesystem_profile(path: Path | None) -> BattlesystemProfile:
    return load_profile(BattlesystemProfile, "battlesystem", path) if path else default_profile()


class Room(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    structure: str = Field(description="The building or walled enclosure it belongs to.")
    width_in: float = Field(gt=0)
    depth_in: float = Field(gt=0)


class Connection(BaseModel):
    """What joins two rooms (or a room and "outside"): a wall, a door, a breach, or nothing."""

    model_config = ConfigDict(extra="forbid")

    between: tuple[str, str]
    kind: Literal["wall", "door", "breach", "open"]
    width_in: float = Field(0, ge=0, description="The opening's width (doors and breaches).")


class Placed(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    room: str = Field(OUTSIDE, description="The room it stands in, or outside.")
    x: float
    y: float


class Commander(Placed):
    charisma: int


class Unit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    commander: str
    declared_regular: bool = Field(False, description="The player declares regular formation.")


class Stand(Placed):
    unit: str
    figures: int = Field(ge=1)
    figure_width_in: float = Field(0.75, gt=0, description="One figure's own base, frontage.")
    figure_depth_in: float = Field(0.75, gt=0)

    @property
    def width_in(self) -> float:
        return self.figures * self.figure_width_in


class Attack(BaseModel):
    """An attack on a stand, in the order they come: its direction and whether through a breach."""

    model_config = ConfigDict(extra="forbid")

    target: str
    direction: str = Field(description="The opening or side it comes from, e.g. 'north door'.")
    through_breach: bool = False


class BattlesystemPlan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rooms: list[Room]
    connections: list[Connection] = Field(default_factory=list)
    commanders: list[Commander] = Field(default_factory=list)
    units: list[Unit] = Field(default_factory=list)
    stands: list[Stand] = Field(default_factory=list)
    attacks: list[Attack] = Field(default_factory=list)

    @model_validator(mode="after")
    def _known_names(self) -> BattlesystemPlan:
        rooms = {room.name for room in self.rooms} | {OUTSIDE}
        places = [name for c in self.connections for name in c.between]
        places += [p.room for p in [*self.commanders, *self.stands]]
        missing = {"rooms": set(places) - rooms}
        missing["commanders"] = {u.commander for u in self.units} - {
            c.name for c in self.commanders
        }
        missing["units"] = {s.unit for s in self.stands} - {u.name for u in self.units}
        missing["stands"] = {a.target for a in self.attacks} - {s.name for s in self.stands}
        for kind, names in missing.items():
            if names:
                raise ValueError(f"unknown {kind}: {', '.join(sorted(names))}")
        return self

    def graph(self) -> nx.Graph:
        """Rooms and "outside" as nodes; every connection as an edge with its kind and width."""
        graph = nx.Graph()
        graph.add_node(OUTSIDE, structure=None)
        for room in self.rooms:
            graph.add_node(room.name, structure=room.structure)
        for connection in self.connections:
            graph.add_edge(*connection.between, kind=connection.kind, width_in=connection.width_in)
        return graph

    def named(self, kind: str, name: str) -> Any:
        """The room, commander, unit or stand called ``name`` (``kind`` is the list's field)."""
        return next(item for item in getattr(self, kind) if item.name == name)


@dataclass(frozen=True)
class Answer:
    """One predicate's answer about one subject, with the reason."""

    predicate: str
    subject: str
    holds: bool
    reason: str


def _distance(a: Placed, b: Placed) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def _commander(plan: BattlesystemPlan, stand: Stand) -> Commander:
    return plan.named("commanders", plan.named("units", stand.unit).commander)


def in_command(plan: BattlesystemPlan, profile: BattlesystemProfile, stand_name: str) -> Answer:
    """Within the command diameter, or anywhere inside the commander's own structure."""
    stand = plan.named("stands", stand_name)
    leader = _commander(plan, stand)
    diameter, distance = profile.row(leader.charisma).diameter_in, _distance(stand, leader)
    structures = plan.graph().nodes
    if distance <= diameter / 2:
        reason = f'within {distance:.1f}" of {leader.name} (command diameter {diameter:g}")'
        return Answer("in_command", stand_name, True, reason)
    structure = structures[stand.room]["structure"]
    if structure is not None and structure == structures[leader.room]["structure"]:
        reason = f"inside the same structure ({structure}) as {leader.name}"
        return Answer("in_command", stand_name, True, reason)
    reason = f'{distance:.1f}" from {leader.name}, beyond half the {diameter:g}" diameter'
    return Answer("in_command", stand_name, False, reason + ", and not in his structure")


def charisma_bonus(plan: BattlesystemPlan, profile: BattlesystemProfile, stand_name: str) -> Answer:
    """Within the command diameter and no wall, door or breach between stand and commander."""
    stand = plan.named("stands", stand_name)
    leader = _commander(plan, stand)
    row = profile.row(leader.charisma)
    distance = _distance(stand, leader)
    if distance > row.diameter_in / 2:
        reason = f'{distance:.1f}" from {leader.name}, outside the {row.diameter_in:g}" diameter'
        return Answer("charisma_bonus", stand_name, False, reason)
    graph = plan.graph()
    open_only = graph.edge_subgraph(
        (a, b) for a, b, kind in graph.edges(data="kind") if kind == "open"
    ).copy()
    open_only.add_nodes_from([stand.room, leader.room])
    if not nx.has_path(open_only, stand.room, leader.room):
        reason = f"separated from {leader.name} by walls ({stand.room} / {leader.room})"
        return Answer("charisma_bonus", stand_name, False, reason)
    return Answer("charisma_bonus", stand_name, True, f"+{row.bonus} from {leader.name}")


def squeezing_in(plan: BattlesystemPlan, stand_name: str) -> Answer:
    """The stand fits its room, or would if every figure had a base of its own."""
    stand = plan.named("stands", stand_name)
    if stand.room == OUTSIDE:
        return Answer("squeezing_in", stand_name, True, "outside: no room to fit")
    room = plan.named("rooms", stand.room)
    sides = [(room.width_in, room.depth_in), (room.depth_in, room.width_in)]
    if any(stand.width_in <= w and stand.figure_depth_in <= d for w, d in sides):
        return Answer("squeezing_in", stand_name, True, f"the stand fits inside {room.name}")
    places = max(
        math.floor(w / stand.figure_width_in) * math.floor(d / stand.figure_depth_in)
        for w, d in sides
    )
    others = sum(s.figures for s in plan.stands if s.room == room.name and s.name != stand_name)
    if places - others >= stand.figures:
        reason = f"would fit on single bases ({places - others} places free in {room.name})"
        return Answer("squeezing_in", stand_name, True, reason)
    reason = f"{room.name} has {max(places - others, 0)} single-base places, {stand.figures} needed"
    return Answer("squeezing_in", stand_name, False, reason)


def formation(plan: BattlesystemPlan, unit_name: str) -> Answer:
    """Regular only when declared and the room holds the unit at least two ranks deep."""
    unit = plan.named("units", unit_name)
    stands = [s for s in plan.stands if s.unit == unit_name]
    rooms = {s.room for s in stands}
    if rooms == {OUTSIDE} or not stands:
        return Answer("formation", unit_name, unit.declared_regular, "outside: normal rules")
    if len(rooms) > 1:
        return Answer("formation", unit_name, False, "irregular: spread over several rooms")
    room = plan.named("rooms", rooms.pop())
    figures = sum(s.figures for s in stands)
    frontage = math.ceil(figures / 2) * stands[0].figure_width_in
    depth = 2 * stands[0].figure_depth_in
    room_fits = figures >= 2 and any(
        frontage <= w and depth <= d
        for w, d in [(room.width_in, room.depth_in), (room.depth_in, room.width_in)]
    )
    if not room_fits:
        reason = f"irregular: {room.name} has no room for {figures} figures two ranks deep"
        return Answer("formation", unit_name, False, reason)
    if not unit.declared_regular:
        return Answer("formation", unit_name, False, "irregular: regular formation not declared")
    return Answer("formation", unit_name, True, f"regular: two ranks fit in {room.name}")


def _gap(a: Stand, b: Stand) -> float:
    """Edge-to-edge distance between two axis-aligned stands."""
    dx = max(0.0, abs(a.x - b.x) - (a.width_in + b.width_in) / 2)
    dy = max(0.0, abs(a.y - b.y) - (a.figure_depth_in + b.figure_depth_in) / 2)
    return math.hypot(dx, dy)


def indoor_spacing(plan: BattlesystemPlan, profile: BattlesystemProfile, unit_name: str) -> Answer:
    """Indoors, two stands may stand apart up to 1" per figure of the larger stand; the unit
    must hang together through such links."""
    stands = [s for s in plan.stands if s.unit == unit_name and s.room != OUTSIDE]
    links = nx.Graph()
    links.add_nodes_from(s.name for s in stands)
    per_figure = profile.indoor_gap_per_figure_in
    for i, a in enumerate(stands):
        for b in stands[i + 1 :]:
            if _gap(a, b) <= per_figure * max(a.figures, b.figures):
                links.add_edge(a.name, b.name)
    if len(stands) < 2 or nx.is_connected(links):
        return Answer("indoor_spacing", unit_name, True, f"{len(stands)} indoor stand(s) together")
    parts = sorted(sorted(part) for part in nx.connected_components(links))
    return Answer("indoor_spacing", unit_name, False, f"too far apart: groups {parts}")


def facing(plan: BattlesystemPlan, stand_name: str) -> list[Answer]:
    """The first direction of attack is the front; a second direction, or a breach, the flank."""
    answers = []
    front: str | None = None
    for number, attack in enumerate((a for a in plan.attacks if a.target == stand_name), 1):
        front = front or (None if attack.through_breach else attack.direction)
        if attack.through_breach:
            holds, reason = False, "through a breach: flank penalty"
        elif attack.direction == front:
            holds, reason = True, f"from {attack.direction}, the first direction: front"
        else:
            holds, reason = False, f"from {attack.direction}, a second direction: flank penalty"
        answers.append(Answer("front_attack", f"{stand_name} attack {number}", holds, reason))
    return answers


@dataclass
class BattlesystemResolver:
    """Every predicate over every stand and unit of a plan; failed placements as violations."""

    profile: BattlesystemProfile | None = None
    name: str = "battlesystem"
    engagement_model: type[BaseModel] = BattlesystemPlan

    @property
    def rules(self) -> BattlesystemProfile:
        return self.profile or default_profile()

    def answers(self, plan: BattlesystemPlan) -> list[Answer]:
        answers: list[Answer] = []
        for stand in plan.stands:
            answers += [
                in_command(plan, self.rules, stand.name),
                charisma_bonus(plan, self.rules, stand.name),
                squeezing_in(plan, stand.name),
                *facing(plan, stand.name),
            ]
        for unit in plan.units:
            answers += [formation(plan, unit.name), indoor_spacing(plan, self.rules, unit.name)]
        return answers

    def check(self, plan: BattlesystemPlan) -> list[Violation]:
        return self._violations(plan, self.answers(plan))

    def _violations(self, plan: BattlesystemPlan, answers: list[Answer]) -> list[Violation]:
        """Stands that do not fit, units too spread out, and regular formations with no room."""
        declared = {unit.name for unit in plan.units if unit.declared_regular}
        rules = {"squeezing_in": "BS-squeeze", "indoor_spacing": "BS-spacing"}
        violations = []
        for answer in answers:
            if answer.holds:
                continue
            if answer.predicate in rules:
                rule, message = rules[answer.predicate], answer.reason
            elif answer.predicate == "formation" and answer.subject in declared:
                rule, message = "BS-formation", f"declared regular, but {answer.reason}"
            else:
                continue
            violations.append(
                Violation(rule=rule, step=0, message=message, stands=[answer.subject])
            )
        return violations

    def resolve(self, plan: BattlesystemPlan) -> Resolution:
        answers = self.answers(plan)
        steps = [
            f"{a.predicate}({a.subject}): {'yes' if a.holds else 'no'}, {a.reason}" for a in answers
        ]
        details = {
            "answers": [asdict(answer) for answer in answers],
            "profile_unverified": self.rules.unverified,
        }
        return Resolution(self.name, {}, steps, self._violations(plan, answers), details)
