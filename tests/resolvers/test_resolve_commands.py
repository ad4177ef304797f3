"""``cfalloc resolve``'s subcommands come from the registry, all on one pattern.

Every command of every registered game is a subcommand with the options they all share; the
file is an optional argument; ``--example`` prints a shipped example and ``--example --run``
runs it; the quick-roll flags are the fields of the game's model.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.cli.resolve import COMMON, build
from allocator.core.game import ResolveCommand
from allocator.core.library import folder
from allocator.games import GAMES, games, resolve_commands
from allocator.games.answer import ResolveAnswer

runner = CliRunner()
COMMANDS = resolve_commands()
#: The options every subcommand has, as they are written on the command line.
COMMON_FLAGS = {"--example", "--example-name", "--run", "--time-limit", "--json"}


def resolve(*args: object) -> Any:
    return runner.invoke(app, ["resolve", *(str(a) for a in args)])


def flags(command: Any) -> set[str]:
    return {name for param in command.params for name in param.opts if name.startswith("--")}


def test_every_game_is_in_the_registry_by_its_own_name() -> None:
    assert [each.name for each in games()] == list(GAMES)


def test_every_game_but_crossfire_brings_a_resolve_command() -> None:
    """Crossfire's commands are a group of their own (check, solve, explain, simulate)."""
    for each in games():
        assert bool(each.commands) == (each.name != "crossfire"), each.name


def test_the_subcommands_are_the_registry_commands() -> None:
    group = get_command(app).commands["resolve"]  # type: ignore[attr-defined]
    assert group.list_commands(None) == list(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_the_common_options_and_its_flags(name: str) -> None:
    command = COMMANDS[name]
    built = build(command)
    assert built.name == name
    expected = COMMON_FLAGS | {"--" + flag.replace("_", "-") for flag, _, _ in command.options()}
    if command.profile is not None:
        expected.add(command.profile.flag)
    assert flags(built) == expected
    file = next(param for param in built.params if param.name == "file")
    assert not file.required and file.default is None


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_shows_the_file_argument_and_the_shared_options(name: str) -> None:
    result = resolve(name, "--help")
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "[OPTIONS] [FILE]" in text
    for flag in COMMON_FLAGS:
        assert flag in text


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_example_run_runs_the_shipped_example(name: str) -> None:
    ran = resolve(name, "--example", "--run", "--json")
    assert ran.exit_code == 0, ran.output
    answer = json.loads(ran.stdout)
    ResolveAnswer.model_validate(answer)
    as_file = resolve(name, folder("scenarios") / name / f"{COMMANDS[name].example}.yaml", "--json")
    assert as_file.stdout == ran.stdout
    readable = resolve(name, "--example", "--run")
    assert readable.exit_code == 0 and "How it was worked out" in readable.stdout


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_file_is_an_optional_argument(name: str, tmp_path: Any) -> None:
    printed = resolve(name, "--example")
    mine = tmp_path / "mine.yaml"
    mine.write_text(printed.stdout, encoding="utf-8")
    assert resolve(name, mine, "--json").exit_code == 0
    missing = resolve(name)
    assert missing.exit_code == 2 and missing.stdout == ""
    assert "or --example for one to start from" in missing.stderr


def test_the_quick_roll_of_matched_dice_replaces_the_files_values() -> None:
    path = folder("scenarios") / "matched-dice" / "veteran-chain.yaml"
    answer = json.loads(resolve("matched-dice", path, "--attacker", "2", "--json").stdout)
    assert answer["details"]["attacker_sps"] == 2 and answer["details"]["defender_sps"] == 3


VETERAN = ("matched-dice", "--attacker", "6", "--defender", "3", "--quality", "veteran")


def test_a_cap_the_profile_applies_is_said() -> None:
    text = " ".join(resolve(*VETERAN).stdout.split())
    assert "A veteran attacker assaults for at most 4 rounds (the profile's attack limit)" in text
    asked = resolve(*VETERAN[:-1], "elite", "--rounds", "2")
    text = " ".join(asked.stdout.split())
    assert "may assault for 4 rounds" in text and "after the 2 asked" in text
    assert "not verified against the rulebook" in text  # elite's limit is unverified
    answer = json.loads(resolve(*VETERAN, "--json").stdout)
    assert answer["details"]["attack_limit"] == {
        "quality": "veteran",
        "rounds": 4,
        "unverified": False,
    }


def test_the_chain_table_shows_exact_values() -> None:
    squeezed = "".join(resolve(*VETERAN).stdout.split())
    answer = json.loads(resolve(*VETERAN, "--json").stdout)
    assert "see--json" not in squeezed
    for end in answer["details"]["ends"]:
        assert end["chance"]["exact"] in squeezed
    for outcome in answer["outcomes"].values():
        assert outcome["exact"] in squeezed


def test_the_words_are_for_players() -> None:
    text = " ".join(resolve("infinity-allocate", "--example", "--run").stdout.split())
    assert "CP-SAT" not in text and "solver" not in text
    assert "best chance of at least one wound" in text


def test_a_flag_named_like_a_common_option_is_a_defect() -> None:
    from pydantic import BaseModel

    from allocator.core.errors import InternalError

    class Clash(BaseModel):
        example: int | None = None

    command = ResolveCommand(
        name="clash",
        summary="s",
        file="f",
        example="e",
        prepare=COMMANDS["percentile"].prepare,
        report=COMMANDS["percentile"].report,
        quick_roll=Clash,
    )
    assert "example" in COMMON
    with pytest.raises(InternalError, match="common option"):
        build(command)
