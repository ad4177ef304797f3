"""The runnable examples in the docstrings of :mod:`allocator` stay true.

Every module of the package is found by walking it, so a new module is covered without editing
this file; ``allocator.resolvers*`` and ``allocator.web*`` have their own doctest runners. The
examples open shipped files by paths relative to the repository root, so they run from there.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import allocator

ROOT = Path(__file__).resolve().parent.parent
EXCLUDED = ("allocator.resolvers", "allocator.web")


def modules() -> list[str]:
    found = ["allocator"] + [
        info.name for info in pkgutil.walk_packages(allocator.__path__, "allocator.")
    ]
    return sorted(
        name
        for name in found
        if not any(name == skip or name.startswith(skip + ".") for skip in EXCLUDED)
    )


def test_the_core_modules_are_found() -> None:
    found = set(modules())
    assert {"allocator.battle", "allocator.rules", "allocator.odds", "allocator.solve"} <= found
    assert not any(name.startswith(EXCLUDED) for name in found)


@pytest.mark.parametrize("name", modules())
def test_docstring_examples(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_most_modules_have_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    finder = doctest.DocTestFinder()
    with_examples = [
        name
        for name in modules()
        if any(test.examples for test in finder.find(importlib.import_module(name)))
    ]
    assert len(with_examples) >= len(modules()) // 2, with_examples
