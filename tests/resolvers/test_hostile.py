"""Hostile files through ``cfalloc resolve``: one line on stderr and exit 2, or a safe answer.

Every case runs the real command in-process. A refusal is exit 2, exactly one line on stderr,
nothing on stdout and no traceback; an accepted file with markup or escape sequences in its names
prints them as plain text: no control character and no live markup reaches stdout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from contract import CONTROL, refused
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.core.library import folder
from allocator.core.limits import Limits, default_limits
from allocator.games.infinity import rolls
from allocator.games.infinity.rolls import BURST_BOUND
from allocator.games.matched_dice import assault
from allocator.games.matched_dice.assault import ROUNDS_BOUND
from allocator.games.percentile import procedure

EXAMPLES = folder("scenarios")
runner = CliRunner()

#: Every resolve command (each takes its file as an argument).
COMMANDS = ["battlesystem", "infinity", "infinity-allocate", "matched-dice", "percentile"]


def base(command: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(
        (EXAMPLES / command / f"{name}.yaml").read_text(encoding="utf-8")
    )
    return data


BASES = {
    "infinity": lambda: base("infinity", "melee"),
    "infinity-allocate": lambda: base("infinity-allocate", "sniper"),
    "matched-dice": lambda: base("matched-dice", "assault-grid"),
    "battlesystem": lambda: base("battlesystem", "keep-gatehouse"),
    "percentile": lambda: base("percentile", "pillbox"),
}


def write(
    tmp_path: Path, content: str | bytes | dict[str, Any], name: str = "hostile.yaml"
) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        text = content if isinstance(content, str) else yaml.safe_dump(content)
        path.write_text(text, encoding="utf-8")
    return path


def run(command: str, path: Path, *extra: str) -> Any:
    args = ["resolve", command, str(path), *extra]
    return runner.invoke(app, args)


# --- malformed files, for every command -------------------------------------------------------

ALIAS_BOMB = "\n".join(
    ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]" for i in range(8)]
)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("content", "needles"),
    [
        (b"name: caf\xe9\n", ["not UTF-8 text", "byte 0xe9"]),
        ("a: " + "[" * 60 + "]" * 60 + "\n", ["nested", "CFALLOC_MAX_DEPTH"]),
        (ALIAS_BOMB, ["too many values", "CFALLOC_MAX_VALUES"]),
        ("a: " + "9" * 60 + "\n", ["a number of 60 digits", "CFALLOC_MAX_NUMBER_DIGITS"]),
        ("a: !!python/object:os.system x\n", ["YAML tag"]),
        ("a: 1\na: 2\n", ["duplicate key"]),
        ("[1, 2\n", ["not valid YAML"]),
    ],
    ids=["non-utf8", "deep", "alias-bomb", "digits", "tag", "duplicate", "broken"],
)
def test_malformed_files_are_refused_in_one_line(tmp_path, command, content, needles):
    path = write(tmp_path, content)
    refused(run(command, path), str(path), *needles)


@pytest.mark.parametrize("option", ["--profile", "--tables"])
def test_a_non_utf8_profile_is_refused(tmp_path, option):
    command, example = ("percentile", "pillbox") if option == "--tables" else ("infinity", "melee")
    profile = write(tmp_path, b"modifier_cap: \xff\n", "profile.yaml")
    path = write(tmp_path, BASES[command](), f"{example}.yaml")
    refused(run(command, path, option, str(profile)), str(profile), "not UTF-8 text")


# --- numbers out of range ---------------------------------------------------------------------


def _set(data: dict[str, Any], place: str, value: Any) -> dict[str, Any]:
    target: Any = data
    *path, last = place.split(".")
    for key in path:
        target = target[int(key)] if key.isdigit() else target[key]
    target[int(last) if last.isdigit() else last] = value
    return data


@pytest.mark.parametrize(
    ("command", "place", "value", "needles"),
    [
        ("infinity", "active.attribute", 10**25, ["active.attribute", "less than or equal"]),
        ("infinity", "active.modifiers", [10**20], ["active.modifiers[0]"]),
        ("infinity", "reactive.damage", -5, ["reactive.damage"]),
        ("infinity", "active.burst", BURST_BOUND + 1, ["active.burst"]),
        ("infinity-allocate", "targets.0.touching", 10**20, ["targets[0].touching"]),
        ("infinity-allocate", "troopers.0.attribute", 10**20, ["troopers[0].attribute"]),
        ("matched-dice", "attacking_bases.0.unwounded_sps", 10**20, ["unwounded_sps"]),
        ("matched-dice", "position", [10**20, 1], ["position[0]"]),
        ("battlesystem", "rooms.0.width_in", 1e300, ["rooms[0].width_in"]),
        ("battlesystem", "stands.0.x", 1e300, ["stands[0].x"]),
        ("battlesystem", "stands.0.figure_width_in", 1e-300, ["figure_width_in"]),
        ("battlesystem", "stands.0.figures", 10**20, ["stands[0].figures"]),
        ("percentile", "attacker.distance_in", 1e300, ["attacker.distance_in"]),
        ("percentile", "defender.route_modifiers", [10**20], ["route_modifiers[0]"]),
        ("percentile", "turns", ROUNDS_BOUND + 1, ["turns"]),
    ],
)
def test_numbers_out_of_range_are_refused_by_the_schema(tmp_path, command, place, value, needles):
    data = _set(BASES[command](), place, value)
    refused(run(command, write(tmp_path, data)), *needles)


def test_infinite_float_from_yaml_is_refused(tmp_path):
    text = (EXAMPLES / "battlesystem" / "keep-gatehouse.yaml").read_text(encoding="utf-8")
    path = write(tmp_path, text.replace("width_in: 8,", "width_in: 1.0e+999,"))
    refused(run("battlesystem", path), "rooms[0].width_in")


@pytest.mark.parametrize(
    ("chance", "problem"),
    [
        ("3/2", "between 0 and 1"),
        ("-1/4", "between 0 and 1"),
        (1.5, "between 0 and 1"),
        ("1/0", "divides by zero"),
        ("1e999999999", "is not a fraction"),
        ("1/9999999999", "is not a fraction"),
        (True, "a probability is a fraction"),
    ],
)
def test_probabilities_out_of_range_are_refused(tmp_path, chance, problem):
    data = base("percentile", "tank")
    data["attacker"]["at_weapons"] = [chance]
    refused(run("percentile", write(tmp_path, data)), "attacker.at_weapons[0]", problem)


def test_a_break_test_chance_out_of_range_is_refused(tmp_path):
    profile = yaml.safe_load((folder("rulesets") / "matched-dice.yaml").read_text(encoding="utf-8"))
    profile["break_test"] = {"attacker": 2, "defender": "1/3"}
    path = write(tmp_path, profile, "profile.yaml")
    chain = EXAMPLES / "matched-dice" / "veteran-chain.yaml"
    refused(run("matched-dice", chain, "--profile", str(path)), "break_test.attacker", "0 and 1")


def test_a_table_whose_bands_do_not_rise_is_refused(tmp_path):
    tables = yaml.safe_load(
        (folder("rulesets") / "percentile-example-tables.yaml").read_text(encoding="utf-8")
    )
    tables["firepower"][1] = [
        {"upto": 50, "result": "kia"},
        {"upto": 20, "result": "no_effect"},
    ]
    path = write(tmp_path, tables, "tables.yaml")
    pillbox = EXAMPLES / "percentile" / "pillbox.yaml"
    refused(run("percentile", pillbox, "--tables", str(path)), "firepower", "must rise")


# --- limits: burst and rounds, refused before any work ----------------------------------------


def _no_work(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the work started before the limit was checked")


@pytest.mark.parametrize(
    ("changes", "needles"),
    [
        (
            {"active": {"attribute": 13, "burst": 12}},
            [
                "active.burst",
                "a Burst of 13 (1 from allies), over the limit of 12 (raise it with"
                " CFALLOC_MAX_BURST)",
            ],
        ),
        ({"reactive": {"attribute": 12, "burst": 20}}, ["reactive.burst", "profile's largest"]),
    ],
)
def test_burst_over_the_limit_is_refused_before_any_work(
    tmp_path, monkeypatch, low_limits, changes, needles
):
    monkeypatch.setattr(rolls, "face_to_face", _no_work)
    data = {**base("infinity", "melee"), **changes}
    refused(run("infinity", write(tmp_path, data)), *needles)


@pytest.fixture
def low_limits(monkeypatch):
    """The limits of a process started with ``CFALLOC_MAX_BURST=12 CFALLOC_MAX_ROUNDS=5``."""
    monkeypatch.setenv("CFALLOC_MAX_BURST", "12")
    monkeypatch.setenv("CFALLOC_MAX_ROUNDS", "5")
    default_limits.cache_clear()
    yield default_limits()
    default_limits.cache_clear()


def test_allies_beyond_the_burst_limit_are_refused(tmp_path, monkeypatch, low_limits):
    monkeypatch.setattr(rolls, "face_to_face", _no_work)
    allies = [{"name": f"ally-{i}", "side": "active"} for i in range(12)]
    data = base("infinity", "melee")
    data["melee"]["models"] += allies
    data["melee"]["contacts"] += [[ally["name"], "servant"] for ally in allies]
    refused(run("infinity", write(tmp_path, data)), "active.burst", "13 from allies", "of 12")


def test_allocation_bursts_beyond_the_limit_are_refused(tmp_path, monkeypatch, low_limits):
    from allocator.games.infinity import allocate

    monkeypatch.setattr(allocate, "wound_chance", _no_work)
    data = base("infinity-allocate", "sniper")
    data["troopers"][0]["burst"] = 12
    data["targets"][0].update(touching=1, allies_touching=1)
    refused(
        run("infinity-allocate", write(tmp_path, data)), "troopers[0].burst", "CFALLOC_MAX_BURST"
    )


def test_rounds_over_the_limit_are_refused_before_any_work(monkeypatch, low_limits):
    monkeypatch.setattr(assault, "run_assault", _no_work)
    args = ["resolve", "matched-dice", "--attacker", "6", "--defender", "3", "--rounds", "6"]
    refused(
        runner.invoke(app, args), "rounds", "6 rounds, over the limit of 5", "CFALLOC_MAX_ROUNDS"
    )


def test_rounds_capped_by_the_quality_within_the_limit_run(low_limits):
    args = ["--attacker", "6", "--defender", "3", "--quality", "veteran", "--rounds", "9"]
    result = runner.invoke(app, ["resolve", "matched-dice", *args, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["details"]["rounds"] == 4


def test_a_profile_attack_limit_over_the_round_limit_is_refused(tmp_path, monkeypatch, low_limits):
    monkeypatch.setattr(assault, "run_assault", _no_work)
    profile = yaml.safe_load((folder("rulesets") / "matched-dice.yaml").read_text("utf-8"))
    profile["attack_limits"]["veteran"] = 9000
    path = write(tmp_path, profile, "profile.yaml")
    chain = EXAMPLES / "matched-dice" / "veteran-chain.yaml"
    refused(run("matched-dice", chain, "--profile", str(path)), "9000 rounds", "of 5")


def test_turns_over_the_limit_are_refused_before_any_work(tmp_path, monkeypatch, low_limits):
    monkeypatch.setattr(procedure, "_afv_branch", _no_work)
    data = {**base("percentile", "tank"), "turns": 6}
    refused(run("percentile", write(tmp_path, data)), "turns", "6 turns", "CFALLOC_MAX_ROUNDS")


def test_the_file_bounds_reach_the_highest_limits():
    """A file may ask for as much as the limits can be raised to, and no more."""
    assert Limits.model_json_schema()["properties"]["max_burst"]["maximum"] == BURST_BOUND
    assert Limits.model_json_schema()["properties"]["max_rounds"]["maximum"] == ROUNDS_BOUND
    assert procedure.TURNS_BOUND == ROUNDS_BOUND


# --- names with markup and escape sequences ---------------------------------------------------

MARKUP = "[/x] [link=https://evil.invalid]click[/link] [bold]"
ESCAPE = "\x1b[31mred\x1b]8;;https://evil.invalid\x07\x9b2J\u202e"


def hostile_names(command: str) -> dict[str, Any]:
    """The command's example with its names replaced by markup and escape sequences."""
    data = BASES[command]()
    text = json.dumps(data)
    replacements = {
        "infinity": ["fusilier-1", "servant"],
        "infinity-allocate": ["kempei", "sniper"],
        "matched-dice": ["2/A", "1/A"],
        "battlesystem": ["Captain", "archer-1", "hall"],
        "percentile": ["2nd platoon", "pillbox MG"],
    }[command]
    for number, name in enumerate(replacements):
        hostile = MARKUP if number % 2 == 0 else ESCAPE
        text = text.replace(json.dumps(name)[1:-1], json.dumps(f"{hostile} {number}")[1:-1])
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@pytest.fixture
def wide(monkeypatch):
    """A terminal wide enough that no table wraps a name."""
    from allocator.cli.console import out

    monkeypatch.setattr(out, "width", 400)


@pytest.mark.parametrize("command", COMMANDS)
def test_markup_and_escapes_in_names_print_as_plain_text(tmp_path, wide, command):
    path = write(tmp_path, json.dumps(hostile_names(command)), "hostile.json")
    result = run(command, path)
    assert result.exit_code == 0, result.output
    assert not CONTROL.search(result.stdout), repr(result.stdout[:400])
    assert "\u202e" not in result.stdout
    text = " ".join(result.stdout.split())
    assert "[/x]" in text and "[link=https://evil.invalid]click[/link]" in text
    assert "[31mred" in text
    as_json = run(command, path, "--json")
    assert as_json.exit_code == 0 and "\x1b" not in as_json.stdout
    assert MARKUP in as_json.stdout


def test_markup_in_a_refused_value_stays_plain_on_stderr(tmp_path):
    data = base("infinity", "melee")
    data["melee"]["active_trooper"] = "[/x]\x1b[2J"
    line = refused(run("infinity", write(tmp_path, json.dumps(data), "bad.json")))
    assert "[/x]" in line and "unknown models" in line
