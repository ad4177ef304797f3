"""A file written for a player is written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from allocator.core.errors import InputError
from allocator.core.files import write_atomically


def test_a_file_is_replaced_whole_with_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(0o640)
    write_atomically(path, "new\n")
    assert path.read_text(encoding="utf-8") == "new\n"
    assert path.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.jsonl"]


def test_a_write_that_fails_leaves_the_old_file_and_no_leftovers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "round-2.yaml"
    path.write_text("old\n", encoding="utf-8")

    def full_disk(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(InputError, match=r"cannot write the file \(No space left on device\)") as e:
        write_atomically(path, "new\n")
    assert e.value.file == str(path)
    assert path.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["round-2.yaml"]


def test_a_link_named_is_replaced_never_the_file_it_leads_to(tmp_path: Path) -> None:
    kept = tmp_path / "notes.txt"
    kept.write_text("my notes\n", encoding="utf-8")
    link = tmp_path / "round-2.yaml"
    link.symlink_to(kept)
    write_atomically(link, "units: []\n")
    assert not link.is_symlink() and link.read_text(encoding="utf-8") == "units: []\n"
    assert kept.read_text(encoding="utf-8") == "my notes\n"
