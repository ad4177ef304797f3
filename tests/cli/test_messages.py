"""Messages that point at the problem, and exit codes that say exactly what happened.

An unknown key is named with the key it should be; every problem is listed (the first few on
the command line, all of them in ``--json``); places keep the file's own keys; a stand is named
once in an allocation; a usage error is one line; a broken pipe, a full disk and an early Ctrl+C
end quietly with their own codes; nothing invisible reaches the terminal raw.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import typer
import yaml
from contract import BAD_INPUT, NO_ANSWER, refusal, refused
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict
from typer.main import get_command
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.cli.console import BROKEN_PIPE, INTERRUPTED, NOT_WRITTEN, SHOWN, print_json
from allocator.core.errors import LISTED, InputError
from allocator.core.library import folder
from allocator.core.text import INVISIBLE, plain
from allocator.core.validation import format_place, nearest, validate
from allocator.games import format_model, formats
from allocator.games.crossfire.battle import battle_from_data
from allocator.games.crossfire.schema import Scenario

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "hostile"
LEGAL = folder("scenarios") / "guide-2hmg-1squad-v-4.yaml"
BASE: dict[str, Any] = yaml.safe_load(LEGAL.read_text("utf-8"))
ERROR_SCHEMA = json.loads((ROOT / "models" / "schema" / "error-answer.schema.json").read_text())
runner = CliRunner()


def invoke(*args: str | Path) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def error_json(result: Any) -> dict[str, Any]:
    """The error JSON a failed ``--json`` run printed, checked against its committed schema."""
    answer: dict[str, Any] = json.loads(result.stdout)
    jsonschema.Draft202012Validator(ERROR_SCHEMA).validate(answer)
    return answer


def with_allocation(**allocation: Any) -> dict[str, Any]:
    return {**BASE, "allocation": allocation}


def problems_of(data: Any) -> list[InputError]:
    with pytest.raises(InputError) as refused_:
        battle_from_data(data, "f.yaml")
    return refused_.value.problems()


# ---------------------------------------------------------------- did you mean


@pytest.mark.parametrize(
    ("name", "place", "key", "suggestion"),
    [
        ("typo-at-the-top.yaml", "defnder", "defnder", "defender"),
        ("typo-in-a-stand.yaml", "defender.stands[1].unti", "unti", "unit"),
        ("typo-in-a-ruleset-override.yaml", "ruleset.overrides.sqad", "sqad", "squad"),
    ],
)
def test_a_misspelt_key_is_named_with_the_key_it_should_be(
    name: str, place: str, key: str, suggestion: str
) -> None:
    line = refused(invoke("check", CORPUS / name), f"{place}: unknown ")
    assert f"'{key}' (did you mean '{suggestion}'?)" in line
    answer = error_json(invoke("check", CORPUS / name, "--json"))
    first = answer["error"]
    assert (first["place"], first["kind"], first["suggestion"]) == (
        place,
        "extra_forbidden",
        suggestion,
    )


def test_the_key_missing_because_of_a_typo_comes_right_after_it() -> None:
    result = invoke("check", CORPUS / "typo-at-the-top.yaml")
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2 and "defnder: unknown key" in lines[0]
    assert lines[1].endswith("defender: Field required")


def test_a_typo_in_an_organisation_stand_is_named_too() -> None:
    data = {
        **BASE,
        "defender": {"organisation": "german-rifle-company", "present": [{"idd": "x"}]},
    }
    places = {(p.place, p.suggestion) for p in problems_of(data)}
    assert ("defender.present[0].idd", "id") in places


def test_an_unknown_key_near_nothing_lists_the_keys_of_its_place() -> None:
    line = refused(invoke("check", CORPUS / "unknown-key-like-a-schema-tag.yaml"), "x-foo")
    assert "the keys here: allocation, attacker, building, defender" in line


def test_nearest_finds_a_misspelling_only() -> None:
    assert nearest("atacker", ["attacker", "defender"]) == "attacker"
    assert nearest("zzz", ["attacker", "defender"]) is None


# ---------------------------------------------------------------- every problem listed


def test_the_first_few_problems_are_shown_and_json_lists_them_all() -> None:
    result = invoke("check", CORPUS / "many-problems.yaml")
    lines = result.stderr.strip().splitlines()
    assert len(lines) == SHOWN and all(line.startswith("error: ") for line in lines)
    assert lines[-1].endswith("(and 2 more: --json lists them)")
    answer = error_json(invoke("check", CORPUS / "many-problems.yaml", "--json"))
    assert [error["place"] for error in answer["errors"]] == [
        "building.capacity",
        "defender.stands[0].type",
        "defender.stands[2].rating",
        "attacker.stands[0].typ",
        "attacker.stands[0].type",
    ]
    assert answer["error"] == answer["errors"][0]
    assert all(error["file"] == str(CORPUS / "many-problems.yaml") for error in answer["errors"])


def test_every_stand_that_names_a_unit_or_an_id_wrongly_is_listed(tmp_path: Path) -> None:
    data = yaml.safe_load(LEGAL.read_text("utf-8"))
    del data["allocation"]
    data["defender"]["stands"][0]["unit"] = "nowhere"
    data["defender"]["stands"][1]["unit"] = "nowhere"
    data["attacker"]["stands"][0]["unit"] = "elsewhere"
    data["attacker"]["stands"][2]["id"] = data["attacker"]["stands"][1]["id"]
    path = tmp_path / "crossed.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    answer = error_json(invoke("check", path, "--json"))
    assert [error["place"] for error in answer["errors"]] == [
        "defender.stands[0].unit",
        "defender.stands[1].unit",
        "attacker.stands[0].unit",
        "attacker.stands[2]",
    ]
    assert "duplicate stand id 'a2'" in answer["errors"][3]["problem"]


def json_commands() -> list[tuple[str, ...]]:
    """Every command of the app that takes ``--json``, by its path."""
    found: list[tuple[str, ...]] = []

    def visit(command: Any, path: tuple[str, ...]) -> None:
        if hasattr(command, "list_commands"):
            context = typer.Context(command)
            for name in command.list_commands(context):
                visit(command.get_command(context, name), (*path, name))
        if any("--json" in getattr(p, "opts", ()) for p in command.params):
            found.append(path)

    visit(get_command(app), ())
    return sorted(found)


@pytest.mark.parametrize("command", json_commands(), ids=" ".join)
def test_every_json_command_prints_the_error_json_on_bad_input(command: tuple[str, ...]) -> None:
    bad = CORPUS / "typo-at-the-top.yaml"  # for the resolvers too: not their kind of file
    result = invoke(*command, bad, "--json")
    refusal(result)
    answer = error_json(result)
    assert answer["errors"] and all(error["file"] == str(bad) for error in answer["errors"])


def test_a_time_limit_is_the_error_json_too() -> None:
    result = invoke("resolve", "infinity", "--active", "13/3", "--time-limit", "0.001", "--json")
    if result.exit_code == 0:  # a machine fast enough to answer in a millisecond
        return
    refusal(result, NO_ANSWER)
    assert error_json(result)["error"]["kind"] == "time_limit"


def test_a_usage_error_with_json_is_the_error_json() -> None:
    result = invoke("solve", LEGAL, "--side", "sideways", "--json")
    answer = error_json(result)
    assert answer["error"]["place"] == "--side" and answer["error"]["kind"] == "usage"


def test_an_error_lists_at_most_its_limit_of_problems() -> None:
    data = with_allocation(combats={"A": [f"x{i}" for i in range(500)], "B": ["h2"]})
    problems = problems_of(data)
    assert len(problems) == LISTED + 1
    assert problems[-1].problem == f"{500 - LISTED:,} more problems, not listed"


# ---------------------------------------------------------------- places keep the file's keys


def test_places_keep_keys_that_look_like_schema_tags() -> None:
    refused(
        invoke("check", CORPUS / "combat-named-like-a-schema-tag.yaml"),
        "allocation.combats.first-combat[1]: Input should be a valid string (got 7)",
    )
    refused(invoke("check", CORPUS / "unknown-key-like-a-schema-tag.yaml"), ": x-foo: ")


@pytest.mark.parametrize(
    "key", ["str", "int", "constrained-str", "function-after", "Stand", "PresentStand", "none"]
)
def test_any_combat_name_stays_in_the_place(key: str) -> None:
    data = with_allocation(combats={key: ["d1", 7]})
    assert problems_of(data)[0].place == f"allocation.combats.{key}[1]"


def test_a_union_says_the_branch_that_got_furthest_or_every_kind_it_takes() -> None:
    data = {**BASE, "ruleset": {"base": "crossfire", "overrides": {"squad": [1]}, "bse": 1}}
    problems = problems_of(data)
    assert [(p.place, p.kind) for p in problems] == [
        ("ruleset.overrides.squad", "wrong_type"),
        ("ruleset.bse", "extra_forbidden"),
    ]
    assert problems[0].problem.startswith(
        "Input should be a valid integer, a valid boolean or a valid string"
    )
    present = {**BASE, "defender": {"organisation": "german-rifle-company", "present": [5]}}
    [problem] = problems_of(present)
    assert problem.place == "defender.present[0]"
    assert problem.problem == "Input should be a valid string or a valid dictionary (got 5)"


def test_a_key_of_the_wrong_form_says_so() -> None:
    data = with_allocation(combats={"bad key!": ["d1"]})
    [problem] = problems_of(data)
    assert problem.place == "allocation.combats.bad key!"
    assert problem.problem.startswith("the key itself: String should match pattern")


def test_without_a_model_every_part_is_a_place() -> None:
    class Body(BaseModel):
        model_config = ConfigDict(extra="forbid")
        rounds: int

    with pytest.raises(InputError) as refused_:
        validate(Body, {"rounds": "x", "roundz": 1})
    assert [p.line() for p in refused_.value.problems()] == [
        "rounds: Input should be a valid integer, unable to parse string as an integer (got 'x')",
        "roundz: unknown key 'roundz' (did you mean 'rounds'?)",
    ]
    assert format_place(("body", "scenario", "allocation", 3)) == "body.scenario.allocation[3]"


def test_every_mangled_place_is_the_files_own() -> None:
    """No schema tag ever reaches a place, whatever the file gets wrong."""
    tags = ("constrained-str", "function-", "PresentStand", "RulesetOverride", "[key]", ".int")
    for data in (
        {**BASE, "ruleset": {"overrides": {"squad": None}}, "round": "x"},
        {**BASE, "defender": {"present": [None, {"id": 3, "rating": "x"}], "units": [5]}},
        {**BASE, "expect": {"legal": 1, "solve": {"sweep": "x", "glory": 1}}},
        with_allocation(combats={"A": None}, attack=[1], reallocate={"d1": 3}),
    ):
        with pytest.raises(InputError) as refused_:
            validate(Scenario, data)
        for problem in refused_.value.problems():
            assert problem.place and not any(tag in problem.place for tag in tags), problem


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "x", "d1", "1/2"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["id", "type", "units", "x", "values", "a"]), inner, max_size=3
        )
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(formats())), JSON_VALUES)
def test_any_value_of_any_format_is_an_answer_or_input_errors(name: str, data: Any) -> None:
    """The walk along the schema holds for every format: never a crash, every place printable."""
    try:
        validate(format_model(name), data)
    except InputError as error:
        assert all(problem.problem for problem in error.problems())


# ---------------------------------------------------------------- a stand once in an allocation


@pytest.mark.parametrize("command", ["check", "explain", "solve", "simulate"])
def test_a_stand_repeated_ten_thousand_times_is_one_problem(tmp_path: Path, command: str) -> None:
    path = tmp_path / "repeated.json"
    path.write_text(json.dumps(with_allocation(combats={"A": ["d1"] * 10_000 + ["h1"]})))
    line = refused(invoke(command, path), "allocation.combats.A[1]", "'d1' is named 10,000 times")
    assert "rule 1c" in line
    answer = error_json(invoke(command, path, "--json"))
    assert len(answer["errors"]) == 1 and len(json.dumps(answer)) < 1000


def test_twenty_thousand_empty_combats_are_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text(json.dumps(with_allocation(combats={f"C{i}": [] for i in range(20_000)})))
    line = refused(invoke("check", path), "allocation.combats", "20,000 combats for 3 defending")
    assert len(line) < 300


def test_every_wrong_stand_of_an_allocation_is_listed() -> None:
    data = with_allocation(
        combats={"A": ["d1", "h1", "d1"], "B": ["h2", "a1"]},
        attack={"A": ["a1", "a2", "a1"], "B": ["a3", "zz", "a1"]},
    )
    assert [p.place for p in problems_of(data)] == [
        "allocation.combats.A[2]",
        "allocation.combats.B[1]",
        "allocation.attack.A[2]",
        "allocation.attack.B[1]",
    ]


def test_as_many_combats_as_stands_may_still_be_empty() -> None:
    """At most one combat a stand is the file's bound; an empty one is rule 1c's to say."""
    battle = battle_from_data(with_allocation(combats={"A": ["d1", "h1"], "B": ["h2"], "C": []}))
    assert battle.allocation is not None


# ---------------------------------------------------------------- usage errors in one line

USAGE_ERRORS = [
    (["solve", str(LEGAL), "--side", "sideways"], "error: --side: 'sideways' is not one of "),
    (["solve", str(LEGAL), "--sidee", "x"], "no such option: --sidee (did you mean --side?)"),
    (["check", str(LEGAL), "--bogus"], "no such option: --bogus; see cfalloc check --help"),
    (["explain", str(LEGAL), "--objective", "glory"], "--objective: unknown objective 'glory'"),
    (["explain", str(LEGAL), "--bogus"], "no such option: --bogus"),
    (["simulate", str(LEGAL), "--objective", "x"], "--objective: unknown objective 'x'"),
    (["simulate", str(LEGAL), "--seed", "x"], "--seed: Input should be a valid integer"),
    (["check"], "missing argument"),
    (["--bogus"], "no such option: --bogus; see cfalloc --help"),
    (["nosuch"], "no such command 'nosuch'"),
    (["resolve", "nosuch"], "no such command 'nosuch'; see cfalloc resolve --help"),
    (["resolve", "matched-dice", "--attacker", "x"], "--attacker: Input should be a valid"),
    (["resolve", "matched-dice", "--bogus"], "no such option: --bogus"),
    (["resolve", "percentile", "--time-limit", "-1"], "--time-limit: Input should be greater"),
    (["schema", "--bogus"], "no such option: --bogus; see cfalloc schema --help"),
    (["serve", "--port", "x"], "--port: Input should be a valid integer"),
    (["serve", "--bogus"], "see cfalloc serve --help"),
]


@pytest.mark.parametrize(
    ("args", "words"), USAGE_ERRORS, ids=[" ".join(a) for a, _ in USAGE_ERRORS]
)
def test_a_usage_error_is_one_line(args: list[str], words: str) -> None:
    result = invoke(*args)
    line = refusal(result)
    assert result.stderr.count("\n") == 1 and words in line, result.stderr
    assert "Usage:" not in result.stderr and "Try '" not in result.stderr


def test_choices_are_listed_as_the_help_lists_them() -> None:
    line = refusal(invoke("solve", LEGAL, "--side", "sideways"))
    assert line == "error: --side: 'sideways' is not one of attacker, defender"


def test_the_help_without_arguments_is_still_the_help() -> None:
    result = invoke("resolve")
    assert "Commands:" in result.output and "infinity" in result.output


# ------------------------------------------------------- bad input before any time limit starts


@pytest.mark.parametrize(
    "args",
    [
        ["resolve", "matched-dice", "--attacker", "-1"],
        ["resolve", "infinity", "--active", "45/1"],
        ["resolve", "percentile", str(CORPUS / "typo-at-the-top.yaml")],
        ["resolve", "battlesystem", str(CORPUS / "typo-at-the-top.yaml")],
        ["resolve", "infinity-allocate", str(CORPUS / "typo-at-the-top.yaml")],
        ["check", str(CORPUS / "typo-at-the-top.yaml")],
        ["solve", str(CORPUS / "stand-named-twice-in-a-combat.yaml")],
        ["explain", str(CORPUS / "typo-in-a-stand.yaml")],
        ["simulate", str(CORPUS / "typo-in-a-ruleset-override.yaml")],
    ],
    ids=lambda a: " ".join(a[:2]),
)
@pytest.mark.parametrize("seconds", ["0.001", "0.05"])
def test_bad_input_is_exit_2_whatever_the_time_limit(args: list[str], seconds: str) -> None:
    assert invoke(*args, "--time-limit", seconds).exit_code == BAD_INPUT


# ---------------------------------------------------------------- invisible characters

#: Every character of these categories in this Python's Unicode database.
INVISIBLE_CATEGORIES = {"Cf", "Zl", "Zp", "Cs"}


def test_every_format_character_and_separator_is_escaped_visibly() -> None:
    every = [
        chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in INVISIBLE_CATEGORIES
    ]
    text = "".join(every)
    assert plain(text) == "".join(
        f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}" for c in every
    )
    assert "\u061c" in every and "\u200b" in every and "\ufeff" in every


def test_controls_are_escaped_newlines_and_tabs_are_spaces() -> None:
    assert plain("a\nb\tc\rd\x1be\x9bf\x7f") == "a b c\\u000dd\\u001be\\u009bf\\u007f"
    assert plain("1st Platoon, 2nd Squad — Zug ↯ 🎲") == "1st Platoon, 2nd Squad — Zug ↯ 🎲"


def test_json_output_escapes_the_invisible_characters(capsys: pytest.CaptureFixture[str]) -> None:
    text = "\u200b\u2028\u2029\ufeff\u061c\u202e\x85 \U000e0041 é 🎲"
    print_json({"title": text})
    written = capsys.readouterr().out
    assert not any(c in written for c in text if unicodedata.category(c)[0] in "CZ" and c != " ")
    assert "é 🎲" in written and json.loads(written) == {"title": text}
    assert INVISIBLE.startswith("\u00ad")


# ---------------------------------------------------------------- a process of its own

ENTRY = [sys.executable, "-m", "allocator.cli"]


@pytest.mark.parametrize(
    "args",
    [
        ["check", str(LEGAL), "--json"],
        ["explain", str(LEGAL)],
        ["--help"],
        ["schema", "scenario"],
        ["check", str(CORPUS / "typo-at-the-top.yaml"), "--json"],
    ],
    ids=["json", "report", "help", "schema", "error-json"],
)
def test_a_reader_gone_is_exit_141_without_a_word(args: list[str]) -> None:
    process = subprocess.Popen([*ENTRY, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader goes away before a byte is written
    errors = process.stderr.read().decode()
    assert process.wait(timeout=120) == BROKEN_PIPE and errors == "", errors


@pytest.mark.parametrize(
    "args",
    [["check", str(LEGAL), "--json"], ["explain", str(LEGAL)], ["--help"]],
    ids=["json", "report", "help"],
)
def test_a_full_disk_is_exit_5_with_one_line(args: list[str]) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*ENTRY, *args], stdout=full, stderr=subprocess.PIPE, text=True, check=False
        )
    assert done.returncode == NOT_WRITTEN, done.stderr
    assert done.stderr == "error: the output could not be written: No space left on device\n"


def test_the_help_lists_every_exit_code() -> None:
    done = subprocess.run([*ENTRY, "--help"], capture_output=True, text=True, check=True)
    words = " ".join(done.stdout.split())
    for code in ("0 success", "2 bad input", "3 no answer", "4 internal", "5 the output", "130"):
        assert code in words
    assert "141 the output's reader went away" in words


#: A Ctrl+C that arrives while the entry point still imports: the import of the app raises it.
INTERRUPTED_IMPORT = """
import builtins, sys
real = builtins.__import__
def interrupted(name, *args, **kwargs):
    if name == "allocator.cli.app":
        raise KeyboardInterrupt
    return real(name, *args, **kwargs)
builtins.__import__ = interrupted
sys.argv = ["cfalloc", "check", sys.argv[1]]
from allocator.cli import main
main()
"""


def test_ctrl_c_during_the_imports_is_exit_130_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_IMPORT, str(LEGAL)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == INTERRUPTED and done.stderr == "" and done.stdout == ""


@pytest.mark.parametrize(
    "after",
    ["allocator.cli.render", "allocator.games.crossfire.service"],
    ids=["while-main-imports", "while-the-command-runs"],
)
def test_sigint_is_exit_130_without_a_traceback(after: str) -> None:
    bench = ROOT / "bench" / "company-v-town-house.yaml"
    process = subprocess.Popen(
        [
            sys.executable,
            "-X",
            "importtime",
            *ENTRY[1:],
            "solve",
            str(bench),
            "--objective",
            "take",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    for line in process.stderr:  # each module's import time, once it is imported
        if line.split("|")[-1].strip() == after:
            process.send_signal(signal.SIGINT)  # more imports (or the search) are still to come
            break
    else:
        pytest.fail(f"the command never imported {after}")
    out, errors = process.communicate(timeout=120)
    assert process.returncode == INTERRUPTED and out == "", errors
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors, errors
