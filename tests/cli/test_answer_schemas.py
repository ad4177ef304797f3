"""Every JSON answer the command line prints obeys its committed schema in models/schema/.

The commands are found in the Typer app (every command with a ``--json`` option), so a new
command without a case here fails :func:`test_every_json_command_has_cases`. Each case names the
committed schema its answer must obey; the answers cover the parts left out while None (a
nearest legal allocation, odds, a whole fight, the trials' take rate). The web's answers are held
to the same schemas in ``tests/web/test_web_answers.py``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import typer
from typer.main import get_command
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.core.reader import read_file

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "models" / "scenarios"
LEGAL = SCENARIOS / "guide-2hmg-1squad-v-4.yaml"
ILLEGAL = SCENARIOS / "guide-2hmg-1squad-v-4-both-pair.yaml"
UNALLOCATED = SCENARIOS / "fight-together-or-apart.yaml"

#: Each command with ``--json``: the arguments of a few runs, and the schema their answers obey.
CASES: dict[tuple[str, ...], tuple[str, list[list[str]]]] = {
    ("check",): ("check-answer", [[str(LEGAL)], [str(ILLEGAL)], [str(UNALLOCATED)]]),
    ("solve",): (
        "solve-answer",
        [
            [str(UNALLOCATED), "--side", "defender"],
            [str(UNALLOCATED), "--side", "attacker", "--objective", "take"],
            [str(LEGAL), "--side", "attacker", "--objective", "exchange"],
        ],
    ),
    ("explain",): (
        "explain-answer",
        [[str(LEGAL)], [str(ILLEGAL)], [str(UNALLOCATED), "--objective", "sweep"]],
    ),
    ("simulate",): (
        "simulate-answer",
        [[str(LEGAL), "--seed", "7"], [str(UNALLOCATED), "--seed", "3", "--rounds", "4"]],
    ),
    ("play",): ("play-answer", [[str(LEGAL), "--dice", "A:4-3,B:1-5"]]),
    ("sweep",): ("sweep-line", [[str(ROOT / "tests" / "data" / "sweeps" / "one-cell.yaml")]]),
    ("plan",): (
        "plan-answer",
        [
            [str(UNALLOCATED), "--target", "0.55"],
            [str(SCENARIOS / "plan-leave-the-suppressed-squad-out.yaml")],
            [str(UNALLOCATED), "--side", "defender"],
        ],
    ),
    ("compare",): (
        "compare-answer",
        [
            [str(UNALLOCATED), "--profile", "crossfire", "--profile", "crossfire:ties=defender"],
            [str(LEGAL), "--profile", "crossfire", "--profile", "crossfire:squad=1"],
        ],
    ),
    ("resolve", "infinity"): (
        "resolve-answer",
        [[str(SCENARIOS / "infinity" / name)] for name in ("face-to-face.yaml",)]
        + [["--active", "13/3", "--reactive", "12/1"]],
    ),
    ("resolve", "infinity-allocate"): (
        "resolve-answer",
        [[str(SCENARIOS / "infinity-allocate" / "sniper.yaml")]],
    ),
    ("resolve", "matched-dice"): (
        "resolve-answer",
        [
            [str(SCENARIOS / "matched-dice" / "assault-grid.yaml")],
            ["--attacker", "3", "--defender", "2", "--rounds", "3"],
            ["--defender", "2", "--rounds", "3", "--plan", "0.8"],
            ["--defender", "2", "--rounds", "3", "--plan", "99%"],
        ],
    ),
    ("resolve", "battlesystem"): (
        "resolve-answer",
        [[str(SCENARIOS / "battlesystem" / "keep-gatehouse.yaml")]],
    ),
    ("resolve", "percentile"): (
        "resolve-answer",
        [[str(SCENARIOS / "percentile" / name)] for name in ("pillbox.yaml", "tank.yaml")],
    ),
}
#: Runs of a command that answer with another schema than its own: the trials.
OTHER_ANSWERS = [
    (("simulate",), "trials-answer", [str(LEGAL), "--trials", "200", "--seed", "1"]),
    (
        ("simulate",),
        "trials-answer",
        [str(UNALLOCATED), "--trials", "100", "--seed", "1", "--objective", "take"],
    ),
]


def json_commands() -> list[tuple[str, ...]]:
    """The path of every command of the app that takes ``--json``."""
    found: list[tuple[str, ...]] = []

    def visit(command: Any, path: tuple[str, ...]) -> None:
        if hasattr(command, "list_commands"):  # a group may build its commands only when asked
            context = typer.Context(command)
            for name in command.list_commands(context):
                visit(command.get_command(context, name), (*path, name))
        if any("--json" in getattr(p, "opts", ()) for p in command.params):
            found.append(path)

    visit(get_command(app), ())
    return sorted(found)


@cache
def validator(name: str) -> Any:
    schema = json.loads((ROOT / "models" / "schema" / f"{name}.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def problems(name: str, answer: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
        for e in validator(name).iter_errors(answer)
    ]


def printed(command: tuple[str, ...], args: list[str]) -> Any:
    result = CliRunner().invoke(app, [*command, *args, "--json"])
    assert result.exit_code in (0, 1), (command, args, result.output)
    return json.loads(result.stdout)


def test_every_json_command_has_cases() -> None:
    assert json_commands() == sorted(CASES)


RUNS = [(command, schema, args) for command, (schema, runs) in CASES.items() for args in runs]


@pytest.mark.parametrize(
    ("command", "schema", "args"),
    RUNS + OTHER_ANSWERS,
    ids=[" ".join([*c, Path(a[0]).stem if a else ""]) for c, _, a in RUNS + OTHER_ANSWERS],
)
def test_every_printed_answer_obeys_its_committed_schema(
    command: tuple[str, ...], schema: str, args: list[str]
) -> None:
    assert problems(schema, printed(command, args)) == []


def test_the_answers_cover_the_parts_left_out_while_none(tmp_path: Path) -> None:
    """Left out, not null: a schema that allowed null would pass a field that should be gone."""
    legal = printed(("check",), [str(LEGAL)])
    illegal = printed(("check",), [str(ILLEGAL)])
    assert "odds" in legal and "nearest_legal" in illegal and "odds" not in illegal
    partial = tmp_path / "partial.json"
    scenario = read_file(LEGAL) | {"allocation": {"combats": {"A": ["d1", "h1", "h2"]}}}
    partial.write_text(json.dumps(scenario), encoding="utf-8")
    answer = printed(("check",), [str(partial)])
    assert problems("check-answer", answer) == []
    assert set(answer["nearest_legal"]) == {"combats"}  # the parts not given are left out
    take = printed(("solve",), [str(UNALLOCATED), "--side", "attacker", "--objective", "take"])
    sweep = printed(("solve",), [str(UNALLOCATED), "--side", "defender", "--objective", "sweep"])
    assert "fight" in take and "fight" not in sweep
    assert all(combat.get("decided", "") is not None for combat in sweep["combats"])


def test_a_schema_check_finds_a_wrong_answer() -> None:
    answer = printed(("check",), [str(LEGAL)])
    answer["odds"]["combats"][0]["p_attacker_wins_exact"] = "most likely"
    del answer["legal"]
    found = problems("check-answer", answer)
    assert any("legal" in p for p in found) and any("p_attacker_wins_exact" in p for p in found)
