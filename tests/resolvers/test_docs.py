"""docs/resolvers.md stays true: its commands run as shown, its examples exist."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.core.library import names
from allocator.games import resolve_commands

DEFAULT_EXAMPLES = {name: command.example for name, command in resolve_commands().items()}
DOC = Path(__file__).resolve().parents[2] / "docs" / "resolvers.md"
TEXT = DOC.read_text(encoding="utf-8")
runner = CliRunner()


def sessions() -> list[list[tuple[str, list[str]]]]:
    """Each console block: its commands, each with the lines shown after it."""
    blocks = re.findall(r"```console\n(.*?)```", TEXT, re.DOTALL)
    found = []
    for block in blocks:
        commands: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                commands.append((line[2:], []))
            elif commands:
                commands[-1][1].append(line)
        found.append(commands)
    return found


def test_no_internal_texts_are_cited():
    assert "RULES.md" not in TEXT and "seed" not in TEXT.lower()


def test_every_example_named_is_shipped_and_every_command_has_one():
    for command, default in DEFAULT_EXAMPLES.items():
        assert f"| `{command}` | `{default}`" in TEXT
    for name in re.findall(r"--example-name ([a-z][a-z-]*)", TEXT):
        assert any(name in names("scenarios", command) for command in DEFAULT_EXAMPLES), name
    for command in DEFAULT_EXAMPLES:
        for name in names("scenarios", command):
            assert f"`{name}`" in TEXT, f"{command}/{name} is shipped but not documented"


@pytest.mark.parametrize("session", sessions(), ids=lambda s: s[-1][0][:60])
def test_the_console_sessions_run_as_shown(session, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for command, shown in session:
        words = shlex.split(command)
        assert words[:2] == ["cfalloc", "resolve"] or words[0] == "python", command
        if words[0] == "python":
            continue
        target = None
        if ">" in words:
            words, target = words[: words.index(">")], words[words.index(">") + 1]
        result = runner.invoke(app, words[1:])
        if shown and shown[0].startswith("error: "):
            code = 3 if "no answer within the time limit" in shown[0] else 2
            assert result.exit_code == code and result.stderr.strip() == shown[0], command
            continue
        assert result.exit_code == 0, f"{command}: {result.output}"
        if target:
            Path(target).write_text(result.stdout, encoding="utf-8")
        if shown:
            assert result.stdout.splitlines()[0] == shown[0], command
