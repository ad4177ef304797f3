"""The runnable examples in the docstrings of :mod:`allocator` stay true.

Every module of the package is found by walking it, so a new module is covered without editing
this file. The examples open shipped files through :mod:`allocator.core.library`, so they run
from any working directory.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import allocator

#: The web package needs the optional web extra; its examples run in tests/web.
EXCLUDED = ("allocator.web",)


def modules() -> list[str]:
    found = ["allocator"] + [
        info.name for info in pkgutil.walk_packages(allocator.__path__, "allocator.")
    ]
    return sorted(
        name
        for name in found
        if not any(name == skip or name.startswith(skip + ".") for skip in EXCLUDED)
        and not name.endswith("__main__")
    )


def test_the_modules_are_found() -> None:
    found = set(modules())
    assert {
        "allocator.core.reader",
        "allocator.games.crossfire.rules.attack",
        "allocator.games.crossfire.search.solve",
        "allocator.games.infinity.rolls",
    } <= found


@pytest.mark.parametrize("name", modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_most_modules_have_examples() -> None:
    finder = doctest.DocTestFinder()
    with_examples = [
        name
        for name in modules()
        if any(test.examples for test in finder.find(importlib.import_module(name)))
    ]
    assert len(with_examples) >= len(modules()) // 2, with_examples
