"""The ``resolve`` command line: the required JSON shapes, readable output, exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from allocator.games.resolve_commands import app

DATA = Path(__file__).parent / "data"
runner = CliRunner()


def run_json(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_infinity_json_shape():
    answer = run_json("infinity", "--active", "12/1", "--reactive", "12/1")
    assert answer["neither"] == "19/100"
    assert answer["active_wins"] == answer["reactive_wins"] == "81/200"


def test_infinity_file_with_melee():
    answer = run_json("infinity", "--file", str(DATA / "melee.yaml"))
    assert (answer["active"]["burst"], answer["reactive"]["burst"]) == (2, 1)
    assert [v["rule"] for v in answer["violations"]] == ["INF-ally"]


def test_matched_dice_json_shape():
    answer = run_json("matched-dice", "--attacker", "3", "--defender", "2", "--ties", "defender")
    outcomes = {(o["attacker_losses"], o["defender_losses"]): o["p"] for o in answer["outcomes"]}
    assert outcomes[0, 2] == "1445/3888" and outcomes[2, 0] == "2275/7776"


def test_matched_dice_rounds_gives_wipe_out_chances():
    answer = run_json("matched-dice", "--attacker", "4", "--defender", "2", "--rounds", "3")
    assert set(answer["wiped_out_within"]) == {"attacker", "defender"}


def test_matched_dice_file_reports_violations():
    answer = run_json("matched-dice", "--file", str(DATA / "assault-grid.yaml"))
    assert [v["rule"] for v in answer["violations"]] == ["MD-command", "MD-orthogonal"]


@pytest.mark.parametrize(
    "args",
    [
        ["battlesystem", str(DATA / "keep-gatehouse.yaml")],
        ["percentile", str(DATA / "pillbox.yaml")],
        ["percentile", str(DATA / "tank.yaml")],
        ["infinity-allocate", str(DATA / "allocate.yaml")],
        ["infinity", "--active", "14+3/3", "--reactive", "13/1", "--active-damage", "13"],
    ],
)
def test_every_command_reads_well_and_as_json(args):
    readable = runner.invoke(app, args)
    assert readable.exit_code == 0, readable.output
    assert "steps" not in readable.stdout and "1." in readable.stdout
    assert run_json(*args)["system"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["infinity", "--active", "12/x"], "is not SV/B"),
        (["infinity", "--active", "45/1"], "outside -12..40"),
        (["infinity"], "give either --active"),
        (["matched-dice", "--defender", "2"], "exactly one of attacker"),
        (["matched-dice", "--attacker", "2", "--defender", "2", "--ties", "odd"], "ties"),
        (["battlesystem", "no-such-plan.yaml"], "no such file"),
        (["percentile", str(DATA / "melee.yaml")], "attacker"),
    ],
)
def test_bad_input_is_one_message_and_exit_2(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output
