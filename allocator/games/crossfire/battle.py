"""From a scenario file to a resolved battle: stands, roles and the two org graphs.

Every input problem becomes one :class:`~allocator.core.errors.InputError` naming the file, the
place and the problem: YAML errors, schema errors, unknown units, duplicate ids, dangling
references, forces over the limits.

>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}],
...                  "stands": [{"id": "d1", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}],
...                  "stands": [{"id": "a1", "type": "rifle", "unit": "q"}]},
... })
>>> b.role("d1"), b.side_of("a1")
(<Role.squad: 'squad'>, 'attacker')

A stand's readable name and counter label come from its file (a shipped organisation gives them
for every stand), else its id:

>>> b = battle_from_data({
...     "defender": {"organisation": "german-rifle-company", "present": ["de-1plt-sq2"]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}],
...                  "stands": [{"id": "a1", "type": "rifle", "unit": "q"}]},
... })
>>> b.stand_name("de-1plt-sq2"), b.stand_label("de-1plt-sq2"), b.stand_label("a1")
('1st Platoon, 2nd Squad', '1/2 Sqd', 'a1')
>>> b.defender.title, b.defender.unit_name("1plt"), b.attacker.unit_name("q")
('German rifle company, 1944', '1st Platoon (1. Zug)', 'q')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from math import dist
from pathlib import Path
from typing import Any

from allocator.core.errors import InputError, LimitError
from allocator.core.library import shipped
from allocator.core.limits import Limits, default_limits
from allocator.core.reader import read_file
from allocator.core.text import listing, plain, plural
from allocator.core.validation import validate
from allocator.games.crossfire.orgs import OrgGraph
from allocator.games.crossfire.profile import Ruleset, load_ruleset
from allocator.games.crossfire.schema import (
    Allocation,
    Force,
    Organisation,
    PresentStand,
    Scenario,
    SideName,
    Stand,
    StandType,
    Unit,
    UnitKind,
)

SIDES: tuple[SideName, SideName] = ("defender", "attacker")


class Role(StrEnum):
    squad = "squad"
    weapon = "weapon"
    leader = "leader"
    noncombatant = "noncombatant"


ROLES: dict[StandType, Role] = {
    StandType.rifle: Role.squad,
    StandType.smg: Role.squad,
    StandType.engineer: Role.squad,
    StandType.jhmg: Role.squad,
    StandType.hmg: Role.weapon,
    StandType.mortar: Role.weapon,
    StandType.gun: Role.weapon,
    StandType.pc: Role.leader,
    StandType.cc: Role.leader,
    StandType.bc: Role.leader,
    StandType.commissar: Role.leader,
    StandType.fo: Role.noncombatant,
    StandType.sniper: Role.noncombatant,
}

#: Leaders who may head a combat (1b) or count as a squad in the assault (4b).
COMMANDERS = frozenset({StandType.cc, StandType.bc})


@cache
def load_organisation(name: str) -> Organisation:
    """A shipped organisation of the library (``models/orgs/``), read once."""
    path = shipped("orgs", name, what="organisation")
    return validate(Organisation, read_file(path), file=str(path))


@dataclass
class SideForce:
    """One side's stands (in file order) and its organisation graph.

    ``title`` is the display name of the organisation the side takes its stands from, if any.
    """

    name: SideName
    stands: dict[str, Stand]
    units: list[Unit]
    org: OrgGraph
    title: str | None = None
    _unit_names: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        named: dict[str, str] = {}
        todo = list(self.units)
        while todo:
            unit = todo.pop()
            if unit.name is not None:
                named[unit.id] = unit.name
            todo.extend(unit.units)
        self._unit_names = named

    def unit_name(self, unit_id: str) -> str:
        """The unit's readable name (its id where the file gives none), without control
        characters."""
        return plain(self._unit_names.get(unit_id, unit_id))

    def ids(self, role: Role | None = None) -> list[str]:
        return [i for i, s in self.stands.items() if role is None or ROLES[s.type] == role]

    def only(self, alive: Iterable[str]) -> SideForce:
        """This side with only the stands of ``alive`` (the org graph is shared)."""
        keep = set(alive)
        return replace(self, stands={i: s for i, s in self.stands.items() if i in keep})


def _expand_force(
    force: Force, side: SideName, file: str | None
) -> tuple[Organisation | None, list[Unit], list[Stand]]:
    """The force's organisation (if it names one), its units and its stands, the
    organisation's first (each with the fields ``present`` changes)."""
    units, stands = list(force.units), list(force.stands)
    if force.organisation is None:
        if force.present:
            raise InputError(
                "`present` needs an `organisation` to take the stands from",
                file=file,
                place=f"{side}.present",
            )
        return None, units, stands
    try:
        org = load_organisation(force.organisation)
    except InputError as exc:
        raise exc.located(file, f"{side}.organisation") from None
    by_id = {s.id: s for s in org.stands}
    chosen: list[Stand] = []
    for index, entry in enumerate(force.present or [s.id for s in org.stands]):
        override = entry if isinstance(entry, PresentStand) else PresentStand(id=entry)
        if override.id not in by_id:
            raise InputError(
                f"organisation '{force.organisation}' has no stand '{override.id}'"
                f" (it has: {', '.join(by_id)})",
                file=file,
                place=f"{side}.present[{index}]",
            )
        changes = override.model_dump(exclude={"id"}, exclude_none=True)
        chosen.append(by_id[override.id].model_copy(update=changes))
    return org, list(org.units) + units, chosen + stands


def _check_units(units: list[Unit], side: SideName, file: str | None) -> None:
    seen: set[str] = set()
    stack = [(unit, f"{side}.units[{i}]") for i, unit in reversed(list(enumerate(units)))]
    while stack:  # depth first, in file order
        unit, place = stack.pop()
        if unit.id in seen:
            raise InputError(f"duplicate unit id '{unit.id}'", file=file, place=place)
        seen.add(unit.id)
        children = list(enumerate(unit.units))
        stack.extend((child, f"{place}.units[{i}]") for i, child in reversed(children))


@dataclass
class Battle:
    """A validated, resolved scenario: what the rules and the model work on."""

    scenario: Scenario
    defender: SideForce
    attacker: SideForce
    ruleset: Ruleset
    file: str | None = None
    _side_of: dict[str, SideName] = field(default_factory=dict)
    _troops: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)
    _stands: dict[str, Stand] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._side_of = {i: self.defender.name for i in self.defender.stands} | {
            i: self.attacker.name for i in self.attacker.stands
        }
        self._stands = self.defender.stands | self.attacker.stands  # the rules' hottest lookup

    @property
    def capacity(self) -> int:
        return self.scenario.building.capacity

    @property
    def allocation(self) -> Allocation | None:
        return self.scenario.allocation

    @property
    def title(self) -> str:
        return self.scenario.title or self.scenario.building.name

    def side(self, name: SideName) -> SideForce:
        return self.defender if name == "defender" else self.attacker

    def available(self, name: SideName) -> list[str]:
        """The stands of side ``name`` that ``cfalloc plan`` may choose from, in file order:
        the file's ``available`` list, else all of them."""
        force: Force = getattr(self.scenario, name)
        chosen = None if force.available is None else set(force.available)
        return [i for i in self.side(name).ids() if chosen is None or i in chosen]

    def side_of(self, stand_id: str) -> SideName:
        return self._side_of[stand_id]

    def stand(self, stand_id: str) -> Stand:
        return self._stands[stand_id]

    def role(self, stand_id: str) -> Role:
        return ROLES[self._stands[stand_id].type]

    def stand_name(self, stand_id: str) -> str:
        """The stand's readable name ("1st Platoon, 2nd Squad"), or its id where the file gives
        none; without control characters (rich markup is the printer's to escape)."""
        return plain(self.stand(stand_id).name or stand_id)

    def stand_label(self, stand_id: str) -> str:
        """The stand's short counter label ("1/2 Sqd"), or its id where the file gives none."""
        return plain(self.stand(stand_id).label or stand_id)

    def is_commander(self, stand_id: str) -> bool:
        return self.stand(stand_id).type in COMMANDERS

    def platoon_leader(self, leader_id: str) -> bool:
        """A PC, or a Commissar attached to a PC: he needs his own troops beside him (5b, L1).

        A Commissar attached to a CC or BC follows that leader: his rating always counts.
        """
        stand = self.stand(leader_id)
        if stand.type == StandType.commissar:
            org = self.side(self.side_of(leader_id)).org
            return org.kind(stand.unit) == UnitKind.platoon
        return stand.type == StandType.pc

    def commands(self, leader_id: str, stand_id: str) -> bool:
        """Whether ``stand_id`` is one of ``leader_id``'s troops (same side, his subtree)."""
        leader, stand = self.stand(leader_id), self.stand(stand_id)
        side = self.side(self.side_of(leader_id))
        return self.side_of(stand_id) == side.name and side.org.commands(leader.unit, stand.unit)

    def troops(self, leader_id: str) -> list[str]:
        """The squads and crew-served weapons of the leader's side here that are his troops."""
        found = self._troops.get(leader_id)
        if found is None:
            side = self.side(self.side_of(leader_id))
            found = [
                s
                for s in side.ids()
                if ROLES[side.stands[s].type] in (Role.squad, Role.weapon)
                and self.commands(leader_id, s)
            ]
            self._troops[leader_id] = found
        return found

    def same_organisation(self, weapon_id: str, stand_id: str) -> bool:
        """Whether ``stand_id`` belongs to the organisational unit of the weapon (2a)."""
        side = self.side(self.side_of(weapon_id))
        return side.org.same_organisation(self.stand(weapon_id).unit, self.stand(stand_id).unit)

    def near(self, leader_id: str, stand_id: str) -> bool:
        """Within one stand width (5a): as the scenario states (either way round), or by the
        stands' positions: centres at most ``near_centres`` stand widths apart."""
        if self.scenario.round > 1 and self.ruleset.value("later_rounds_all_near"):
            return True
        leader, stand = self.stand(leader_id), self.stand(stand_id)
        if stand_id in leader.near or leader_id in stand.near:
            return True
        if leader.position is None or stand.position is None:
            return False
        reach: float = self.ruleset.value("near_centres") * self.scenario.stand_width
        return dist(leader.position, stand.position) <= reach

    def surprised(self) -> bool:
        """Whether the attacker is surprised in this round (round 1 only, unless the profile
        says surprise lasts)."""
        first = self.scenario.round == 1 or bool(self.ruleset.value("surprise_later_rounds"))
        return self.scenario.surprise and first

    def with_ruleset(self, ruleset: Ruleset) -> Battle:
        """This battle played under another ruleset profile."""
        return Battle(self.scenario, self.defender, self.attacker, ruleset, self.file)

    def with_allocation(self, allocation: Allocation | None) -> Battle:
        scenario = self.scenario.model_copy(update={"allocation": allocation})
        _check_allocation(scenario, self._side_of, self.file)
        return Battle(scenario, self.defender, self.attacker, self.ruleset, self.file)

    def next_round(self, alive: Iterable[str]) -> Battle:
        """The battle of the next round (7b): only the survivors, no allocation yet."""
        return self.only(alive, self.scenario.round + 1)

    def only(self, alive: Iterable[str], round_: int | None = None) -> Battle:
        """This battle with only the stands of ``alive`` (and no allocation), in ``round_``."""
        keep = set(alive)
        scenario = self.scenario.model_copy(
            update={
                "allocation": None,
                "round": self.scenario.round if round_ is None else round_,
                "expect": None,
            }
        )
        return Battle(
            scenario, self.defender.only(keep), self.attacker.only(keep), self.ruleset, self.file
        )


def _check_allocation(scenario: Scenario, side_of: dict[str, SideName], file: str | None) -> None:
    """Every stand the allocation names is one of the right side's, and is named once in it; the
    defender's combats are no more than his stands. In one pass over the allocation, so that a
    file repeating one stand thousands of times is refused as fast as it is read."""
    allocation = scenario.allocation
    if allocation is None:
        return
    combats = allocation.combats or {}
    defenders = sum(side == "defender" for side in side_of.values())
    if len(combats) > defenders:
        raise InputError(
            f"{len(combats):,} combats for {plural(defenders, 'defending stand')}: every combat "
            "holds one of them at least (rule 1c), so there are at most as many combats as "
            "stands",
            file=file,
            place="allocation.combats",
        )
    problems = [
        *_named_once(combats, "combats", "defender", side_of),
        *_named_once(allocation.attack or {}, "attack", "attacker", side_of),
    ]
    for stand_id in allocation.reallocate or {}:
        problems += _of_side(stand_id, "defender", side_of, f"allocation.reallocate.{stand_id}")
    if problems:
        raise InputError.of(problems, file)
    if allocation.attack is not None and allocation.combats is None:
        raise InputError(
            "`attack` needs the defender's `combats` first", file=file, place="allocation"
        )
    if allocation.reallocate is not None and allocation.attack is None:
        raise InputError("`reallocate` needs the `attack` first", file=file, place="allocation")


def _of_side(
    stand_id: str, side: SideName, side_of: dict[str, SideName], place: str
) -> list[InputError]:
    """The problem of naming ``stand_id`` where a stand of ``side`` belongs, if there is one."""
    if stand_id not in side_of:
        return [InputError(f"the scenario has no stand '{stand_id}'", place=place)]
    if side_of[stand_id] != side:
        problem = (
            f"'{stand_id}' is one of the {side_of[stand_id]}'s stands; this part lists the {side}'s"
        )
        return [InputError(problem, place=place)]
    return []


def _named_once(
    lists: dict[str, list[str]], part: str, side: SideName, side_of: dict[str, SideName]
) -> list[InputError]:
    """The problems of the lists of one part of the allocation (``combats`` or ``attack``):
    stands of no side or of the other one, and stands named more than once (each said once, at
    its second place)."""
    homes: dict[str, dict[str, None]] = {}
    counts: dict[str, int] = {}
    for name, ids in lists.items():
        for stand_id in ids:
            homes.setdefault(stand_id, {})[name] = None
            counts[stand_id] = counts.get(stand_id, 0) + 1
    problems: list[InputError] = []
    named: set[str] = set()
    said: set[str] = set()
    for name, ids in lists.items():
        for i, stand_id in enumerate(ids):
            place = f"allocation.{part}.{name}[{i}]"
            if stand_id not in named:
                named.add(stand_id)
                wrong = _of_side(stand_id, side, side_of, place)
                said.update(stand_id for _ in wrong)
                problems += wrong
            elif stand_id not in said:
                said.add(stand_id)
                where = list(homes[stand_id])
                problem = _repeated(stand_id, counts[stand_id], where, part)
                problems.append(InputError(problem, place=place))
    return problems


def _repeated(stand_id: str, times: int, names: list[str], part: str) -> str:
    """Why a stand may be named only once in a part of the allocation."""
    shown = names[:5] + ["..."] * (len(names) > 5)
    where = f"combat{'s' * (len(names) > 1)} {listing(shown)}"
    named = "twice" if times == 2 else f"{times:,} times"
    if part == "combats":
        return (
            f"'{stand_id}' is named {named}, in {where}: a defending stand is in exactly "
            "one combat, once (rule 1c)"
        )
    return (
        f"'{stand_id}' is named {named}, in the attack on {where}: an attacking stand "
        "goes to one combat, once (rule 4e)"
    )


def _side_force(
    scenario: Scenario, side: SideName, seen: dict[str, str], file: str | None, limits: Limits
) -> SideForce:
    force: Force = getattr(scenario, side)
    organisation, units, stands = _expand_force(force, side, file)
    if len(stands) > limits.max_stands_per_side:
        raise limits.refuse(
            "max_stands_per_side", f"the {side} has {len(stands)} stands", file=file, place=side
        )
    _check_units(units, side, file)
    org = OrgGraph(units)
    by_id: dict[str, Stand] = {}
    problems: list[InputError] = []
    for i, stand in enumerate(stands):
        place = f"{side}.stands[{i}]" if force.organisation is None else f"{side}.{stand.id}"
        if stand.id in seen:
            problems.append(
                InputError(
                    f"duplicate stand id '{stand.id}' (already used in {seen[stand.id]})",
                    file=file,
                    place=place,
                )
            )
            continue
        seen[stand.id] = place
        if stand.unit not in org:
            problems.append(
                InputError(
                    f"stand '{stand.id}' names unit '{stand.unit}', which the {side} does not have",
                    file=file,
                    place=f"{place}.unit",
                )
            )
            continue
        by_id[stand.id] = stand
    if problems:
        raise InputError.of(problems)
    if not by_id:
        raise InputError(f"the {side} has no stands in this fight", file=file, place=side)
    _check_available(force, by_id, side, file)
    title = None if organisation is None else organisation.title
    return SideForce(side, by_id, units, org, title)


def _check_available(
    force: Force, stands: dict[str, Stand], side: SideName, file: str | None
) -> None:
    """Every stand ``available`` names is one of the side's, named once."""
    named: set[str] = set()
    for i, stand_id in enumerate(force.available or []):
        place = f"{side}.available[{i}]"
        if stand_id not in stands:
            raise InputError(
                f"'{stand_id}' is not one of the {side}'s stands here (it has: "
                f"{', '.join(list(stands)[:10])}{', ...' * (len(stands) > 10)})",
                file=file,
                place=place,
            )
        if stand_id in named:
            raise InputError(f"'{stand_id}' is named twice", file=file, place=place)
        named.add(stand_id)
    if force.available == []:
        raise InputError(
            "an empty `available` leaves nothing to choose from: list the stands, or leave "
            "it out for all of them",
            file=file,
            place=f"{side}.available",
        )


def can_assault(stands: Iterable[Stand]) -> bool:
    """Whether attacking ``stands`` can assault at all: a squad, or a CC or BC (4b), among them."""
    return any(ROLES[s.type] == Role.squad or s.type in COMMANDERS for s in stands)


def battle_from_scenario(
    scenario: Scenario,
    file: str | None = None,
    base_dir: Path | None = None,
    limits: Limits | None = None,
) -> Battle:
    """Resolve organisations, check every cross-reference, build the org graphs.

    ``base_dir`` is the folder of the scenario file: a ruleset path is resolved against it, and
    without it (a web request) only shipped profile names are accepted.
    """
    limits = limits or default_limits()
    seen: dict[str, str] = {}
    sides: dict[SideName, SideForce] = {}
    problems: list[InputError] = []
    for side in SIDES:  # both sides' stands checked, so that every problem is said at once
        try:
            sides[side] = _side_force(scenario, side, seen, file, limits)
        except LimitError:
            raise
        except InputError as exc:
            problems.append(exc)
    if problems:
        raise InputError.of(problems)
    for side in SIDES:
        for stand in sides[side].stands.values():
            for other in stand.near:
                if other not in sides[side].stands:
                    raise InputError(
                        f"'{stand.id}' is near '{other}', which is not an {side}'s stand here",
                        file=file,
                        place=f"{side}.{stand.id}.near",
                    )
    if not can_assault(sides["attacker"].stands.values()):
        raise InputError(
            "the attacker needs at least one squad (or a CC/BC) to assault with",
            file=file,
            place="attacker.stands",
        )
    try:
        ruleset = load_ruleset(scenario.ruleset, base_dir)
    except InputError as exc:
        raise exc.named_by(file, "ruleset") from None
    _check_allocation(scenario, {s: n for n in SIDES for s in sides[n].stands}, file)
    return Battle(scenario, sides["defender"], sides["attacker"], ruleset, file)


def battle_from_data(
    data: Any, file: str | None = None, base_dir: Path | None = None, limits: Limits | None = None
) -> Battle:
    """A battle from parsed data (a file's or a request's)."""
    if not isinstance(data, dict):
        raise InputError("a scenario must be a mapping with `defender` and `attacker`", file=file)
    scenario = validate(Scenario, data, file=file)
    return battle_from_scenario(scenario, file, base_dir, limits)


def load_battle(path: str | Path, limits: Limits | None = None) -> Battle:
    """Read, validate and resolve a scenario file."""
    path = Path(path)
    data = read_file(path, limits=limits)
    return battle_from_data(data, str(path), path.parent, limits)
