"""The organisation library (models/orgs/) loads and answers organisational questions right.

Every organisational question goes through :class:`~allocator.games.crossfire.orgs.OrgGraph` (or
the battle's wrappers around it): a company weapon belongs to its company, a battalion-level
weapon to the battalion, and a leader commands exactly the subtree of the unit he leads.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

from allocator.core.reader import read_file as read_data
from allocator.games.crossfire.battle import Battle, Role, battle_from_data
from allocator.games.crossfire.orgs import OrgGraph
from allocator.games.crossfire.schema import Organisation, StandType, UnitKind

ORG_DIR = Path(__file__).resolve().parents[2] / "models" / "orgs"
ORGS = sorted(p.stem for p in ORG_DIR.glob("*.yaml"))

#: A small inline force to stand opposite an organisation.
OPPONENT: dict[str, Any] = {
    "units": [
        {"id": "opp-coy", "kind": "company", "units": [{"id": "opp-plt", "kind": "platoon"}]}
    ],
    "stands": [{"id": "opp-sq1", "type": "rifle", "unit": "opp-plt"}],
}


@cache
def organisation(name: str) -> Organisation:
    return Organisation.model_validate(read_data(ORG_DIR / f"{name}.yaml"))


@cache
def fielded(name: str, side: str = "defender") -> Battle:
    """A scenario fielding the whole organisation (no `present` list: every stand)."""
    other = "attacker" if side == "defender" else "defender"
    return battle_from_data({side: {"organisation": name}, other: OPPONENT})


def org_battle(name: str, present: list[str]) -> Battle:
    return battle_from_data(
        {"defender": {"organisation": name, "present": present}, "attacker": OPPONENT}
    )


def test_the_library_has_the_four_nations() -> None:
    for name in (
        "us-rifle-company-1944",
        "german-rifle-company",
        "soviet-rifle-company",
        "japanese-rifle-company",
    ):
        assert name in ORGS


@pytest.mark.parametrize("name", ORGS)
def test_org_file_loads_through_a_scenario(name: str) -> None:
    org = organisation(name)
    assert org.name == name
    assert (ORG_DIR / f"{name}.yaml").read_text(encoding="utf-8").startswith("#"), (
        f"{name}.yaml needs a comment header saying where its structure comes from"
    )
    for side in ("defender", "attacker"):
        battle = fielded(name, side)
        force = battle.side(side)
        assert list(force.stands) == [s.id for s in org.stands]
        assert all(stand.unit in force.org for stand in force.stands.values())


@pytest.mark.parametrize("name", ORGS)
def test_leaders_lead_the_right_kind_of_unit(name: str) -> None:
    graph = OrgGraph(organisation(name).units)
    expected = {
        StandType.pc: UnitKind.platoon,
        StandType.cc: UnitKind.company,
        StandType.bc: UnitKind.battalion,
    }
    led: dict[str, list[str]] = {}
    for stand in organisation(name).stands:
        if stand.type in expected:
            assert graph.kind(stand.unit) == expected[stand.type], stand.id
            led.setdefault(stand.unit, []).append(stand.id)
        if stand.type in expected or stand.type == StandType.commissar:
            assert stand.rating is not None, f"{stand.id} needs a rating"
    assert all(len(leaders) == 1 for leaders in led.values()), led
    battalions = [u for u in graph.graph.nodes if graph.kind(u) == UnitKind.battalion]
    assert not battalions or any(  # the battalion's support: its own weapons (a support
        graph.organisational_unit(stand.unit) in battalions  # company, HQ or attachment)
        for stand in organisation(name).stands
        if stand.type in (StandType.hmg, StandType.mortar, StandType.gun, StandType.jhmg)
    )


@pytest.mark.parametrize("name", ORGS)
def test_every_rifle_platoon_has_a_pc_and_its_squads(name: str) -> None:
    org = organisation(name)
    graph = OrgGraph(org.units)
    for unit in graph.graph.nodes:
        if graph.kind(unit) != UnitKind.platoon:
            continue
        here = [s for s in org.stands if s.unit == unit]
        squads = [s for s in here if s.type in (StandType.rifle, StandType.smg)]
        if squads:
            assert [s.type for s in here].count(StandType.pc) == 1, unit
            assert len(squads) in (3, 4), unit


def test_stand_ids_are_unique_across_the_library() -> None:
    seen: dict[str, str] = {}
    for name in ORGS:
        for stand in organisation(name).stands:
            assert stand.id not in seen, f"{stand.id} in {name} and {seen[stand.id]}"
            seen[stand.id] = name


@pytest.mark.parametrize("defender,attacker", list(permutations(ORGS, 2)))
def test_any_two_organisations_can_face_each_other(defender: str, attacker: str) -> None:
    battle = battle_from_data(
        {"defender": {"organisation": defender}, "attacker": {"organisation": attacker}}
    )
    assert len(battle.defender.stands) == len(organisation(defender).stands)
    assert len(battle.attacker.stands) == len(organisation(attacker).stands)


# --- organisational questions ----------------------------------------------------------------

WEAPON_SCOPES = [
    # (organisation, weapon, its organisational unit)
    ("us-rifle-company-1944", "us-wpns-mg", "coy"),
    ("us-rifle-company-1944", "us-wpns-mortar", "coy"),
    ("us-rifle-company-1944", "us-bn-hmg", "bn"),
    ("us-rifle-company-1944", "us-bn-mortar", "bn"),
    ("german-rifle-company", "de-coy-hmg", "coy"),
    ("german-rifle-company", "de-bn-hmg1", "bn"),
    ("german-rifle-company", "de-bn-mortar", "bn"),
    ("soviet-rifle-company", "su-coy-hmg", "coy"),
    ("soviet-rifle-company", "su-bn-hmg", "bn"),
    ("soviet-rifle-company", "su-bn-mortar", "bn"),
    ("japanese-rifle-company", "jp-bn-gun", "bn"),
]


@pytest.mark.parametrize("name,weapon,scope", WEAPON_SCOPES)
def test_weapon_organisational_unit(name: str, weapon: str, scope: str) -> None:
    """A company weapon's organisational unit is its company; a support company's, the battalion."""
    battle = fielded(name)
    stand = battle.stand(weapon)
    assert battle.role(weapon) == Role.weapon
    assert battle.defender.org.organisational_unit(stand.unit) == scope


PAIRINGS = [
    # (organisation, weapon, squad, may pair at step 2)
    ("us-rifle-company-1944", "us-wpns-mg", "us-3plt-sq2", True),
    ("us-rifle-company-1944", "us-bn-hmg", "us-1plt-sq1", True),
    ("german-rifle-company", "de-coy-hmg", "de-2plt-sq3", True),
    ("german-rifle-company", "de-bn-hmg2", "de-1plt-sq1", True),
    ("soviet-rifle-company", "su-coy-hmg", "su-1plt-sq4", True),
    ("soviet-rifle-company", "su-coy-hmg", "su-smg-1plt-sq1", False),
    ("soviet-rifle-company", "su-bn-hmg", "su-smg-2plt-sq3", True),
    ("japanese-rifle-company", "jp-bn-gun", "jp-bn-jhmg1", True),
    ("japanese-rifle-company", "jp-bn-gun", "jp-2plt-sq1", True),
]


@pytest.mark.parametrize("name,weapon,squad,allowed", PAIRINGS)
def test_weapon_pairs_only_within_its_organisational_unit(
    name: str, weapon: str, squad: str, allowed: bool
) -> None:
    assert fielded(name).same_organisation(weapon, squad) is allowed


COMMAND = [
    # (organisation, leader, stand, is the stand one of his troops)
    ("us-rifle-company-1944", "us-1plt-pc", "us-1plt-sq3", True),
    ("us-rifle-company-1944", "us-1plt-pc", "us-2plt-sq1", False),
    ("us-rifle-company-1944", "us-2plt-pc", "us-wpns-mg", False),
    ("us-rifle-company-1944", "us-coy-cc", "us-wpns-mortar", True),
    ("us-rifle-company-1944", "us-coy-cc", "us-bn-hmg", False),
    ("us-rifle-company-1944", "us-bn-bc", "us-bn-hmg", True),
    ("us-rifle-company-1944", "us-bn-bc", "us-3plt-sq1", True),
    ("german-rifle-company", "de-1plt-pc", "de-1plt-sq1", True),
    ("german-rifle-company", "de-1plt-pc", "de-2plt-sq1", False),
    ("german-rifle-company", "de-2plt-pc", "de-coy-hmg", False),
    ("german-rifle-company", "de-coy-cc", "de-coy-hmg", True),
    ("german-rifle-company", "de-coy-cc", "de-3plt-sq3", True),
    ("german-rifle-company", "de-coy-cc", "de-bn-hmg1", False),
    ("soviet-rifle-company", "su-1plt-pc", "su-1plt-sq4", True),
    ("soviet-rifle-company", "su-1plt-pc", "su-2plt-sq1", False),
    ("soviet-rifle-company", "su-smg-1plt-pc", "su-smg-1plt-sq3", True),
    ("soviet-rifle-company", "su-smg-1plt-pc", "su-smg-2plt-sq1", False),
    ("soviet-rifle-company", "su-coy-cc", "su-smg-1plt-sq1", False),
    ("soviet-rifle-company", "su-smg-cc", "su-smg-2plt-sq2", True),
    ("soviet-rifle-company", "su-bn-commissar", "su-smg-2plt-sq2", True),
    ("soviet-rifle-company", "su-bn-commissar", "su-3plt-sq1", True),
    ("japanese-rifle-company", "jp-1plt-pc", "jp-1plt-sq2", True),
    ("japanese-rifle-company", "jp-1plt-pc", "jp-bn-jhmg1", False),
    ("japanese-rifle-company", "jp-coy-cc", "jp-bn-jhmg1", False),
    ("japanese-rifle-company", "jp-bn-bc", "jp-bn-jhmg2", True),
]


@pytest.mark.parametrize("name,leader,stand,commands", COMMAND)
def test_leader_commands_his_subtree_only(
    name: str, leader: str, stand: str, commands: bool
) -> None:
    assert fielded(name).commands(leader, stand) is commands


def test_a_pc_commands_his_platoon_and_no_other() -> None:
    """Through the graph itself: a PC's unit is his platoon; its subtree is his troops."""
    graph = fielded("german-rifle-company").defender.org
    assert graph.commands("1plt", "1plt")
    assert not graph.commands("1plt", "2plt")
    assert not graph.commands("1plt", "coy")
    assert graph.commands("coy", "3plt")
    assert graph.commands("bn", "mg-coy")
    assert not graph.commands("coy", "mg-coy")


def test_present_takes_only_the_listed_stands() -> None:
    battle = org_battle("german-rifle-company", ["de-1plt-sq1", "de-coy-hmg"])
    assert list(battle.defender.stands) == ["de-1plt-sq1", "de-coy-hmg"]
    assert battle.defender.org.organisational_unit(battle.stand("de-coy-hmg").unit) == "coy"


# --- what each nation's shipped organisation (models/orgs) holds ----------------------------


def _stands(name: str, **where: Any) -> list[str]:
    return [
        s.id for s in organisation(name).stands if all(getattr(s, k) == v for k, v in where.items())
    ]


def test_us_company_shape() -> None:
    name = "us-rifle-company-1944"
    assert len(_stands(name, type=StandType.rifle)) == 9
    assert len(_stands(name, type=StandType.pc)) == 3
    assert _stands(name, unit="wpns-plt") == ["us-wpns-mg", "us-wpns-mortar"]
    assert organisation(name).nation == "US"


def test_german_ratings() -> None:
    battle = fielded("german-rifle-company")
    assert battle.stand("de-coy-cc").rating == 2
    assert battle.stand("de-1plt-pc").rating == 2
    assert battle.stand("de-2plt-pc").rating == 1
    assert battle.stand("de-3plt-pc").rating == 1
    assert battle.role("de-coy-hmg") == Role.weapon
    assert len(_stands("german-rifle-company", unit="mg-coy", type=StandType.hmg)) >= 1


def test_soviet_platoons_smg_company_and_commissar() -> None:
    name = "soviet-rifle-company"
    for plt in ("1plt", "2plt", "3plt"):
        assert len(_stands(name, unit=plt, type=StandType.rifle)) == 4
    for plt in ("smg-1plt", "smg-2plt"):
        assert len(_stands(name, unit=plt, type=StandType.smg)) == 3
        assert len(_stands(name, unit=plt, type=StandType.pc)) == 1
    battle = fielded(name)
    commissar = battle.stand("su-bn-commissar")
    assert commissar.rating == 2
    assert battle.defender.org.kind(commissar.unit) in (
        UnitKind.battalion,
        UnitKind.company,
        UnitKind.platoon,
    )


def test_japanese_hmg_is_a_squad() -> None:
    name = "japanese-rifle-company"
    battle = fielded(name)
    jhmgs = _stands(name, type=StandType.jhmg)
    assert jhmgs
    assert all(battle.role(s) == Role.squad for s in jhmgs)
    assert not _stands(name, type=StandType.hmg), "a Japanese HMG is a squad (jhmg), never hmg"
