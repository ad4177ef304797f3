"""``cfalloc resolve``: the typed JSON answer, players' words, the shipped examples, exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.core.library import folder, names
from allocator.games import resolve_commands
from allocator.games.answer import ResolveAnswer

#: The example ``--example`` prints for each command.
DEFAULT_EXAMPLES = {name: command.example for name, command in resolve_commands().items()}

EXAMPLES = folder("scenarios")
runner = CliRunner()


def example(command: str, name: str) -> Path:
    return EXAMPLES / command / f"{name}.yaml"


def resolve(*args: str | Path) -> Any:
    return runner.invoke(app, ["resolve", *(str(a) for a in args)])


def run_json(*args: str | Path) -> dict[str, Any]:
    result = resolve(*args, "--json")
    assert result.exit_code == 0, result.output
    answer: dict[str, Any] = json.loads(result.stdout)
    ResolveAnswer.model_validate(answer)
    return answer


def exact(answer: dict[str, Any], outcome: str) -> str:
    text: str = answer["outcomes"][outcome]["exact"]
    return text


def flat(text: str) -> str:
    """Rich wraps long lines to the terminal width: compare with whitespace collapsed."""
    return " ".join(text.split())


# --- the JSON answer --------------------------------------------------------------------------


def test_infinity_json_answer():
    answer = run_json("infinity", "--active", "12/1", "--reactive", "12/1")
    assert exact(answer, "neither") == "19/100"
    assert answer["outcomes"]["neither"]["value"] == 0.19
    assert exact(answer, "active_wins") == exact(answer, "reactive_wins") == "81/200"
    assert answer["details"]["system"] == "infinity"
    assert answer["details"]["active"] == {"success_value": 12, "burst": 1, "allies": []}


def test_infinity_file_with_melee():
    answer = run_json("infinity", example("infinity", "melee"))
    details = answer["details"]
    assert (details["active"]["burst"], details["reactive"]["burst"]) == (2, 1)
    assert details["active"]["allies"] == ["fusilier-1"]
    assert [v["rule"] for v in answer["violations"]] == ["INF-ally"]
    assert {wounds["target"] for wounds in details["wounds"]} == {"active", "reactive"}


def test_matched_dice_json_answer():
    answer = run_json("matched-dice", "--attacker", "3", "--defender", "2", "--ties", "defender")
    casualties = {
        (row["attacker_losses"], row["defender_losses"]): row["chance"]["exact"]
        for row in answer["details"]["casualties"]
    }
    assert casualties[0, 2] == "1445/3888" and casualties[1, 1] == "2611/7776"
    assert casualties[2, 0] == "2275/7776"
    assert exact(answer, "defender_loses_more") == "1445/3888"


def test_matched_dice_rounds_give_the_ends_of_the_chain():
    answer = run_json("matched-dice", "--attacker", "4", "--defender", "2", "--rounds", "3")
    assert answer["details"]["rounds"] == 3
    assert {"defender_wiped_out", "attacker_wiped_out"} <= set(answer["outcomes"])
    total = sum(
        float(row["chance"]["value"]) for row in answer["details"]["ends"]
    )  # every end once
    assert total == pytest.approx(1)


def test_matched_dice_plan_gives_the_fewest_sps_and_the_curve():
    answer = run_json("matched-dice", "--defender", "2", "--rounds", "10", "--plan", "75%")
    plan = answer["details"]["plan"]
    assert plan["target"]["exact"] == "3/4" and plan["fewest_sps"] == 3
    assert [point["attacker_sps"] for point in plan["curve"]] == [1, 2, 3]
    assert answer["details"]["attacker_sps"] == 3
    assert plan["curve"][-1]["chance"] == answer["outcomes"]["defender_wiped_out"]


def test_matched_dice_plan_from_a_file_replaces_its_attacking_bases():
    grid = example("matched-dice", "assault-grid")
    answer = run_json("matched-dice", grid, "--rounds", "5", "--plan", "1/2")
    assert answer["details"]["attacker_sps"] == answer["details"]["plan"]["fewest_sps"]
    assert answer["violations"] == []


def test_matched_dice_plan_not_reached_says_so_and_exits_0():
    result = resolve("matched-dice", "--defender", "2", "--rounds", "3", "--plan", "0.99")
    assert result.exit_code == 0, result.output
    assert "is not reached up to 9 SP (more SPs add no dice" in flat(result.stdout)
    answer = run_json("matched-dice", "--defender", "2", "--rounds", "3", "--plan", "0.99")
    assert answer["details"]["plan"]["fewest_sps"] is None
    assert answer["details"]["plan"]["more_adds_nothing"] is True


def test_matched_dice_plan_reads_as_a_sentence_and_a_table():
    result = resolve("matched-dice", "--defender", "3", "--rounds", "6", "--plan", "4/5")
    text = flat(result.stdout)
    assert result.exit_code == 0 and "win the chain with a chance of at least 80.0% (4/5):" in text
    assert "The attacker's chance of winning within 6 rounds, by strength" in text


def test_matched_dice_file_reports_violations():
    answer = run_json("matched-dice", example("matched-dice", "assault-grid"))
    assert [v["rule"] for v in answer["violations"]] == ["MD-command", "MD-orthogonal"]


def test_battlesystem_json_answer():
    answer = run_json("battlesystem", example("battlesystem", "keep-gatehouse"))
    assert answer["outcomes"] == {}
    assert answer["details"]["profile_unverified"] is True
    assert len(answer["details"]["answers"]) == 23


def test_percentile_json_answer():
    answer = run_json("percentile", example("percentile", "tank"))
    assert exact(answer, "afv_survives") == "15309/80000"
    assert answer["details"]["example_tables"] is True and answer["details"]["melee"] is None
    pillbox = run_json("percentile", example("percentile", "pillbox"))
    assert pillbox["details"]["melee"]["exact"] == "33/50"
    assert pillbox["details"]["expected_melee_turns"]["exact"] == "125/27"


def test_allocate_json_answer():
    answer = run_json("infinity-allocate", example("infinity-allocate", "sniper"))
    assert exact(answer, "at_least_one_wound") == "66469/160000"
    assert answer["details"]["contacts"] == {"kempei": "sniper"}


def test_json_is_byte_identical_run_to_run():
    args = ("matched-dice", example("matched-dice", "veteran-chain"), "--json")
    assert resolve(*args).stdout == resolve(*args).stdout


# --- players' words ---------------------------------------------------------------------------


def test_readable_outcomes_are_sentences_with_percentages():
    text = flat(resolve("matched-dice", "--attacker", "3", "--defender", "2").stdout)
    assert "the defender takes more casualties" in text and "37.2%" in text
    assert "defender_loses_more" not in text
    infinity = flat(resolve("infinity", "--active", "12/1", "--reactive", "12/1").stdout)
    assert "neither trooper wins" in infinity and "19.0%" in infinity


def test_readable_battlesystem_says_the_profile_is_unverified_in_a_sentence():
    text = flat(resolve("battlesystem", example("battlesystem", "keep-gatehouse")).stdout)
    assert "profile_unverified" not in text and "True" not in text
    assert "not verified against the rulebook" in text
    assert "archer-1 and archer-3; archer-2" in text


def test_readable_percentile_says_the_tables_are_the_example():
    text = flat(resolve("percentile", example("percentile", "pillbox")).stdout)
    assert "example_tables" not in text and "EXAMPLE tables" in text
    assert "the attacker is killed (KIA)" in text and "81.9%" in text


@pytest.mark.parametrize(
    "args",
    [
        ["battlesystem", example("battlesystem", "keep-gatehouse")],
        ["percentile", example("percentile", "pillbox")],
        ["percentile", example("percentile", "tank")],
        ["infinity-allocate", example("infinity-allocate", "sniper")],
        ["infinity", example("infinity", "face-to-face")],
        ["infinity", "--active", "14+3/3", "--reactive", "13/1", "--active-damage", "13"],
        ["matched-dice", example("matched-dice", "veteran-chain")],
    ],
)
def test_every_command_reads_well_and_as_json(args):
    readable = resolve(*args)
    assert readable.exit_code == 0, readable.output
    text = flat(readable.stdout)
    assert "How it was worked out: 1." in text
    assert "_" not in text.replace("--", "")  # no programmer names such as afv_survives
    assert run_json(*args)["system"] == args[0]


# --- the shipped examples ---------------------------------------------------------------------


@pytest.mark.parametrize("command", sorted(DEFAULT_EXAMPLES))
def test_every_command_prints_its_example(command, tmp_path):
    printed = resolve(command, "--example")
    assert printed.exit_code == 0, printed.output
    shipped = example(command, DEFAULT_EXAMPLES[command]).read_text(encoding="utf-8")
    assert printed.stdout == shipped
    edited = tmp_path / "mine.yaml"
    edited.write_text(printed.stdout, encoding="utf-8")
    assert resolve(command, edited).exit_code == 0


@pytest.mark.parametrize(
    ("command", "name"), [(c, n) for c in sorted(DEFAULT_EXAMPLES) for n in names("scenarios", c)]
)
def test_every_shipped_example_runs(command, name):
    assert resolve(command, "--example-name", name).stdout == example(command, name).read_text(
        encoding="utf-8"
    )
    answer = run_json(command, example(command, name))
    assert answer["system"] == command


def test_every_system_ships_an_example():
    for command, name in DEFAULT_EXAMPLES.items():
        assert name in names("scenarios", command)


@pytest.mark.parametrize("name", ["no-such", "../../etc/passwd"])
def test_unknown_example_is_one_line_and_exit_2(name):
    result = resolve("percentile", "--example-name", name)
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "shipped percentile example" in result.stderr


# --- bad input --------------------------------------------------------------------------------

MATCHED_PLAN = ["matched-dice", "--defender", "2", "--rounds", "3", "--plan"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["infinity", "--active", "12/x"], "--active: '12/x' is not SV/B"),
        (["infinity", "--active", "9" * 5000 + "/1"], "is not SV/B"),
        (["infinity", "--active", "45/1"], "active: SV 45 is outside -12..40"),
        (["infinity"], "give the engagement file or --active"),
        (["infinity", "--reactive", "12/1"], "give the engagement file or --active"),
        (["infinity", example("infinity", "melee"), "--active", "12/1"], "not both"),
        (["infinity-allocate"], "give the allocation file"),
        (["battlesystem"], "give the building plan"),
        (["percentile"], "give the assault file"),
        (["matched-dice", "--defender", "2"], "exactly one of attacker"),
        (["matched-dice"], "give the assault file or --attacker and --defender"),
        (["percentile", "--run"], "--run runs a shipped example"),
        (["percentile", example("percentile", "tank"), "--example", "--run"], "not both"),
        (["matched-dice", "--attacker", "2", "--defender", "2", "--ties", "odd"], "ties"),
        (["matched-dice", "--attacker", "90", "--defender", "2"], "attacker"),
        (["matched-dice", "--defender", "2", "--plan", "0.8"], "--plan: a plan is the chance"),
        ([*MATCHED_PLAN, "1.5"], "--plan: '1.5' is not a chance: write it as 0.8, 80% or 4/5"),
        ([*MATCHED_PLAN, "most"], "--plan: 'most' is not a chance"),
        ([*MATCHED_PLAN, "-1/2"], "--plan: '-1/2' is not a chance"),
        ([*MATCHED_PLAN, "1/0"], "--plan: '1/0' is not a chance"),
        ([*MATCHED_PLAN, "120%"], "--plan: '120%' is not a chance"),
        ([*MATCHED_PLAN, "1e999999"], "--plan: '1e999999' is not a chance"),
        (["battlesystem", "no-such-plan.yaml"], "no such file"),
        (["percentile", example("infinity", "melee")], "attacker"),
    ],
)
def test_bad_input_is_one_message_and_exit_2(args, message):
    result = resolve(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert result.stdout == "" and 1 <= len(lines) <= 3  # a file of another game: its first few
    assert all(line.startswith("error: ") for line in lines), result.stderr
    assert message in result.stderr and "Traceback" not in result.output


# --- time limits ------------------------------------------------------------------------------

HEAVY_MATCHED_DICE = (
    "max_attacker_dice: 3\nmax_defender_dice: 3\nties: cancel\n"
    "attack_limits: {veteran: 4, elite: 4, regular: 3, inferior: 2}\n"
    "unverified: [elite, regular, inferior]\n"
    'break_test: {attacker: "1/999983", defender: "2/999979"}\n'
)


def test_a_plan_over_its_time_limit_is_exit_3_in_one_line() -> None:
    """Strength after strength against 50 SPs for 100 rounds: the time limit stops the search."""
    result = resolve(
        "matched-dice", "--defender", "50", "--rounds", "100", "--plan", "0.99",
        "--time-limit", "0.2",
    )  # fmt: skip
    assert result.exit_code == 3 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "no answer within the time limit" in result.stderr


def test_a_resolution_over_its_time_limit_is_exit_3_in_one_line(tmp_path: Path) -> None:
    """50 SPs a side chained for 100 rounds takes seconds: a tenth of one is not enough."""
    profile = tmp_path / "heavy.yaml"
    profile.write_text(HEAVY_MATCHED_DICE, encoding="utf-8")
    result = resolve(
        "matched-dice", "--attacker", "50", "--defender", "50", "--rounds", "100",
        "--profile", profile, "--time-limit", "0.1",
    )  # fmt: skip
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "error: no answer within the time limit: the exact answer was not found in 0.1 s; "
        "give more time with --time-limit"
    ]


def test_a_time_limit_over_its_limit_is_refused_naming_it() -> None:
    result = resolve("percentile", "--time-limit", "1e9")
    assert result.exit_code == 2 and "CFALLOC_MAX_TIME_LIMIT" in result.stderr


def test_the_best_arrangement_keeps_to_its_budget() -> None:
    from allocator.core.budget import Budget
    from allocator.core.errors import TimeLimitError
    from allocator.core.validation import load_file
    from allocator.games.infinity.allocate import AllocationProblem, allocate

    problem = load_file(AllocationProblem, example("infinity-allocate", "sniper"))
    assert allocate(problem, budget=Budget(10)).attacker
    with pytest.raises(TimeLimitError, match="the best arrangement"):
        allocate(problem, budget=Budget(0.0))
