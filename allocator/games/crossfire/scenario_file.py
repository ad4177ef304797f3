"""A scenario written as a file, in the shipped scenarios' style: what the page's "file" shows
and downloads, and the next round's scenario of ``cfalloc play``.

>>> from allocator.games.crossfire.schema import Scenario
>>> s = Scenario.model_validate({"building": {"name": "Barn"},
...     "defender": {"units": [{"id": "p", "kind": "platoon"}],
...                  "stands": [{"id": "d1", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}],
...                  "stands": [{"id": "a1", "type": "rifle", "unit": "q"}]}})
>>> print(scenario_yaml(s), end="")
building: {name: Barn}
defender:
  units: [{id: p, kind: platoon}]
  stands: [{id: d1, type: rifle, unit: p}]
attacker:
  units: [{id: q, kind: platoon}]
  stands: [{id: a1, type: rifle, unit: q}]
"""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

import yaml

from allocator.core.budget import Budget
from allocator.core.reader import walk
from allocator.core.text import INVISIBLE
from allocator.games.crossfire.schema import Scenario

#: A flow collection (``{id: d1, type: rifle}``) is written on one line up to this width.
FLOW_WIDTH = 88
#: Characters YAML reads as line breaks or refuses raw, and the invisible ones a terminal shows
#: as nothing or obeys: written escaped, in double quotes.
_ESCAPED = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff{INVISIBLE}]")
_INVISIBLE = re.compile(f"[{INVISIBLE}]")
#: Longer texts are written folded (``description: >``), as the shipped scenarios are.
FOLDED_TEXT = 80


class _Block(dict[str, Any]):
    """A mapping always written as a block: the file itself, each side, the allocation."""


#: The parts of a scenario file written as blocks, whatever their size.
BLOCK_PARTS = ("defender", "attacker", "allocation")


class _Dumper(yaml.SafeDumper):
    """The shipped scenarios' style: blocks at the top, short collections on one line, list
    items indented under their key, long texts folded, whole numbers without ``.0``.

    With a ``budget`` (a subclass's), every collection written first checks the time left.
    """

    budget: Budget | None = None

    def on_time(self) -> None:
        if self.budget is not None:
            self.budget.check("the scenario's file text")

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)

    def write_double_quoted(self, text: str, split: bool = True) -> None:
        """A text with an invisible character written all in escapes outside ASCII: PyYAML
        escapes only the characters it cannot print, and prints the invisible ones raw."""
        if not _INVISIBLE.search(text):
            super().write_double_quoted(text, split)
            return
        self.allow_unicode = False
        try:
            super().write_double_quoted(text, split)
        finally:
            self.allow_unicode = True


def _flow_text(data: Any) -> str:
    return yaml.safe_dump(data, default_flow_style=True, width=10**6, sort_keys=False)


def _one_line(data: Any) -> bool:
    """Whether a collection fits on one line in flow style (no long or multi-line text).

    Only a collection of fewer values than the line has characters is written out to see:
    so every collection of a large tree is not written out again for each one above it.
    """
    if next(islice(walk(data), FLOW_WIDTH, None), None) is not None:  # more values than that
        return False
    text = _flow_text(data).rstrip("\n")
    return "\n" not in text and len(text) <= FLOW_WIDTH


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.Node:
    style: str | None = None
    if _ESCAPED.search(text):
        style = '"'  # only double quotes keep these characters as they are
    elif "\n" in text.rstrip("\n"):
        style = "|"
    elif len(text) > FOLDED_TEXT:
        style = ">"
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


def _represent_number(dumper: yaml.SafeDumper, number: float) -> yaml.Node:
    if number.is_integer() and abs(number) < 1e15:
        return dumper.represent_int(int(number))
    return dumper.represent_float(number)


def _represent_mapping(dumper: _Dumper, data: dict[str, Any]) -> yaml.Node:
    dumper.on_time()
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=_one_line(data))


def _represent_list(dumper: _Dumper, data: list[Any]) -> yaml.Node:
    dumper.on_time()
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=_one_line(data))


def _represent_block(dumper: yaml.SafeDumper, data: _Block) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", dict(data), flow_style=False)


_Dumper.add_representer(str, _represent_text)
_Dumper.add_representer(float, _represent_number)
_Dumper.add_representer(dict, _represent_mapping)
_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(_Block, _represent_block)


def scenario_yaml(scenario: Scenario, budget: Budget | None = None) -> str:
    """The scenario as a file: what was given, in the schema's order (``cfalloc check`` reads
    it back to the same scenario). With a ``budget``, writing stops with a
    :class:`~allocator.core.errors.TimeLimitError` when the time is up."""
    data = scenario.model_dump(mode="json", exclude_unset=True)
    document = _Block({k: _Block(v) if k in BLOCK_PARTS else v for k, v in data.items()})
    dumper = _Dumper if budget is None else type("_TimedDumper", (_Dumper,), {"budget": budget})
    return yaml.dump(document, Dumper=dumper, sort_keys=False, allow_unicode=True, width=FLOW_WIDTH)
