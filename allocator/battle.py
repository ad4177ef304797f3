"""From a scenario file to a resolved battle: stands, roles and the two org graphs.

Every input problem becomes one :class:`~allocator.errors.InputError` naming the file, the place
and the problem: YAML errors, schema errors, unknown units, duplicate ids, dangling references.

>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}],
...                  "stands": [{"id": "d1", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}],
...                  "stands": [{"id": "a1", "type": "rifle", "unit": "q"}]},
... })
>>> b.role("d1"), b.side_of("a1")
(<Role.squad: 'squad'>, 'attacker')
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from math import dist
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from allocator.errors import InputError
from allocator.orgs import OrgGraph
from allocator.ruleset import Ruleset, load_ruleset, models_dir
from allocator.schema import (
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


def _format_loc(loc: tuple[Any, ...]) -> str:
    place = ""
    for part in loc:
        place += f"[{part}]" if isinstance(part, int) else (f".{part}" if place else str(part))
    return place


def _validation_error(exc: ValidationError, file: str | None) -> InputError:
    errors = exc.errors()
    first = errors[0]
    problem = first["msg"]
    if first["type"] not in {"missing", "extra_forbidden"}:
        problem += f" (got {first['input']!r})"
    elif first["type"] == "extra_forbidden":
        problem = "unknown field; check its spelling against `cfalloc schema`"
    if len(errors) > 1:
        problem += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    return InputError(problem, file=file, place=_format_loc(first["loc"]) or None)


def read_data(path: str | Path) -> Any:
    """Parse a YAML or JSON file with a safe loader."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", file=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the file: {exc}", file=str(path)) from None
    if path.suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"not valid JSON: {exc.msg}", file=str(path), place=f"line {exc.lineno}"
            ) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(f"not valid YAML: {problem}", file=str(path), place=place) from None


def parse_scenario(data: Any, file: str | None = None) -> Scenario:
    if not isinstance(data, dict):
        raise InputError("a scenario must be a mapping with `defender` and `attacker`", file=file)
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        raise _validation_error(exc, file) from None


def load_organisation(name: str, file: str | None, place: str) -> Organisation:
    path = models_dir() / "orgs" / f"{name}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in (models_dir() / "orgs").glob("*.yaml"))
        raise InputError(
            f"no organisation '{name}' (shipped: {', '.join(known)})", file=file, place=place
        )
    try:
        return Organisation.model_validate(read_data(path))
    except ValidationError as exc:
        raise _validation_error(exc, str(path)) from None


@dataclass
class SideForce:
    """One side's stands (in file order) and its organisation graph."""

    name: SideName
    stands: dict[str, Stand]
    units: list[Unit]
    org: OrgGraph

    def ids(self, role: Role | None = None) -> list[str]:
        return [i for i, s in self.stands.items() if role is None or ROLES[s.type] == role]


def _expand_force(force: Force, side: SideName, file: str | None) -> tuple[list[Unit], list[Stand]]:
    units, stands = list(force.units), list(force.stands)
    if force.organisation is None:
        if force.present:
            raise InputError(
                "`present` needs an `organisation` to take the stands from",
                file=file,
                place=f"{side}.present",
            )
        return units, stands
    org = load_organisation(force.organisation, file, f"{side}.organisation")
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
    return list(org.units) + units, chosen + stands


def _check_units(units: list[Unit], side: SideName, file: str | None) -> None:
    seen: set[str] = set()

    def walk(unit: Unit, place: str) -> None:
        if unit.id in seen:
            raise InputError(f"duplicate unit id '{unit.id}'", file=file, place=place)
        seen.add(unit.id)
        for i, child in enumerate(unit.units):
            walk(child, f"{place}.units[{i}]")

    for i, unit in enumerate(units):
        walk(unit, f"{side}.units[{i}]")


@dataclass
class Battle:
    """A validated, resolved scenario: what the rules and the model work on."""

    scenario: Scenario
    defender: SideForce
    attacker: SideForce
    ruleset: Ruleset
    file: str | None = None
    _side_of: dict[str, SideName] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._side_of = {i: "defender" for i in self.defender.stands} | {
            i: "attacker" for i in self.attacker.stands
        }

    @property
    def capacity(self) -> int:
        return self.scenario.building.capacity

    @property
    def allocation(self) -> Allocation | None:
        return self.scenario.allocation

    def side(self, name: SideName) -> SideForce:
        return self.defender if name == "defender" else self.attacker

    def side_of(self, stand_id: str) -> SideName:
        return self._side_of[stand_id]

    def stand(self, stand_id: str) -> Stand:
        return self.side(self.side_of(stand_id)).stands[stand_id]

    def role(self, stand_id: str) -> Role:
        return ROLES[self.stand(stand_id).type]

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
        reach = self.ruleset.value("near_centres") * self.scenario.stand_width
        return dist(leader.position, stand.position) <= reach

    def with_allocation(self, allocation: Allocation | None) -> Battle:
        scenario = self.scenario.model_copy(update={"allocation": allocation})
        _check_allocation(scenario, self._side_of, self.file)
        return Battle(scenario, self.defender, self.attacker, self.ruleset, self.file)


def _check_allocation(scenario: Scenario, side_of: dict[str, SideName], file: str | None) -> None:
    allocation = scenario.allocation
    if allocation is None:
        return

    def expect(stand_id: str, side: SideName, place: str) -> None:
        if stand_id not in side_of:
            raise InputError(f"the scenario has no stand '{stand_id}'", file=file, place=place)
        if side_of[stand_id] != side:
            raise InputError(
                f"'{stand_id}' is one of the {side_of[stand_id]}'s stands; this part lists "
                f"the {side}'s",
                file=file,
                place=place,
            )

    for name, ids in (allocation.combats or {}).items():
        for i, stand_id in enumerate(ids):
            expect(stand_id, "defender", f"allocation.combats.{name}[{i}]")
    for name, ids in (allocation.attack or {}).items():
        for i, stand_id in enumerate(ids):
            expect(stand_id, "attacker", f"allocation.attack.{name}[{i}]")
    for stand_id in allocation.reallocate or {}:
        expect(stand_id, "defender", f"allocation.reallocate.{stand_id}")
    if allocation.attack is not None and allocation.combats is None:
        raise InputError(
            "`attack` needs the defender's `combats` first", file=file, place="allocation"
        )
    if allocation.reallocate is not None and allocation.attack is None:
        raise InputError("`reallocate` needs the `attack` first", file=file, place="allocation")


def battle_from_scenario(
    scenario: Scenario, file: str | None = None, base_dir: Path | None = None
) -> Battle:
    """Resolve organisations, check every cross-reference, build the org graphs."""
    sides: dict[SideName, SideForce] = {}
    seen_stands: dict[str, str] = {}
    for side in ("defender", "attacker"):
        force: Force = getattr(scenario, side)
        units, stands = _expand_force(force, side, file)
        _check_units(units, side, file)
        org = OrgGraph(units)
        by_id: dict[str, Stand] = {}
        for i, stand in enumerate(stands):
            place = f"{side}.stands[{i}]" if force.organisation is None else f"{side}.{stand.id}"
            if stand.id in seen_stands:
                raise InputError(
                    f"duplicate stand id '{stand.id}' (already used in {seen_stands[stand.id]})",
                    file=file,
                    place=place,
                )
            if stand.unit not in org:
                raise InputError(
                    f"stand '{stand.id}' names unit '{stand.unit}', which the {side} does not have",
                    file=file,
                    place=f"{place}.unit",
                )
            seen_stands[stand.id] = place
            by_id[stand.id] = stand
        if not by_id:
            raise InputError(f"the {side} has no stands in this fight", file=file, place=side)
        sides[side] = SideForce(side, by_id, units, org)
    for side in ("defender", "attacker"):
        for stand in sides[side].stands.values():
            for other in stand.near:
                if other not in sides[side].stands:
                    raise InputError(
                        f"'{stand.id}' is near '{other}', which is not an {side}'s stand here",
                        file=file,
                        place=f"{side}.{stand.id}.near",
                    )
    attackers = sides["attacker"]
    if not any(
        ROLES[s.type] == Role.squad or s.type in COMMANDERS for s in attackers.stands.values()
    ):
        raise InputError(
            "the attacker needs at least one squad (or a CC/BC) to assault with",
            file=file,
            place="attacker.stands",
        )
    try:
        ruleset = load_ruleset(scenario.ruleset, base_dir)
    except InputError as exc:
        if exc.file is None:
            raise InputError(exc.problem, file=file, place=exc.place or "ruleset") from None
        where = f" (in {exc.file}{f', {exc.place}' if exc.place else ''})"
        raise InputError(f"{exc.problem}{where}", file=file, place="ruleset") from None
    _check_allocation(scenario, {s: n for n in sides for s in sides[n].stands}, file)
    return Battle(scenario, sides["defender"], sides["attacker"], ruleset, file)


def battle_from_data(data: Any, file: str | None = None, base_dir: Path | None = None) -> Battle:
    return battle_from_scenario(parse_scenario(data, file), file, base_dir)


def load_battle(path: str | Path) -> Battle:
    """Read, validate and resolve a scenario file."""
    path = Path(path)
    return battle_from_data(read_data(path), str(path), path.parent)
