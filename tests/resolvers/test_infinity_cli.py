"""``cfalloc resolve infinity FILE`` with the N4/N5 engagement format: the answer, the report,
and hostile files refused in one line naming the file, the place and the problem."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from contract import refused
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.core.library import folder
from allocator.core.limits import default_limits
from allocator.games.answer import ResolveAnswer

EXAMPLES = folder("scenarios") / "infinity"
runner = CliRunner()


def run(*args: str | Path) -> Any:
    return runner.invoke(app, ["resolve", "infinity", *(str(a) for a in args)])


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text("utf-8"))
    return data


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "engagement.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_the_n5_example_answers_with_states_orders_and_modifiers():
    result = run(EXAMPLES / "martial-arts.yaml", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    ResolveAnswer.model_validate(answer)
    details = answer["details"]
    assert details["rules"] == "n5" and details["special_dice"] == {"active": 1}
    assert [t["side"] for t in details["troopers"]] == ["active", "reactive"]
    bodyguard = details["troopers"][1]
    assert bodyguard["fights_on"] == "Dogged" and len(bodyguard["orders"]) == 5
    assert {row["state"] for row in bodyguard["states"]} == {"wounded", "fighting_on", "dead"}
    assert any("Natural Born Warrior ignores -3" in m["note"] for m in details["modifiers"])
    again = run(EXAMPLES / "martial-arts.yaml", "--json")
    assert again.stdout == result.stdout


def test_the_n4_berserk_example_names_its_outcomes():
    answer = json.loads(run(EXAMPLES / "berserk.yaml", "--json").stdout)
    assert answer["details"]["roll"] == "normal_rolls"
    assert {k: v["exact"] for k, v in answer["outcomes"].items()} == {
        "only_active_succeeds": "19/200",
        "only_reactive_succeeds": "9/200",
        "both_succeed": "171/200",
        "neither_succeeds": "1/200",
    }


def test_the_report_reads_in_players_words():
    result = run(EXAMPLES / "martial-arts.yaml")
    text = " ".join(result.stdout.split())
    assert "Modifiers applied" in text and "0 VITA left, fights on (Dogged)" in text
    assert "within orders" in text and "_" not in text.replace("--", "")


@pytest.mark.parametrize(
    ("change", "needles"),
    [
        (("active", "ammunition", "Nuke"), ["active.ammunition", "no ammunition 'Nuke'"]),
        (("reactive", "wounds_taken", -1), ["reactive.wounds_taken", "greater than or equal"]),
        (("active", "skills", {"i_kohl": 1}), ["active.skills.i_kohl", "not in the n5 ruleset"]),
        (("active", "damage", 13), ["active.damage", "give ps only: Infinity N5 has no DAM"]),
        (("reactive", "traits", ["sticky"]), ["reactive.traits[0]", "no weapon trait"]),
        (("active", "burst", 10**6), ["active.burst", "less than or equal"]),
    ],
)
def test_a_bad_trooper_is_one_line_naming_file_and_place(tmp_path, change, needles):
    data = example("martial-arts")
    side, field, value = change
    data[side][field] = value
    path = write(tmp_path, data)
    refused(run(path), str(path), *needles)


def test_skills_that_push_the_burst_over_the_limit_are_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("CFALLOC_MAX_BURST", "12")
    default_limits.cache_clear()
    try:
        data = example("martial-arts")
        data["active"].update(burst=12, skills={"martial_arts": 5})
        path = write(tmp_path, data)
        refused(run(path), str(path), "active.burst", "a Burst of 13 (1 from skills)")
    finally:
        default_limits.cache_clear()


def test_a_profile_of_the_other_edition_is_refused(tmp_path):
    profile = folder("rulesets") / "infinity.yaml"
    refused(
        run(EXAMPLES / "martial-arts.yaml", "--profile", profile),
        "rules: the engagement asks for n5 but the profile given is n4",
    )
