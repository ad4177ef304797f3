"""The import graph of ``allocator/``: no cycle, and no import against the flow of the data.

The graph is built from the source with :mod:`ast`, so that every import counts wherever it is
written: at the top of a module, inside a function (the lazy imports that keep the command line
fast) and under ``if TYPE_CHECKING:`` (a type named from a higher layer is a dependency on it
all the same). An import names the most precise module it reaches (``from a.b import c``
reaches ``a.b.c`` when that is a module, ``a.b`` otherwise), as Python's import system runs it.

The layers, lowest first: ``allocator`` (its version) < ``core`` < ``games`` < ``web`` <
``cli`` < ``allocator.__main__``: a module imports only from its own layer or lower ones (so the
web never imports the command line, and the command line may serve the web). Each game package
imports no other game and not the registry built on top of them; inside Crossfire, the modules
follow the data flow drawn in docs/architecture.md, one line of the drawing per layer.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "allocator"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
LAYERS = ["allocator", "allocator.core", "allocator.games", "allocator.web", "allocator.cli"]
CROSSFIRE = "allocator.games.crossfire"
#: The registry and what it builds from every game: above the game packages.
REGISTRY = ("allocator.games", "allocator.games.answer")


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth (in functions, classes, ``if TYPE_CHECKING:``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def targets(
    module: str, path: Path, node: ast.Import | ast.ImportFrom, known: set[str]
) -> set[str]:
    """The modules of the package one import statement of ``module`` reaches."""
    if isinstance(node, ast.Import):
        named = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
            package = package[: len(package) - node.level + 1]
            base = ".".join([*package, *([node.module] if node.module else [])])
        named = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
    reached = set()
    for name in named:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            reached.add(name)
    return reached


@cache
def graph() -> nx.DiGraph:
    known = modules()
    found = nx.DiGraph()
    for module, path in known.items():
        found.add_node(module)
        for node in import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            for target in targets(module, path, node, set(known)):
                found.add_edge(module, target)
    return found


def layer(module: str) -> int:
    if module == "allocator.__main__":
        return len(LAYERS)
    return max(
        i for i, name in enumerate(LAYERS) if module == name or module.startswith(name + ".")
    )


def crossfire_layers() -> list[list[str]]:
    """The modules of each line of the data-flow drawing in docs/architecture.md, in order."""
    drawing = re.search(r"```text\n(.*?)```", ARCHITECTURE.read_text(encoding="utf-8"), re.S)
    assert drawing, "docs/architecture.md has no data-flow drawing"
    found = []
    for line in drawing.group(1).splitlines():
        named = re.match(r"\s*->\s+(.*?)(?:\s{2,}|$)", line)
        parts = re.findall(r"(?<![\w/])([a-z_]+)(?:\.py|/)", named.group(1) if named else "")
        names = [f"{CROSSFIRE}.{part}" for part in parts if part not in ("core", "cli", "web")]
        if names:
            found.append(names)
    return found


def crossfire_layer(module: str, layers: list[list[str]]) -> int:
    for index, names in enumerate(layers):
        if any(module == name or module.startswith(name + ".") for name in names):
            return index
    raise AssertionError(f"{module} is in no line of the drawing in docs/architecture.md")


def edges(where: str = "allocator") -> list[tuple[str, str]]:
    return sorted((a, b) for a, b in graph().edges if a.startswith(where) and b.startswith(where))


# --- the graph is what it claims ----------------------------------------------------------------


def test_the_graph_sees_every_kind_of_import() -> None:
    """A lazy import (in a function) and a TYPE_CHECKING one are edges like any other."""
    assert ("allocator.cli.crossfire", "allocator.games.crossfire.service") in graph().edges
    assert ("allocator.games.crossfire.words", "allocator.games.crossfire.search.solve") in graph(
    ).edges  # fmt: skip
    assert ("allocator.games.crossfire.model", "allocator.core.cpsat") in graph().edges
    assert len(graph()) == len(modules()) > 90


# --- no cycle ---------------------------------------------------------------------------------


def test_no_import_cycle() -> None:
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph()) if len(c) > 1]
    assert cycles == [], f"import cycles: {cycles}"


# --- no import upward -------------------------------------------------------------------------


def test_no_layer_imports_a_higher_one() -> None:
    upward = [(a, b) for a, b in edges() if layer(b) > layer(a)]
    assert upward == [], "imports against the layers core < games < web < cli"


def test_the_web_never_imports_the_command_line_and_the_domain_no_terminal_library() -> None:
    assert [(a, b) for a, b in edges() if a.startswith("allocator.web") and ".cli" in b] == []
    for module, path in modules().items():
        if module.startswith(("allocator.games", "allocator.core")):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"^\s*(import|from) (typer|rich)\b", text, re.M), module


def test_no_game_imports_another_or_the_registry() -> None:
    def game(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if len(parts) > 2 and module not in REGISTRY else None

    crossing = [
        (a, b)
        for a, b in edges("allocator.games")
        if game(a) is not None and (game(b) is None or game(a) != game(b))
    ]
    assert crossing == []


def test_crossfire_follows_the_data_flow_of_the_architecture_drawing() -> None:
    layers = crossfire_layers()
    assert [f"{CROSSFIRE}.schema", f"{CROSSFIRE}.answers"] in layers
    inside = [m for m in modules() if m.startswith(CROSSFIRE + ".")]
    backwards = [
        (a, b)
        for a, b in edges(CROSSFIRE + ".")
        if crossfire_layer(b, layers) > crossfire_layer(a, layers)
    ]
    for module in inside:  # every module has its place in the drawing
        crossfire_layer(module, layers)
    assert backwards == [], "imports against the data flow drawn in docs/architecture.md"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from allocator.core import text", {"allocator.core.text"}),
        ("from allocator.core.text import plain", {"allocator.core.text"}),
        ("import allocator.core.text as t", {"allocator.core.text"}),
        ("from . import errors", {"allocator.core.errors"}),
        ("from .text import plain", {"allocator.core.text"}),
        ("from allocator.games import GAMES", {"allocator.games"}),
        ("import typer", set()),
    ],
)
def test_an_import_reaches_the_module_it_names(source: str, expected: set[str]) -> None:
    known = set(modules())
    node = next(import_nodes(ast.parse(source)))
    path = PACKAGE / "core" / "limits.py"
    assert targets("allocator.core.limits", path, node, known) == expected
