"""``cfalloc resolve infinity`` from flags alone: the ruleset, each side's weapon, ammunition,
ARM, BTS, W/VITA, wounds taken and skills; the same answer as the engagement file that says the
same; the choices listed in the help from the profiles' menus; a bad flag refused in one line
naming it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from contract import refused
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.games.infinity.calculator import menus
from allocator.games.infinity.quick import flag_of, skill_choices

runner = CliRunner()

#: An N5 quick roll with something of everything, and the engagement file that says the same.
N5_FLAGS = [
    "--rules", "n5",
    "--active", "13+2/1", "--active-ps", "8", "--active-ammo", "DA",
    "--active-skill", "martial_arts=3", "--active-skill", "immunity=shock",
    "--active-vita", "1",
    "--reactive", "14/1", "--reactive-ps", "7", "--reactive-armour", "2", "--reactive-bts", "3",
    "--reactive-vita", "2", "--reactive-wounds-taken", "1",
    "--reactive-skill", "natural_born_warrior", "--reactive-skill", "dogged",
    "--reactive-trait", "continuous", "--reactive-type", "HI", "--reactive-allies", "1",
]  # fmt: skip
N5_FILE = {
    "rules": "n5",
    "active": {
        "attribute": 13,
        "modifiers": [2],
        "burst": 1,
        "ps": 8,
        "ammunition": "DA",
        "vita": 1,
        "skills": {"martial_arts": 3, "immunity": ["shock"]},
    },
    "reactive": {
        "attribute": 14,
        "burst": 1,
        "ps": 7,
        "armour": 2,
        "bts": 3,
        "vita": 2,
        "wounds_taken": 1,
        "traits": ["continuous"],
        "type": "HI",
        "allies": 1,
        "skills": {"natural_born_warrior": True, "dogged": True},
    },
}


def resolve(*args: str | Path) -> Any:
    return runner.invoke(app, ["resolve", "infinity", *(str(a) for a in args)])


def answer(*args: str | Path) -> Any:
    result = resolve(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_flags_answer_as_the_file_that_says_the_same(tmp_path: Path) -> None:
    path = tmp_path / "engagement.yaml"
    path.write_text(yaml.safe_dump(N5_FILE), encoding="utf-8")
    from_flags = answer(*N5_FLAGS)
    assert from_flags == answer(path)
    details = from_flags["details"]
    assert details["rules"] == "n5" and details["special_dice"] == {"active": 1}
    assert details["reactive"]["burst"] == 2  # one ally in contact
    assert [t["side"] for t in details["troopers"]] == ["active", "reactive"]


def test_an_n4_quick_roll_keeps_its_old_flags() -> None:
    details = answer("--active", "14+3/3", "--reactive", "13/1", "--active-damage", "13")["details"]
    assert details["rules"] == "n4" and details["wounds"][0]["target"] == "reactive"


def test_skills_are_written_as_the_menus_offer_them() -> None:
    n4 = answer(
        "--active", "12/1", "--active-skill", "natural-born-warrior=b",
        "--active-skill", "guard=2", "--active-skill", "berserk=3",
        "--reactive", "12/1", "--reactive-skill", "i_kohl=1",
    )["details"]  # fmt: skip
    sources = {row["source"] for row in n4["modifiers"]}
    assert {"Natural Born Warrior B", "Guard L2", "Berserk"} <= sources
    assert n4["roll"] == "normal_rolls"


@pytest.mark.parametrize(
    ("flags", "title"),
    [
        (["--active", "12/1", "--reactive", "12/1"], "Face to Face roll"),
        (["--active", "12/1"], "Normal Roll"),
        (["--active", "12/1", "--active-skill", "berserk", "--reactive", "12/1"],
         "two Normal Rolls under Berserk"),
    ],
    ids=["face-to-face", "normal", "berserk"],
)  # fmt: skip
def test_the_title_says_the_roll_made(flags: list[str], title: str) -> None:
    result = resolve(*flags)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == f"Infinity close combat: {title}"


def test_the_report_lists_every_modifier_applied() -> None:
    shown = answer(*N5_FLAGS)["details"]["modifiers"]
    text = " ".join(resolve(*N5_FLAGS).stdout.split())
    assert "Modifiers applied" in text
    for row in shown:
        assert " ".join(row["note"].split()[:3]) in text, row


def test_the_help_lists_the_choices_of_both_rulesets() -> None:
    text = " ".join(resolve("--help").stdout.split())
    for flag in ("--rules", "--active-ps", "--reactive-skill", "--active-wounds-taken"):
        assert flag in text
    for menu in menus().rulesets:
        assert f"{menu.name}: {', '.join(item.name for item in menu.ammunition)}" in text
        assert f"{menu.name}: {skill_choices(menu)}" in text
        assert all(item.name in text for item in menu.traits)
    assert "martial_arts=1..5" in text and "natural_born_warrior=A|B" in text


@pytest.mark.parametrize(
    ("flags", "needles"),
    [
        (["--rules", "n6"], ["--rules:", "'n4' or 'n5'"]),
        (["--active-skill", "kung_fu"], ["--active-skill:", "no skill 'kung_fu'", "martial_arts"]),
        (["--rules", "n5", "--active-skill", "i_kohl=2"], ["--active-skill:", "no skill 'i_kohl'"]),
        (["--active-skill", "martial_arts"], ["--active-skill:", "needs its level"]),
        (["--active-skill", "martial_arts=9"], ["--active-skill:", "1, 2, 3, 4, 5, not '9'"]),
        (["--active-skill", "dogged=3"], ["--active-skill:", "takes no level"]),
        (["--active-skill", "berserk=lots"], ["--active-skill:", "the MOD in its brackets"]),
        (["--active-skill", "guard=1", "--active-skill", "guard=2"], ["Guard is given twice"]),
        (["--active-skill", "immunity=all"], ["--active-skill:", "no immunity 'all'"]),
        (["--active-ammo", "Nuke", "--active-damage", "13"], ["--active-ammo:", "'Nuke'"]),
        (["--rules", "n5", "--active-damage", "13"], ["--active-damage:", "PS"]),
        (["--active-ps", "8"], ["--active-ps:", "DAM"]),
        (["--active-trait", "sticky"], ["--active-trait:", "no weapon trait 'sticky'"]),
        (["--reactive-type", "XX"], ["--reactive-type:", "'LI'"]),
        (["--reactive-action", "run"], ["--reactive-action:", "'dodge'"]),
        (["--active-vita", "0"], ["--active-vita:", "greater than or equal to 1"]),
        (["--active-wounds-taken", "1"], ["--active-wounds-taken:", "W of at least 1"]),
        (["--active-vita", "1", "--active-wounds-taken", "2"], ["would be Dead"]),
        (["--active-allies", "30"], ["--active-allies:", "less than or equal to 20"]),
        (["--active-armour", "-1"], ["--active-armour:", "greater than or equal to 0"]),
        (["--reactive", "12/x"], ["--reactive: '12/x' is not SV/B"]),
        (["--active", "12/30"], ["--active:", "Burst 30"]),
    ],
    ids=lambda value: "-".join(value)[:40] if isinstance(value, list) else None,
)
def test_a_bad_flag_is_one_line_naming_it(flags: list[str], needles: list[str]) -> None:
    base = ["--active", "12/1", "--reactive", "12/1"]
    given = base + flags if "--active" not in flags else flags
    refused(resolve(*given), *needles)


def test_flags_and_a_file_are_not_both_given(tmp_path: Path) -> None:
    path = tmp_path / "engagement.yaml"
    path.write_text(yaml.safe_dump(N5_FILE), encoding="utf-8")
    refused(resolve(path, "--rules", "n5"), "not both")


@pytest.mark.parametrize(
    ("place", "flag"),
    [
        ("active", "--active"),
        ("active.burst", "--active"),
        ("active.modifiers[2]", "--active"),
        ("reactive.ammunition", "--reactive-ammo"),
        ("reactive.traits[0]", "--reactive-trait"),
        ("active.skills.immunity[1]", "--active-skill immunity"),
        ("active.wounds_taken", "--active-wounds-taken"),
        ("rules", "--rules"),
    ],
)
def test_every_place_of_a_trooper_has_its_flag(place: str, flag: str) -> None:
    assert flag_of(place) == flag
