"""The ``cfalloc`` command line: exit codes, the JSON shapes, and bad input as exit 2.

Most tests run the Typer app in-process with :class:`typer.testing.CliRunner`; one runs the
installed ``cfalloc`` command in a fresh process, for the cold path (lazy imports, entry point).
Bad scenario files are written into ``tmp_path``; every one must give exit code 2, one message
on stderr naming the file, the place in it and the problem, and never a traceback.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import allocator.core.budget
import allocator.games.crossfire.search.solve
from allocator.cli.app import app
from allocator.core.budget import Budget

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "models" / "scenarios"
LEGAL = SCENARIOS / "guide-2hmg-1squad-v-4.yaml"
ILLEGAL = SCENARIOS / "guide-rifle-and-cc-v-2-smg-illegal.yaml"
ILLEGAL_FULL = SCENARIOS / "guide-2hmg-1squad-v-4-both-pair.yaml"
BUILDING_ONLY = SCENARIOS / "rule-b1-fail.yaml"
BENCH_A = ROOT / "bench" / "platoon-v-squad-hmg-pc.yaml"
BENCH_B = ROOT / "bench" / "company-v-town-house.yaml"

ALLOCATION_KEYS = {"combats", "attack", "reallocate"}

runner = CliRunner()


def invoke(*args: str) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def run_json(*args: str, code: int = 0) -> Any:
    result = invoke(*args, "--json")
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.output}"
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return json.loads(result.stdout)


def flat(text: str) -> str:
    """Rich wraps long lines to the terminal width: compare with whitespace collapsed."""
    return " ".join(text.split())


def assert_allocation_shape(allocation: dict[str, Any]) -> None:
    assert allocation.keys() <= ALLOCATION_KEYS
    for part in ("combats", "attack"):
        for name, ids in allocation.get(part, {}).items():
            assert isinstance(name, str)
            assert all(isinstance(i, str) for i in ids)
    for stand, target in allocation.get("reallocate", {}).items():
        assert isinstance(stand, str) and isinstance(target, str)


# --- check ---------------------------------------------------------------------------------


def test_check_legal_scenario_exits_0() -> None:
    result = invoke("check", LEGAL)
    assert result.exit_code == 0, result.output
    assert "Legal" in result.stdout


def test_check_illegal_scenario_exits_1_and_names_the_rule() -> None:
    result = invoke("check", ILLEGAL)
    assert result.exit_code == 1, result.output
    assert "Not legal" in result.stdout
    assert "4b" in result.stdout
    assert "Nearest legal allocation" in result.stdout


def test_check_json_shape_legal() -> None:
    report = run_json("check", LEGAL)
    assert {"legal", "violations", "nearest_legal"} <= report.keys()
    assert report["legal"] is True
    assert report["violations"] == []
    assert report["nearest_legal"] is None
    # a complete legal allocation also reports the odds of the round
    combats = report["odds"]["combats"]
    assert [c["name"] for c in combats] == ["A", "B"]
    assert [c["p_attacker_wins_exact"] for c in combats] == ["13/16", "10/11"]
    total = sum(Fraction(o["p_exact"]) for o in report["odds"]["outcomes"])
    assert total == 1


@pytest.mark.parametrize("path", [ILLEGAL, ILLEGAL_FULL], ids=lambda p: p.stem)
def test_check_json_shape_illegal(path: Path) -> None:
    report = run_json("check", path, code=1)
    assert {"legal", "violations", "nearest_legal"} <= report.keys()
    assert report["legal"] is False
    assert report["violations"]
    for v in report["violations"]:
        assert set(v) == {"rule", "step", "message", "stands"}
        assert isinstance(v["rule"], str) and isinstance(v["step"], int)
        assert isinstance(v["message"], str) and v["message"]
        assert all(isinstance(s, str) for s in v["stands"])
    nearest = report["nearest_legal"]
    assert isinstance(nearest, dict)
    assert_allocation_shape(nearest)
    given = json.loads(json.dumps(_allocation_of(path)))
    # the same leading part of the procedure as the proposal
    assert set(nearest) == {k for k in ALLOCATION_KEYS if given.get(k) is not None}


def test_check_json_nearest_legal_is_legal(tmp_path: Path) -> None:
    """Feeding the nearest legal allocation back in gives a legal report."""
    import yaml

    report = run_json("check", ILLEGAL_FULL, code=1)
    data = yaml.safe_load(ILLEGAL_FULL.read_text())
    data["allocation"] = report["nearest_legal"]
    data.pop("expect")
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(yaml.safe_dump(data))
    again = run_json("check", fixed)
    assert again["legal"] is True


def test_check_json_building_rules_are_step_0() -> None:
    report = run_json("check", BUILDING_ONLY, code=1)
    rules = {v["rule"]: v["step"] for v in report["violations"]}
    assert rules.get("B1") == 0
    b2 = run_json("check", SCENARIOS / "rule-b2-fail.yaml", code=1)
    assert {v["rule"]: v["step"] for v in b2["violations"]} == {"B2": 0}
    assert b2["nearest_legal"] is None


def _allocation_of(path: Path) -> dict[str, Any]:
    import yaml

    return yaml.safe_load(path.read_text())["allocation"]


# --- bad input -----------------------------------------------------------------------------

BASE = """\
defender:
  units: [{id: p, kind: platoon}]
  stands: [{id: d1, type: rifle, unit: p}]
attacker:
  units: [{id: q, kind: platoon}]
  stands: [{id: a1, type: rifle, unit: q}]
"""

ATTACKER = """\
attacker:
  units: [{id: q, kind: platoon}]
  stands: [{id: a1, type: rifle, unit: q}]
"""

# (case id, file name, content (str or bytes; None: no file), place, problem)
BAD_INPUT: list[tuple[str, str, str | bytes | None, str | None, str]] = [
    ("missing-file", "missing.yaml", None, None, "no such file"),
    ("binary-file", "binary.yaml", b"\x00\x01\xff\xfe\x80binary", None, "not UTF-8 text"),
    ("yaml-syntax", "bad.yaml", "defender: [a, b\n", "line 2, column 1", "not valid YAML"),
    ("json-syntax", "bad.json", '{"defender": }', "line 1", "not valid JSON"),
    ("top-level-list", "list.yaml", "- a\n- b\n", None, "must be a mapping"),
    ("unknown-field", "bad.yaml", "colour: red\n" + BASE, "colour", "unknown key 'colour'"),
    (
        "unknown-stand-type",
        "bad.yaml",
        BASE.replace("type: rifle, unit: p", "type: tank, unit: p"),
        "defender.stands[0].type",
        "'tank'",
    ),
    (
        "dangling-unit",
        "bad.yaml",
        BASE.replace("unit: p}", "unit: nowhere}"),
        "defender.stands[0].unit",
        "unit 'nowhere'",
    ),
    (
        "duplicate-stand-id",
        "bad.yaml",
        BASE.replace(
            "stands: [{id: d1, type: rifle, unit: p}]",
            "stands: [{id: d1, type: rifle, unit: p}, {id: d1, type: smg, unit: p}]",
        ),
        "defender.stands[1]",
        "duplicate stand id 'd1'",
    ),
    (
        "duplicate-stand-id-across-sides",
        "bad.yaml",
        BASE.replace("{id: a1, type: rifle, unit: q}", "{id: d1, type: rifle, unit: q}"),
        "attacker.stands[0]",
        "duplicate stand id 'd1'",
    ),
    (
        "duplicate-unit-id",
        "bad.yaml",
        BASE.replace(
            "units: [{id: p, kind: platoon}]",
            "units: [{id: p, kind: platoon}, {id: p, kind: company}]",
        ),
        "defender.units[1]",
        "duplicate unit id 'p'",
    ),
    (
        "allocation-unknown-stand",
        "bad.yaml",
        BASE + "allocation: {combats: {A: [d1, zz]}}\n",
        "allocation.combats.A[1]",
        "no stand 'zz'",
    ),
    (
        "defender-in-attack",
        "bad.yaml",
        BASE + "allocation: {combats: {A: [d1]}, attack: {A: [d1]}}\n",
        "allocation.attack.A[0]",
        "'d1'",
    ),
    (
        "attack-without-combats",
        "bad.yaml",
        BASE + "allocation: {attack: {A: [a1]}}\n",
        "allocation",
        "`attack` needs the defender's `combats`",
    ),
    (
        "unknown-organisation",
        "bad.yaml",
        "defender: {organisation: martian-horde}\n" + ATTACKER,
        "defender.organisation",
        "no shipped organisation 'martian-horde'",
    ),
    (
        "present-not-in-organisation",
        "bad.yaml",
        "defender: {organisation: german-rifle-company, present: [de-1plt-sq1, nobody]}\n"
        + ATTACKER,
        "defender.present[1]",
        "no stand 'nobody'",
    ),
    (
        "unknown-ruleset",
        "bad.yaml",
        "ruleset: no-such-rules\n" + BASE,
        "ruleset",
        "no shipped Crossfire ruleset 'no-such-rules'",
    ),
    (
        "bad-ruleset-override",
        "bad.yaml",
        "ruleset: {base: crossfire, overrides: {ties: sometimes}}\n" + BASE,
        "ruleset.overrides",
        "'ties' must be one of",
    ),
    (
        "near-unknown-stand",
        "bad.yaml",
        BASE.replace(
            "stands: [{id: a1, type: rifle, unit: q}]",
            "stands: [{id: a1, type: rifle, unit: q},"
            " {id: ap, type: pc, unit: q, rating: 1, near: [ghost]}]",
        ),
        "attacker.ap.near",
        "'ghost'",
    ),
    (
        "attacker-without-squad",
        "bad.yaml",
        BASE.replace("{id: a1, type: rifle, unit: q}", "{id: ap, type: pc, unit: q, rating: 1}"),
        "attacker.stands",
        "at least one squad",
    ),
    ("capacity-0", "bad.yaml", "building: {capacity: 0}\n" + BASE, "building.capacity", "1"),
]


def write_bad(folder: Path, name: str, content: str | bytes | None) -> Path:
    path = folder / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    return path


@pytest.mark.parametrize(
    ("name", "content", "place", "problem"),
    [case[1:] for case in BAD_INPUT],
    ids=[case[0] for case in BAD_INPUT],
)
@pytest.mark.parametrize("command", ["check", "explain"])
def test_bad_input_is_exit_2_with_one_clear_message(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    name: str,
    content: str | bytes | None,
    place: str | None,
    problem: str,
) -> None:
    monkeypatch.chdir(tmp_path)  # a short relative file name: rich wraps long lines
    write_bad(tmp_path, name, content)
    result = invoke(command, name)
    assert result.exit_code == 2, f"exit {result.exit_code}\n{result.output}"
    assert result.stdout == ""
    message = flat(result.stderr)
    assert message.startswith(f"error: {name}: "), message
    if place is not None:
        assert f"{name}: {place}" in message, message
    assert problem in message, message
    assert "Traceback" not in result.output
    assert message.count("error:") == 1


def test_a_directory_instead_of_a_file_is_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder.yaml").mkdir()
    result = invoke("check", "folder.yaml")
    assert result.exit_code == 2
    assert flat(result.stderr).startswith("error: folder.yaml: this is a folder, not a file")
    assert "Traceback" not in result.output


@pytest.mark.parametrize("value", ["[/x]", "[red]tank"])
def test_bad_value_with_brackets_is_quoted_verbatim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.chdir(tmp_path)
    write_bad(tmp_path, "bad.yaml", BASE.replace("type: rifle", f'type: "{value}"'))
    result = invoke("check", "bad.yaml")
    assert result.exit_code == 2, repr(result.exception)
    assert value in result.stderr


@pytest.mark.parametrize("command", ["check", "solve", "explain"])
@pytest.mark.parametrize("title", ["Farm [/x]", "Farm [bold]"])
def test_title_with_brackets_is_printed_verbatim(tmp_path: Path, command: str, title: str) -> None:
    text = BENCH_A.read_text().replace('title: "Bench (a)', f'title: "{title}')
    path = tmp_path / "title.yaml"
    path.write_text(text)
    result = invoke(command, path)
    assert result.exit_code == 0, repr(result.exception)
    assert title in result.stdout


def test_long_file_name_appears_whole_in_the_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    deep = tmp_path / ("a-rather-long-folder-name-" * 3) / "and-another-level-below-it"
    deep.mkdir(parents=True)
    path = write_bad(deep, "dangling.yaml", BASE.replace("unit: p}", "unit: nowhere}"))
    result = invoke("check", path)
    assert result.exit_code == 2
    assert str(path) in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_ruleset_of_another_game_names_the_scenario(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_bad(tmp_path, "bad.yaml", "ruleset: infinity\n" + BASE)
    result = invoke("check", "bad.yaml")
    assert result.exit_code == 2
    assert flat(result.stderr).startswith("error: bad.yaml: ruleset: ")


# --- solve ---------------------------------------------------------------------------------

SOLVE_KEYS = {
    "status",
    "side",
    "objective",
    "value",
    "value_exact",
    "allocation",
    "combats",
    "alternatives",
}
COMBAT_KEYS = {
    "name",
    "defenders",
    "attackers",
    "attacker_total",
    "defender_total",
    "p_attacker_wins",
}


@pytest.mark.parametrize("objective", ["sweep", "exchange"])
@pytest.mark.parametrize("side", ["attacker", "defender"])
def test_solve_json_shape(side: str, objective: str) -> None:
    answer = run_json("solve", BENCH_A, "--side", side, "--objective", objective)
    assert answer.keys() >= SOLVE_KEYS
    assert answer["status"] == "optimal"
    assert (answer["side"], answer["objective"]) == (side, objective)
    assert re.fullmatch(r"-?\d+/\d+", answer["value_exact"])
    assert answer["value"] == pytest.approx(float(Fraction(answer["value_exact"])))
    allocation = answer["allocation"]
    assert set(allocation) == ALLOCATION_KEYS
    assert_allocation_shape(allocation)
    assert isinstance(answer["alternatives"], int) and answer["alternatives"] >= 0
    assert answer["combats"]
    for combat in answer["combats"]:
        assert combat.keys() >= COMBAT_KEYS
        assert isinstance(combat["attacker_total"], int)
        assert isinstance(combat["defender_total"], int)
        assert 0 <= combat["p_attacker_wins"] <= 1
        assert combat["attackers"] == allocation["attack"][combat["name"]]
    if objective == "sweep":
        product = 1.0
        for combat in answer["combats"]:
            product *= combat["p_attacker_wins"]
        assert answer["value"] == pytest.approx(product)


def test_solve_bench_a_known_optimum() -> None:
    """Squad+PC and the HMG alone; the attacker puts two squads and his PC on the squad."""
    answer = run_json("solve", BENCH_A, "--side", "defender", "--objective", "sweep")
    assert answer["value_exact"] == "273/496"  # 21/31 * 13/16
    assert answer["allocation"]["combats"] == {"A": ["d-sq", "d-pc"], "B": ["d-hmg"]}


def test_solve_line_of_play_is_legal(tmp_path: Path) -> None:
    import yaml

    answer = run_json("solve", BENCH_A, "--side", "defender", "--objective", "exchange")
    data = yaml.safe_load(BENCH_A.read_text())
    data["allocation"] = answer["allocation"]
    path = tmp_path / "line.yaml"
    path.write_text(yaml.safe_dump(data))
    assert run_json("check", path)["legal"] is True


def test_solve_readable_output() -> None:
    result = invoke("solve", BENCH_A, "--side", "attacker", "--objective", "sweep")
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    assert "best for the attacker (sweep)" in text
    assert "Value: 273/496" in text
    assert "not proven optimal" not in text


@pytest.mark.parametrize(("option", "value"), [("--side", "wrong"), ("--objective", "most")])
def test_solve_bad_choice_is_exit_2(option: str, value: str) -> None:
    result = invoke("solve", BENCH_A, option, value)
    assert result.exit_code == 2
    assert option in result.stderr and value in result.stderr
    assert "Traceback" not in result.output


class Capture:
    """Wraps the search's ``solve`` to keep the result the command line printed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.results: list[Any] = []
        real = allocator.games.crossfire.search.solve.solve

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            result = real(*args, **kwargs)
            self.results.append(result)
            return result

        monkeypatch.setattr(allocator.games.crossfire.search.solve, "solve", wrapped)


def assert_status_and_text_agree(capture: Capture, *args: str) -> None:
    as_json = invoke("solve", *args, "--json")
    text = invoke("solve", *args)
    assert as_json.exit_code == text.exit_code == 0, as_json.output + text.output
    answer = json.loads(as_json.stdout)
    json_result, text_result = capture.results[-2:]
    assert answer["status"] == json_result.status
    assert answer["status"] in ("optimal", "feasible")
    said = "not proven optimal" in flat(text.stdout)
    assert said == (text_result.status == "feasible")
    if answer["status"] == "feasible":
        assert "not proven optimal" in answer["note"]
        assert "only distinct choice" not in flat(text.stdout)


@pytest.mark.parametrize("limit", ["0.02", "0.1", "0.3"])
def test_solve_tiny_time_limit(monkeypatch: pytest.MonkeyPatch, limit: str) -> None:
    """A tiny limit either gives a line (status and text agree) or says clearly it ran out."""
    capture = Capture(monkeypatch)
    args = (BENCH_B, "--time-limit", limit)
    for as_json in (True, False):
        result = invoke("solve", *args, *(["--json"] if as_json else []))
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(
            result.exception
        )
        if result.exit_code == 3:
            assert "no answer within the time limit" in flat(result.stderr)
            continue
        assert result.exit_code == 0
        status = capture.results[-1].status
        if as_json:
            answer = json.loads(result.stdout)
            assert answer["status"] == status
            assert (answer["note"] is not None) == (status == "feasible")
        else:
            text = flat(result.stdout)
            assert ("not proven optimal" in text) == (status == "feasible")
            if status == "feasible":
                assert "only distinct choice" not in text and "every other choice" not in text


def test_solve_stopped_early_is_feasible_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the deadline passed once the first round's lines are built, the search is cut
    short (building them checks the deadline too: passed before, no line would be found)."""
    from allocator.games.crossfire.search.game import RootGame

    capture = Capture(monkeypatch)
    spent: list[Budget] = []  # the budgets of the searches whose first round is built
    build = RootGame.__post_init__

    def build_then_expire(self: RootGame) -> None:
        build(self)
        spent.append(self.engine.budget)

    monkeypatch.setattr(RootGame, "__post_init__", build_then_expire)
    monkeypatch.setattr(Budget, "expired", lambda self: any(self is b for b in spent))
    assert_status_and_text_agree(capture, str(LEGAL))
    assert capture.results[-1].status == "feasible"
    assert capture.results[-1].choices.complete is False


def test_solve_proven_optimum_says_nothing_of_time(monkeypatch: pytest.MonkeyPatch) -> None:
    capture = Capture(monkeypatch)
    assert_status_and_text_agree(capture, str(BENCH_A), "--time-limit", "30")
    assert capture.results[-1].status == "optimal"


# --- simulate ------------------------------------------------------------------------------


def test_simulate_seed_is_repeatable() -> None:
    first = run_json("simulate", LEGAL, "--seed", "7", "--rounds", "5")
    again = run_json("simulate", LEGAL, "--seed", "7", "--rounds", "5")
    assert first == again
    assert first["seed"] == 7
    assert 1 <= len(first["rounds"]) <= 5
    text1 = invoke("simulate", LEGAL, "--seed", "7", "--rounds", "5").stdout
    text2 = invoke("simulate", LEGAL, "--seed", "7", "--rounds", "5").stdout
    assert text1 == text2 and "Round 1" in text1


def test_simulate_different_seeds_differ() -> None:
    rolls = {
        json.dumps(run_json("simulate", LEGAL, "--seed", str(seed))["rounds"][0]["combats"])
        for seed in range(1, 8)
    }
    assert len(rolls) > 1


def test_simulate_trials() -> None:
    data = run_json("simulate", LEGAL, "--trials", "500", "--seed", "3")
    assert data["trials"] == 500
    assert [c["name"] for c in data["combats"]] == ["A", "B"]
    for c in data["combats"]:
        assert 0 <= c["attacker_win_rate"] <= 1
    assert data["p_sweep"] == pytest.approx(65 / 88)
    text = invoke("simulate", LEGAL, "--trials", "500", "--seed", "3")
    assert text.exit_code == 0 and "500 rolls" in text.stdout


def test_simulate_illegal_allocation_is_exit_2() -> None:
    result = invoke("simulate", ILLEGAL_FULL)
    assert result.exit_code == 2
    assert "2b" in flat(result.stderr)
    assert "Traceback" not in result.output


# --- explain, schema, help -----------------------------------------------------------------


def test_explain_json() -> None:
    data = run_json("explain", ILLEGAL)
    assert data["mode"] == "check"
    assert [s["step"] for s in data["steps"]] == list(range(8))
    for step in data["steps"]:
        assert {"step", "title", "rules", "text", "status", "violations"} <= step.keys()
        assert all(isinstance(line, str) for line in step["text"])
    assert data["steps"][4]["status"] == "broken"
    optimal = run_json("explain", BENCH_A)
    assert optimal["mode"] == "optimal" and optimal["objective"] == "take"
    assert optimal["fight"]["p_attacker_takes"] == "200279/261392"
    one_round = run_json("explain", BENCH_A, "--objective", "sweep")
    assert one_round["objective"] == "sweep" and "fight" not in one_round


def test_explain_readable() -> None:
    result = invoke("explain", ILLEGAL)
    assert result.exit_code == 0
    text = flat(result.stdout)
    assert "Step 4 - the attacker covers every combat (broken)" in text
    assert "Broken: 4b" in text


def test_schema_prints_valid_json() -> None:
    result = invoke("schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["type"] == "object"
    assert {"defender", "attacker"} <= set(schema["required"])


COMMANDS = [
    "check",
    "solve",
    "simulate",
    "explain",
    "play",
    "plan",
    "compare",
    "sweep",
    "schema",
    "serve",
    "resolve",
]


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help(command: str | None) -> None:
    result = invoke(*([command] if command else []), "--help")
    assert result.exit_code == 0, result.output
    assert "Usage" in result.stdout
    if command is None:
        for name in COMMANDS:
            assert name in result.stdout


@pytest.mark.parametrize("command", ["play", "sweep"])
def test_the_example_of_a_commands_help_names_its_files_and_options(command: str) -> None:
    shown = " ".join(invoke(command, "--help").stdout.split())
    example = re.search(r"Example: (cfalloc .*?) \(", shown)
    assert example, shown
    words = shlex.split(example.group(1))
    assert words[:2] == ["cfalloc", command] and (ROOT / words[2]).is_file()
    options = {
        opt for param in typer.main.get_command(app).commands[command].params for opt in param.opts
    }
    assert {word for word in words if word.startswith("--")} <= options


def test_the_example_of_plays_help_plays_the_round(tmp_path: Path, monkeypatch: Any) -> None:
    shown = " ".join(invoke("play", "--help").stdout.split())
    example = re.search(r"Example: cfalloc (.*?) \(", shown)
    assert example
    words = shlex.split(example.group(1))
    monkeypatch.chdir(tmp_path)
    result = invoke(*[str(ROOT / w) if "/" in w else w for w in words])
    assert result.exit_code == 0, result.output
    assert "round: 2" in (tmp_path / "round-2.yaml").read_text(encoding="utf-8")


# --- the installed command, cold --------------------------------------------------------------


def test_installed_command_cold_path(tmp_path: Path) -> None:
    exe = shutil.which("cfalloc", path=str(Path(sys.executable).parent)) or shutil.which("cfalloc")
    assert exe, "the cfalloc command is not installed"
    legal = subprocess.run([exe, "check", str(LEGAL), "--json"], capture_output=True, text=True)
    assert legal.returncode == 0, legal.stderr
    assert json.loads(legal.stdout)["legal"] is True
    illegal = subprocess.run([exe, "check", str(ILLEGAL)], capture_output=True, text=True)
    assert illegal.returncode == 1
    bad = tmp_path / "bad.yaml"
    bad.write_text(BASE.replace("unit: p}", "unit: nowhere}"))
    broken = subprocess.run(
        [exe, "check", "bad.yaml"], capture_output=True, text=True, cwd=tmp_path
    )
    assert broken.returncode == 2
    assert broken.stdout == ""
    assert "Traceback" not in broken.stderr
    assert flat(broken.stderr).startswith("error: bad.yaml: defender.stands[0].unit: ")


COLD_CHECK = """
import sys
from allocator.cli import main
sys.argv = ["cfalloc", "check", sys.argv[1], "--json"]
try:
    main()
except SystemExit as done:
    print(done.code, " ".join(sorted({name.split(".")[0] for name in sys.modules})))
"""


def test_a_cold_check_of_a_legal_file_loads_neither_ortools_nor_numpy() -> None:
    run = subprocess.run(
        [sys.executable, "-c", COLD_CHECK, str(LEGAL)], capture_output=True, text=True
    )
    code, modules = run.stdout.strip().splitlines()[-1].split(" ", 1)
    assert code == "0", run.stderr
    loaded = set(modules.split())
    assert "allocator" in loaded and "pydantic" in loaded
    assert not loaded & {"ortools", "numpy", "pandas", "google"}


def test_the_time_limit_counts_from_the_start_of_the_process() -> None:
    """A process whose start-up took the whole --time-limit has no time left to search: no
    answer within the time limit (exit 3); the same command counted from its own start is
    proven."""
    import time

    from allocator.core.budget import answer_started

    proven = run_json("solve", LEGAL, "--time-limit", "2")
    assert proven["status"] == "optimal"
    with answer_started(time.monotonic() - 30):
        late = run_json("solve", LEGAL, "--time-limit", "2", code=3)
    assert late["error"]["kind"] == "time_limit"
    with answer_started(time.monotonic() - 1):
        assert run_json("solve", LEGAL, "--time-limit", "20")["status"] == "optimal"
