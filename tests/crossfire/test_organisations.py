"""The organisation library as players meet it (issue 17, items 4 and 5): every shipped
organisation has a display name, its sources (or says it is typical), example ratings, readable
names and counter labels that fit; it expands within the limits; its leaders command real
subtrees; its weapons pair by the organisational unit of docs/rules.md, "Organisation", worked out
here independently of ``OrgGraph``; each new nation fights in a shipped scenario; and names and
labels in a scenario keep the hostile-input contract.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from contract import answered, assert_clean, refused
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.core.library import folder, names
from allocator.core.limits import default_limits
from allocator.core.reader import read_file
from allocator.games.crossfire.battle import (
    ROLES,
    Battle,
    Role,
    battle_from_data,
    load_organisation,
)
from allocator.games.crossfire.schema import (
    LABEL_LENGTH,
    Organisation,
    SideName,
    Stand,
    StandType,
    Unit,
    UnitKind,
)

ORGS = names("orgs")
#: The organisations of issue 17, item 5, beside the four of before, and the nation of each.
NEW = {
    "british-rifle-company-1944": "Britain",
    "canadian-rifle-company-1941": "Canada",
    "italian-rifle-company": "Italy",
    "french-rifle-company-1940": "France",
    "finnish-rifle-company": "Finland",
    "soviet-smg-company": "USSR",
}
BEFORE = ["german-rifle-company", "japanese-rifle-company", "soviet-rifle-company"]
BEFORE += ["us-rifle-company-1944"]
SCENARIOS = sorted(folder("scenarios").glob("org-*.yaml"))
#: What a leader type commands (docs/rules.md, "Organisation").
COMMANDS = {StandType.pc: UnitKind.platoon, StandType.cc: UnitKind.company}
COMMANDS[StandType.bc] = UnitKind.battalion
WEAPONS = {StandType.hmg, StandType.mortar, StandType.gun}
OPPONENT: dict[str, Any] = {
    "units": [{"id": "opp-plt", "kind": "platoon"}],
    "stands": [{"id": "opp-sq1", "type": "rifle", "unit": "opp-plt"}],
}
runner = CliRunner()


def org(name: str) -> Organisation:
    return load_organisation(name)


@cache
def fielded(name: str, side: SideName = "defender") -> Battle:
    """A scenario fielding every stand of the organisation, within the default limits."""
    other = "attacker" if side == "defender" else "defender"
    return battle_from_data({side: {"organisation": name}, other: OPPONENT})


def walk(
    units: list[Unit], above: tuple[Unit, ...] = ()
) -> Iterator[tuple[Unit, tuple[Unit, ...]]]:
    """Every unit with the chain of units above it (nearest first)."""
    for unit in units:
        yield unit, above
        yield from walk(unit.units, (unit, *above))


def chains(name: str) -> dict[str, tuple[Unit, ...]]:
    """Each unit id with the unit itself and every unit above it, nearest first."""
    return {unit.id: (unit, *above) for unit, above in walk(org(name).units)}


def scope(name: str, weapon: Stand) -> str | None:
    """The weapon's organisational unit, by the words of docs/rules.md: the nearest company
    (its own unit included), else the nearest battalion, else the whole force (None)."""
    chain = chains(name)[weapon.unit]
    for kind in (UnitKind.company, UnitKind.battalion):
        found = [unit.id for unit in chain if unit.kind == kind]
        if found:
            return found[0]
    return None


def in_subtree(name: str, top: str | None, unit: str) -> bool:
    return top is None or top in {u.id for u in chains(name)[unit]}


# --- the library --------------------------------------------------------------------------------


def test_the_library_has_ten_organisations_of_eight_nations() -> None:
    assert set(NEW) | set(BEFORE) <= set(ORGS)
    for name, nation in NEW.items():
        assert org(name).nation == nation
    assert len({org(name).nation for name in ORGS}) >= 8


@pytest.mark.parametrize("name", ORGS)
def test_an_organisation_says_what_it_is_and_where_it_comes_from(name: str) -> None:
    shipped = org(name)
    assert shipped.name == name
    assert shipped.title and shipped.title[0].isupper() and shipped.title != name
    assert shipped.nation
    assert shipped.sources and all(len(source.split()) >= 8 for source in shipped.sources)
    if shipped.typical:
        assert "typical" in " ".join(shipped.sources).lower() or "Typical" in shipped.description
    lines = (folder("orgs") / f"{name}.yaml").read_text(encoding="utf-8").splitlines()
    header = " ".join(line.removeprefix("#").strip() for line in lines if line.startswith("#"))
    assert 'docs/rules.md, "Organisation"' in header, "the header cites how a tree is read"
    assert "EXAMPLES" in header and "Ratings are examples." in shipped.description


def test_titles_are_distinct() -> None:
    titles = [org(name).title for name in ORGS]
    assert len(set(titles)) == len(titles)


@pytest.mark.parametrize("name", ORGS)
@pytest.mark.parametrize("side", ["defender", "attacker"])
def test_an_organisation_expands_whole_within_the_limits(name: str, side: SideName) -> None:
    force = fielded(name, side).side(side)
    assert list(force.stands) == [stand.id for stand in org(name).stands]
    assert len(force.stands) <= default_limits().max_stands_per_side
    assert force.title == org(name).title


# --- readable names -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ORGS)
def test_every_unit_and_stand_has_a_readable_name_and_a_label_that_fits(name: str) -> None:
    shipped = org(name)
    units = [unit for unit, _ in walk(shipped.units)]
    assert all(unit.name for unit in units), [u.id for u in units if not u.name]
    stand_names = [stand.name for stand in shipped.stands]
    labels = [stand.label for stand in shipped.stands]
    assert all(stand_names) and all(labels)
    assert len(set(stand_names)) == len(stand_names), "two stands share a name"
    assert len(set(labels)) == len(labels), "two counters share a label"
    for label in labels:
        assert label is not None and len(label) <= LABEL_LENGTH <= 8, label
        assert label == label.strip() and "\n" not in label
    battle = fielded(name)
    for stand in shipped.stands:
        assert battle.stand_name(stand.id) == stand.name
        assert battle.stand_label(stand.id) == stand.label
    for unit in units:
        assert battle.defender.unit_name(unit.id) == unit.name


@pytest.mark.parametrize("name", ORGS)
def test_a_squads_name_names_its_platoon(name: str) -> None:
    """ "1st Platoon, 2nd Squad": the platoon's name comes first (without a native term)."""
    units = {unit.id: unit for unit, _ in walk(org(name).units)}
    for stand in org(name).stands:
        if ROLES[stand.type] == Role.squad and units[stand.unit].kind == UnitKind.platoon:
            platoon = str(units[stand.unit].name).split(" (")[0]
            assert str(stand.name).startswith(f"{platoon}, "), (stand.name, platoon)


def test_a_stand_without_a_name_or_label_is_called_by_its_id() -> None:
    battle = fielded("german-rifle-company")
    assert battle.stand_name("opp-sq1") == battle.stand_label("opp-sq1") == "opp-sq1"
    assert battle.attacker.unit_name("opp-plt") == "opp-plt"
    assert battle.attacker.title is None


def test_a_scenario_gives_its_own_stands_names_and_labels_and_renames_library_stands() -> None:
    battle = battle_from_data(
        {
            "defender": {
                "organisation": "british-rifle-company-1944",
                "present": ["gb-7plt-sec1", {"id": "gb-7plt-sec2", "label": "Cpl Ames"}],
            },
            "attacker": {
                "units": [{"id": "p", "kind": "platoon", "name": "Kampfgruppe Meyer"}],
                "stands": [
                    {"id": "a1", "type": "rifle", "unit": "p", "name": "Meyer's squad"},
                    {"id": "a2", "type": "rifle", "unit": "p", "label": "M/2"},
                ],
            },
        }
    )
    assert battle.stand_label("gb-7plt-sec1") == "7/1 Sec"
    assert battle.stand_label("gb-7plt-sec2") == "Cpl Ames"
    assert battle.stand_name("gb-7plt-sec2") == "7 Platoon, 2 Section"
    assert (battle.stand_name("a1"), battle.stand_label("a1")) == ("Meyer's squad", "a1")
    assert (battle.stand_name("a2"), battle.stand_label("a2")) == ("a2", "M/2")
    assert battle.attacker.unit_name("p") == "Kampfgruppe Meyer"


# --- leaders and their troops -------------------------------------------------------------------


@pytest.mark.parametrize("name", ORGS)
def test_every_leader_commands_a_real_subtree_and_has_an_example_rating(name: str) -> None:
    shipped, battle = org(name), fielded(name)
    kinds = {unit.id: unit.kind for unit, _ in walk(shipped.units)}
    led = {stand.unit for stand in shipped.stands if stand.type in COMMANDS}
    for stand in shipped.stands:
        if ROLES[stand.type] != Role.leader:
            continue
        assert stand.rating is not None and 0 <= stand.rating <= 2, stand.id
        if stand.type == StandType.commissar:
            assert stand.rating == 2 and stand.unit in led, "a Commissar goes with a leader"
            continue
        assert kinds[stand.unit] == COMMANDS[stand.type], stand.id
        troops = battle.troops(stand.id)
        assert troops, f"{stand.id} commands nobody"
        expected = [
            s.id
            for s in shipped.stands
            if ROLES[s.type] in (Role.squad, Role.weapon) and in_subtree(name, stand.unit, s.unit)
        ]
        assert troops == expected, stand.id


@pytest.mark.parametrize("name", ORGS)
def test_a_platoon_is_a_pc_and_three_or_four_squads(name: str) -> None:
    shipped = org(name)
    for unit, _ in walk(shipped.units):
        here = [s for s in shipped.stands if s.unit == unit.id]
        squads = [s for s in here if ROLES[s.type] == Role.squad]
        if unit.kind == UnitKind.platoon and squads:
            assert [s.type for s in here].count(StandType.pc) == 1, unit.id
            assert len(squads) in (3, 4), unit.id


# --- weapons and their organisational unit ------------------------------------------------------


@pytest.mark.parametrize("name", ORGS)
def test_every_weapon_pairs_with_the_squads_of_its_organisational_unit_only(name: str) -> None:
    shipped, battle = org(name), fielded(name)
    squads = [s for s in shipped.stands if ROLES[s.type] == Role.squad]
    for weapon in (s for s in shipped.stands if s.type in WEAPONS):
        top = scope(name, weapon)
        assert battle.defender.org.organisational_unit(weapon.unit) == top, weapon.id
        partners = [s.id for s in squads if battle.same_organisation(weapon.id, s.id)]
        assert partners == [s.id for s in squads if in_subtree(name, top, s.unit)], weapon.id
        assert partners, f"{weapon.id} has no squad of its own to pair with"


def test_company_weapons_pair_within_their_company_and_battalion_weapons_across_it() -> None:
    battle = fielded("soviet-rifle-company")
    assert battle.same_organisation("su-coy-hmg", "su-3plt-sq4")
    assert not battle.same_organisation("su-coy-hmg", "su-smg-2plt-sq1")
    assert battle.same_organisation("su-bn-mortar", "su-smg-2plt-sq1")
    french = fielded("french-rifle-company-1940")  # the company HQ's 60 mm mortar
    assert scope("french-rifle-company-1940", french.stand("fr-coy-mortar")) == "coy"
    canadian = fielded("canadian-rifle-company-1941")  # Headquarters Company: the battalion's
    assert scope("canadian-rifle-company-1941", canadian.stand("ca-bn-mortar")) == "bn"
    british = fielded("british-rifle-company-1944")  # attached from the division's MG battalion
    assert british.defender.org.kind(british.stand("gb-mg-hmg").unit) == UnitKind.attached
    assert british.same_organisation("gb-mg-hmg", "gb-9plt-sec3")


@pytest.mark.parametrize("name", ORGS)
def test_a_japanese_hmg_squad_is_a_squad_and_no_other_nation_has_one(name: str) -> None:
    types = {s.type for s in org(name).stands}
    if org(name).nation == "Japan":
        assert StandType.jhmg in types and StandType.hmg not in types
    else:
        assert StandType.jhmg not in types


def test_the_soviet_smg_company_is_two_platoons_of_three_smg_squads_and_a_commissar() -> None:
    shipped, battle = org("soviet-smg-company"), fielded("soviet-smg-company")
    for platoon in ("1plt", "2plt"):
        here = [s.type for s in shipped.stands if s.unit == platoon]
        assert sorted(here) == sorted([StandType.pc] + [StandType.smg] * 3)
    commissar = battle.stand("susmg-coy-commissar")
    assert commissar.unit == battle.stand("susmg-coy-cc").unit == "smg-coy"
    assert not battle.platoon_leader("susmg-coy-commissar")  # he follows the CC (L2)
    assert not [s for s in shipped.stands if s.type in WEAPONS]


# --- each new nation fights in a shipped scenario -----------------------------------------------


@pytest.mark.parametrize("name", sorted(NEW))
def test_each_new_organisation_fights_in_an_org_scenario(name: str) -> None:
    users = [
        path.name
        for path in SCENARIOS
        if name in (read_file(path)[side].get("organisation") for side in ("defender", "attacker"))
    ]
    assert users, f"no models/scenarios/org-*.yaml fields {name}"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_an_org_scenario_is_legal_and_states_its_exact_values(path: Path) -> None:
    """tests/crossfire/test_scenarios.py holds `cfalloc check` and `cfalloc solve` (both sides)
    to these."""
    data = read_file(path)
    assert re.fullmatch(r"org-[a-z]+(-[a-z]+)*-v-[a-z]+-[a-z]+", path.stem)
    assert data["expect"]["legal"] is True and set(data["expect"]["solve"]) == {"sweep", "take"}
    assert all(data[side].get("organisation") for side in ("defender", "attacker"))
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    solved = runner.invoke(app, ["solve", str(path), "--side", "defender"])
    answered(solved)
    assert "best for the defender" in solved.stdout


# --- names and labels in a hostile file ---------------------------------------------------------


def scenario_file(tmp_path: Path, defender: str, attacker: str | None = None) -> Path:
    path = tmp_path / "fight.yaml"
    path.write_text(
        "building: {name: Barn}\n"
        f"defender:\n{defender}"
        + (
            attacker
            or "attacker:\n  units: [{id: q, kind: platoon}]\n"
            "  stands: [{id: a1, type: rifle, unit: q}]\n"
        ),
        encoding="utf-8",
    )
    return path


def own_stand(field: str) -> str:
    """The defender's own platoon and one rifle squad with ``field`` written in its mapping."""
    return (
        "  units: [{id: p, kind: platoon}]\n"
        f"  stands:\n    - {{id: d1, type: rifle, unit: p, {field}}}\n"
    )


@pytest.mark.parametrize(
    ("field", "needles"),
    [
        ("label: 1st Platoon 2nd Squad", ["defender.stands[0].label", "at most 8 characters"]),
        ('label: ""', ["defender.stands[0].label", "at least 1 character"]),
        ('label: "1/2\\nSqd"', ["defender.stands[0].label", "one line of printable characters"]),
        ('label: "1/2\\x1b[31m"', ["defender.stands[0].label", "one line of printable"]),
        ('label: "1/2\\u202eSqd"', ["defender.stands[0].label", "one line of printable"]),
        (f"name: {'x' * 201}", ["defender.stands[0].name", "at most 200 characters"]),
        (f"name: {'x' * 10_001}", ["a text of 10001 characters", "CFALLOC_MAX_TEXT_LENGTH"]),
        ("label: [1, 2]", ["defender.stands[0].label", "valid string"]),
        ("lable: 1/1 Sqd", ["defender.stands[0]", "lable"]),  # a misspelt key is unknown
    ],
    ids=[
        "long",
        "empty",
        "newline",
        "escape",
        "direction-override",
        "long-name",
        "over-the-text-limit",
        "not-text",
        "misspelt",
    ],
)
def test_a_bad_name_or_label_is_one_clear_line(
    tmp_path: Path, field: str, needles: list[str]
) -> None:
    path = scenario_file(tmp_path, own_stand(field))
    refused(runner.invoke(app, ["check", str(path)]), str(path), *needles)


def test_a_bad_label_in_present_is_one_clear_line(tmp_path: Path) -> None:
    path = scenario_file(
        tmp_path,
        "  organisation: german-rifle-company\n"
        "  present: [{id: de-1plt-sq1, label: Erste Gruppe}]\n",
    )
    line = refused(runner.invoke(app, ["check", str(path)]), str(path), "at most 8 characters")
    assert "defender.present[0]" in line and "label" in line


@pytest.mark.parametrize(
    "command",
    [
        ["check"],
        ["check", "--json"],
        ["solve", "--time-limit", "5"],
        ["solve", "--objective", "take", "--json", "--time-limit", "5"],
        ["explain", "--time-limit", "5"],
        ["simulate", "--seed", "1", "--time-limit", "5"],
    ],
    ids=lambda c: "-".join(c[:2]),
)
def test_control_characters_and_markup_in_names_never_reach_the_terminal(
    tmp_path: Path, command: list[str]
) -> None:
    path = scenario_file(
        tmp_path,
        '  units: [{id: p, kind: platoon, name: "\\e[31mRed\\x07 platoon"}]\n'
        "  stands:\n"
        '    - {id: d1, type: rifle, unit: p, name: "[bold]\\e]0;pwned\\x07[/bold]",'
        ' label: "[b]1/1"}\n',
    )
    result = runner.invoke(app, [command[0], str(path), *command[1:]])
    answered(result, check=command[0] == "check")
    assert_clean(result)
    battle = battle_from_data(read_file(path))
    assert battle.stand_name("d1") == "[bold]\\u001b]0;pwned\\u0007[/bold]"  # escaped, visibly
    assert battle.defender.unit_name("p") == "\\u001b[31mRed\\u0007 platoon"
