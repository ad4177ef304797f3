"""Paths a player names that cannot be followed or written: one line, exit 2, never exit 4.

A loop of symbolic links, or a name longer than the file system takes, is bad input wherever a
path is named: a file to write (``play --out``, ``plan --plot``, ``sweep --out/--csv/--plot``),
a sweep's spec or its scenario, a scenario's own profile, ``compare --profile``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.core.library import folder

ROOT = Path(__file__).resolve().parents[2]
LEGAL = folder("scenarios") / "guide-2hmg-1squad-v-4.yaml"
ONE_CELL = ROOT / "tests" / "data" / "sweeps" / "one-cell.yaml"
LONG = "a" * 300  # over the 255 bytes of a name on Linux file systems
runner = CliRunner()

#: Each option that writes a file, the command before it, and the suffix its file takes.
WRITERS: dict[str, tuple[list[str], str]] = {
    "play --out": (["play", str(LEGAL), "--dice", "A:4-3,B:1-5", "--out"], ".yaml"),
    "plan --plot": (["plan", str(LEGAL), "--plot"], ".png"),
    "sweep --out": (["sweep", str(ONE_CELL), "--jobs", "1", "--out"], ".jsonl"),
    "sweep --csv": (["sweep", str(ONE_CELL), "--jobs", "1", "--csv"], ".csv"),
    "sweep --plot": (["sweep", str(ONE_CELL), "--jobs", "1", "--plot"], ".png"),
}


def refused_in_one_line(arguments: list[str], *words: str) -> None:
    result: Any = runner.invoke(app, arguments)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture
def loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding ``loopa.yaml`` and ``loopb.yaml``, links to each other, and
    ``loop1`` and ``loop2``, the same; the current folder."""
    (tmp_path / "loopa.yaml").symlink_to("loopb.yaml")
    (tmp_path / "loopb.yaml").symlink_to("loopa.yaml")
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_file_to_write_with_a_name_too_long_is_named_by_its_option(
    writer: str, tmp_path: Path
) -> None:
    command, suffix = WRITERS[writer]
    option = writer.split()[1]
    named = str(tmp_path / (LONG + suffix))
    refused_in_one_line([*command, named], f"error: {option}: ", "File name too long")


@pytest.mark.parametrize("writer", sorted(WRITERS))
@pytest.mark.parametrize("inside", [False, True])
def test_a_file_to_write_through_a_loop_of_links_is_named_by_its_option(
    writer: str, inside: bool, loop: Path
) -> None:
    command, suffix = WRITERS[writer]
    named = f"loop1/round{suffix}" if inside else "loop1"
    if not inside and writer != "play --out":
        named = "loopa" + suffix  # a sweep's and a plan's outputs are known by their suffix
        (loop / named).symlink_to(named)
    refused_in_one_line(
        [*command, named], f"error: {writer.split()[1]}: ", "a loop of symbolic links"
    )


def test_a_document_named_through_a_loop_of_links_is_named_where_it_was_named(
    loop: Path,
) -> None:
    text = LEGAL.read_text(encoding="utf-8")
    (loop / "fight.yaml").write_text(text + "\nruleset: loopa.yaml\n", encoding="utf-8")
    refused_in_one_line(["check", "fight.yaml"], "fight.yaml: ruleset: ", "a loop of symbolic")
    (loop / "spec.yaml").write_text("scenario: loopa.yaml\n", encoding="utf-8")
    refused_in_one_line(["sweep", "spec.yaml"], "spec.yaml: scenario: ", "a loop of symbolic")
    refused_in_one_line(["sweep", "loopa.yaml"], "loopa.yaml", "a loop of symbolic links")
    refused_in_one_line(
        ["compare", str(LEGAL), "--profile", "crossfire:ties=defender", "--profile", "loopa.yaml"],
        "error: --profile: ",
        "a loop of symbolic links",
    )
