"""The one reader of files and bodies: YAML and JSON read within the same limits."""

from __future__ import annotations

import json

import pytest

from allocator.core.errors import LimitError
from allocator.core.limits import Limits
from allocator.core.reader import read_text

LIMITS = Limits(max_values=1_000)


def nested(count: int, depth: int) -> list[object]:
    document: list[object] = [1] * count
    for _ in range(depth - 1):
        document = [document]
    return document


@pytest.mark.parametrize("depth", [1, 3, 8])
@pytest.mark.parametrize("syntax", ["yaml", "json"])
def test_each_value_counts_once_however_deep(syntax: str, depth: int) -> None:
    """A value inside nested lists is one value, in YAML as in JSON: near the limit both read,
    over it both refuse."""
    within = json.dumps(nested(LIMITS.max_values - depth - 1, depth))
    assert read_text(within, syntax=syntax, limits=LIMITS)
    over = json.dumps(nested(LIMITS.max_values + 1, depth))
    with pytest.raises(LimitError):
        read_text(over, syntax=syntax, limits=LIMITS)


def test_a_yaml_alias_counts_every_value_it_repeats() -> None:
    text = "a: &a " + json.dumps(list(range(400))) + "\nb: *a\nc: *a\n"
    with pytest.raises(LimitError, match="aliases are expanded"):
        read_text(text, syntax="yaml", limits=LIMITS)
