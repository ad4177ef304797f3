"""The runnable examples in the resolvers' docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "allocator.resolvers",
    "allocator.resolvers.common",
    "allocator.resolvers.infinity",
    "allocator.resolvers.infinity_allocate",
    "allocator.resolvers.matched_dice",
    "allocator.resolvers.battlesystem",
    "allocator.resolvers.percentile",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
