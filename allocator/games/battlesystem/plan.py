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
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

import networkx as nx
from pydantic import BaseModel, ConfigDict, Field, model_validator

from allocator.core.limits import Limits, default_limits
from allocator.core.resolution import Resolution, load_profile, row_reached
from allocator.core.text import listing, plural
from allocator.core.violations import Violation
from allocator.games.battlesystem.details import BattlesystemDetails, Predicate, PredicateAnswer

OUTSIDE = "outside"
Inches = Annotated[float, Field(ge=-10_000, le=10_000)]
Size = Annotated[float, Field(ge=0.1, le=1000)]
Name = Annotated[str, Field(min_length=1, max_length=200)]

#: Each question, in players' words.
PREDICATE_WORDS: dict[Predicate, str] = {
    "in_command": "in command",
    "charisma_bonus": "gets the charisma bonus",
    "squeezing_in": "squeezes in",
    "front_attack": "attacked in front",
    "formation": "in regular formation",
    "indoor_spacing": "keeps indoor spacing",
}

METHOD = [
    "in command: within half the command diameter of the commander (by his charisma, from the"
    " profile), or anywhere inside the commander's own structure",
    "charisma bonus: within the command diameter, with no wall, door or breach between the"
    " stand's room and the commander's",
    "squeezing in: the stand fits its room either way round, or its figures would on single"
    " bases, after the figures of the other stands in the room",
    "formation: regular only when declared and the room holds the unit two ranks deep",
    "indoor spacing: two stands of a unit stay linked within the profile's gap per figure of the"
    " larger stand, and the unit's indoor stands hang together",
    "facing: the first direction of attack is the front, a second direction is a flank, and an"
    " attack through a breach is always a flank",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class CommandRow(_Strict):
    min_charisma: int = Field(ge=0, le=100)
    diameter_in: Size
    bonus: int = Field(ge=-20, le=20)


class BattlesystemProfile(_Strict):
    """The numbers of ``models/rulesets/battlesystem.yaml``."""

    unverified: bool = True
    command: list[CommandRow] = Field(min_length=1, max_length=50)
    indoor_gap_per_figure_in: float = Field(gt=0, le=100)

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


class Room(_Strict):
    name: Name
    structure: Name = Field(description="The building or walled enclosure it belongs to.")
    width_in: Size
    depth_in: Size


class Connection(_Strict):
    """What joins two rooms (or a room and "outside"): a wall, a door, a breach, or nothing."""

    between: tuple[Name, Name]
    kind: Literal["wall", "door", "breach", "open"]
    width_in: float = Field(0, ge=0, le=1000, description="The opening's width (doors, breaches).")


class Placed(_Strict):
    name: Name
    room: Name = Field(OUTSIDE, description="The room it stands in, or outside.")
    x: Inches
    y: Inches


class Commander(Placed):
    charisma: int = Field(ge=0, le=100)


class Unit(_Strict):
    name: Name
    commander: Name
    declared_regular: bool = Field(False, description="The player declares regular formation.")


class Stand(Placed):
    unit: Name
    figures: int = Field(ge=1, le=1000)
    figure_width_in: float = Field(0.75, ge=0.1, le=100, description="One figure's frontage.")
    figure_depth_in: float = Field(0.75, ge=0.1, le=100)

    @property
    def width_in(self) -> float:
        return self.figures * self.figure_width_in


class Attack(_Strict):
    """An attack on a stand, in the order they come: its direction and whether through a breach."""

    target: Name
    direction: Name = Field(description="The opening or side it comes from, e.g. 'north door'.")
    through_breach: bool = False


class BattlesystemPlan(_Strict):
    rooms: list[Room] = Field(max_length=1000)
    connections: list[Connection] = Field(default_factory=list, max_length=5000)
    commanders: list[Commander] = Field(default_factory=list)
    units: list[Unit] = Field(default_factory=list)
    stands: list[Stand] = Field(default_factory=list)
    attacks: list[Attack] = Field(default_factory=list, max_length=1000)

    @model_validator(mode="after")
    def _known_names(self) -> BattlesystemPlan:
        for kind, items in (
            ("rooms", self.rooms),
            ("commanders", self.commanders),
            ("units", self.units),
            ("stands", self.stands),
        ):
            if len({item.name for item in items}) != len(items):
                raise ValueError(f"two {kind} share a name")
        if OUTSIDE in {room.name for room in self.rooms}:
            raise ValueError(f"{OUTSIDE!r} is not a room: it is everything outside the building")
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

    def open_to(self, room: str, other: str) -> bool:
        """Whether two rooms are the same or joined only through open connections (no wall)."""
        graph = self.graph()
        open_only = nx.Graph()
        open_only.add_nodes_from(graph.nodes)
        open_only.add_edges_from(
            (a, b) for a, b, kind in graph.edges(data="kind") if kind == "open"
        )
        return bool(nx.has_path(open_only, room, other))

    def structure(self, room: str) -> str | None:
        """The structure a room belongs to (none for outside)."""
        return next((r.structure for r in self.rooms if r.name == room), None)

    def room(self, name: str) -> Room:
        return next(room for room in self.rooms if room.name == name)

    def unit(self, name: str) -> Unit:
        return next(unit for unit in self.units if unit.name == name)

    def stand(self, name: str) -> Stand:
        return next(stand for stand in self.stands if stand.name == name)

    def attacks_on(self, stand: str) -> list[Attack]:
        """The attacks on a stand, in their order."""
        return [attack for attack in self.attacks if attack.target == stand]

    def commander_of(self, stand: Stand) -> Commander:
        leader = self.unit(stand.unit).commander
        return next(commander for commander in self.commanders if commander.name == leader)


def _distance(a: Placed, b: Placed) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def _answer(predicate: Predicate, subject: str, holds: bool, reason: str) -> PredicateAnswer:
    return PredicateAnswer(predicate=predicate, subject=subject, holds=holds, reason=reason)


def in_command(
    plan: BattlesystemPlan, profile: BattlesystemProfile, stand_name: str
) -> PredicateAnswer:
    """Within the command diameter, or anywhere inside the commander's own structure."""
    stand = plan.stand(stand_name)
    leader = plan.commander_of(stand)
    diameter, distance = profile.row(leader.charisma).diameter_in, _distance(stand, leader)
    if distance <= diameter / 2:
        reason = f'within {distance:.1f}" of {leader.name} (command diameter {diameter:g}")'
        return _answer("in_command", stand_name, True, reason)
    structure = plan.structure(stand.room)
    if structure is not None and structure == plan.structure(leader.room):
        reason = f"inside the same structure ({structure}) as {leader.name}"
        return _answer("in_command", stand_name, True, reason)
    reason = f'{distance:.1f}" from {leader.name}, beyond half the {diameter:g}" diameter'
    return _answer("in_command", stand_name, False, reason + ", and not in his structure")


def charisma_bonus(
    plan: BattlesystemPlan, profile: BattlesystemProfile, stand_name: str
) -> PredicateAnswer:
    """Within the command diameter and no wall, door or breach between stand and commander."""
    stand = plan.stand(stand_name)
    leader = plan.commander_of(stand)
    row = profile.row(leader.charisma)
    distance = _distance(stand, leader)
    if distance > row.diameter_in / 2:
        reason = f'{distance:.1f}" from {leader.name}, outside the {row.diameter_in:g}" diameter'
        return _answer("charisma_bonus", stand_name, False, reason)
    if not plan.open_to(stand.room, leader.room):
        reason = (
            f"separated from {leader.name} by a wall, door or breach"
            f" ({stand.room} and {leader.room})"
        )
        return _answer("charisma_bonus", stand_name, False, reason)
    return _answer("charisma_bonus", stand_name, True, f"+{row.bonus} from {leader.name}")


def squeezing_in(plan: BattlesystemPlan, stand_name: str) -> PredicateAnswer:
    """The stand fits its room, or would if every figure had a base of its own."""
    stand = plan.stand(stand_name)
    if stand.room == OUTSIDE:
        return _answer("squeezing_in", stand_name, True, "outside: nothing to squeeze into")
    room = plan.room(stand.room)
    sides = [(room.width_in, room.depth_in), (room.depth_in, room.width_in)]
    if any(stand.width_in <= w and stand.figure_depth_in <= d for w, d in sides):
        return _answer("squeezing_in", stand_name, True, f"the stand fits inside {room.name}")
    places = max(
        math.floor(w / stand.figure_width_in) * math.floor(d / stand.figure_depth_in)
        for w, d in sides
    )
    others = sum(s.figures for s in plan.stands if s.room == room.name and s.name != stand_name)
    if places - others >= stand.figures:
        reason = f"would fit on single bases ({places - others} places free in {room.name})"
        return _answer("squeezing_in", stand_name, True, reason)
    reason = f"{room.name} has {max(places - others, 0)} single-base places, {stand.figures} needed"
    return _answer("squeezing_in", stand_name, False, reason)


def formation(plan: BattlesystemPlan, unit_name: str) -> PredicateAnswer:
    """Regular only when declared and the room holds the unit at least two ranks deep."""
    unit = plan.unit(unit_name)
    stands = [s for s in plan.stands if s.unit == unit_name]
    rooms = {s.room for s in stands}
    if rooms == {OUTSIDE} or not stands:
        return _answer(
            "formation",
            unit_name,
            unit.declared_regular,
            "outside: the normal formation rules apply",
        )
    if len(rooms) > 1:
        return _answer("formation", unit_name, False, "irregular: spread over several rooms")
    room = plan.room(rooms.pop())
    figures = sum(s.figures for s in stands)
    frontage = math.ceil(figures / 2) * stands[0].figure_width_in
    depth = 2 * stands[0].figure_depth_in
    room_fits = figures >= 2 and any(
        frontage <= w and depth <= d
        for w, d in [(room.width_in, room.depth_in), (room.depth_in, room.width_in)]
    )
    if not room_fits:
        reason = f"irregular: {room.name} has no room for {figures} figures two ranks deep"
        return _answer("formation", unit_name, False, reason)
    if not unit.declared_regular:
        return _answer("formation", unit_name, False, "irregular: regular formation not declared")
    return _answer("formation", unit_name, True, f"regular: two ranks fit in {room.name}")


def _gap(a: Stand, b: Stand) -> float:
    """Edge-to-edge distance between two axis-aligned stands."""
    dx = max(0.0, abs(a.x - b.x) - (a.width_in + b.width_in) / 2)
    dy = max(0.0, abs(a.y - b.y) - (a.figure_depth_in + b.figure_depth_in) / 2)
    return math.hypot(dx, dy)


def indoor_spacing(
    plan: BattlesystemPlan, profile: BattlesystemProfile, unit_name: str
) -> PredicateAnswer:
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
        together = "no stand indoors" if not stands else f"{plural(len(stands), 'stand')} indoors"
        return _answer("indoor_spacing", unit_name, True, f"{together}, keeping together")
    parts = sorted(sorted(part) for part in nx.connected_components(links))
    groups = "; ".join(listing(part) for part in parts)
    return _answer(
        "indoor_spacing", unit_name, False, f"too far apart, in {len(parts)} groups: {groups}"
    )


def facing(plan: BattlesystemPlan, stand_name: str) -> list[PredicateAnswer]:
    """The first direction of attack is the front; a second direction, or a breach, the flank."""
    answers = []
    front: str | None = None
    for number, attack in enumerate(plan.attacks_on(stand_name), 1):
        front = front or (None if attack.through_breach else attack.direction)
        if attack.through_breach:
            holds, reason = False, "through a breach: flank penalty"
        elif attack.direction == front:
            holds, reason = True, f"from {attack.direction}, the first direction: front"
        else:
            holds, reason = False, f"from {attack.direction}, a second direction: flank penalty"
        answers.append(_answer("front_attack", f"{stand_name} attack {number}", holds, reason))
    return answers


@dataclass
class BattlesystemResolver:
    """Every predicate over every stand and unit of a plan; failed placements as violations."""

    profile: BattlesystemProfile | None = None
    limits: Limits | None = None
    name: str = "battlesystem"
    engagement_model: type[BaseModel] = BattlesystemPlan

    @property
    def rules(self) -> BattlesystemProfile:
        return self.profile or default_profile()

    def check_sizes(self, plan: BattlesystemPlan) -> None:
        """Refuse, before any work, more commanders, units or stands than a side may have."""
        limits = self.limits or default_limits()
        for kind in ("commanders", "units", "stands"):
            count = len(getattr(plan, kind))
            if count > limits.max_stands_per_side:
                raise limits.refuse("max_stands_per_side", f"{count} {kind}", place=kind)

    def answers(self, plan: BattlesystemPlan) -> list[PredicateAnswer]:
        self.check_sizes(plan)
        answers: list[PredicateAnswer] = []
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

    def _violations(
        self, plan: BattlesystemPlan, answers: list[PredicateAnswer]
    ) -> list[Violation]:
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
        details = BattlesystemDetails(answers=answers, profile_unverified=self.rules.unverified)
        return Resolution(self.name, {}, list(METHOD), self._violations(plan, answers), details)
