"""The docs stay in step with the code.

Every rule has a reference entry; every link, anchor and repository path in README.md and
docs/*.md resolves; every ``cfalloc`` command shown uses options the command has; the README's
quick start runs; the tutorial's outputs are what the commands print; the architecture map names
each rule's home; no internal text is cited.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.games.crossfire.rules import RULES, family_of

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
#: Top-level folders whose paths a page may name (relative to the repository).
REPO_ROOTS = ("allocator/", "models/", "tests/", "bench/", "docs/", ".ci/")
#: Paths named relative to the package (in docs/architecture.md and docs/solver.md).
PACKAGE_BASES = (ROOT / "allocator", ROOT / "allocator" / "games" / "crossfire")
PACKAGE_DIRS = ("core/", "cli/", "games/", "web/", "rules/", "search/")
#: Paths that exist only in an installed copy.
INSTALLED_ONLY = {"allocator/_models"}
#: The README's quick start, exactly (the brief of the project asks for these two).
QUICK_START = [
    "pip install . && cfalloc check models/scenarios/guide-2hmg-1squad-v-4.yaml",
    "pip install '.[test]' && python -m pytest -q",
]
runner = CliRunner()


def text_of(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def headings(text: str) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"^#{1,6}\s+(.+)$", text, re.MULTILINE)]


def anchor(heading: str) -> str:
    """The fragment GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def code_spans(text: str) -> list[str]:
    """The inline code of a page and the lines of its fenced blocks."""
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    return re.findall(r"`([^`\n]+)`", prose) + [line for b in blocks for line in b.splitlines()]


def is_placeholder(word: str) -> bool:
    """``models/scenarios/<file>``, ``docs/img/page-*.png``, ``models/schema/NAME.schema.json``."""
    return bool(re.search(r"[<>{}*|]", word) or re.search(r"(^|/)[A-Z]{2,}(/|\.|$)", word))


def named_paths(text: str) -> set[str]:
    """Every word of the code that looks like a path in the repository or the package."""
    found = set()
    for span in code_spans(text):
        for word in re.split(r"[\s,;()\[\]\"'=]+", span):
            word = word.rstrip(".:")
            in_package = word.startswith(PACKAGE_DIRS) and word.endswith((".py", "/"))
            if (word.startswith(REPO_ROOTS) or in_package) and not is_placeholder(word):
                found.add(word)
    return found


def exists(path: str) -> bool:
    if path.rstrip("/") in INSTALLED_ONLY:
        return True
    if path.startswith(REPO_ROOTS):
        return (ROOT / path).exists()
    return any((base / path).exists() for base in PACKAGE_BASES)


# --- the rule reference ---------------------------------------------------------------------


@pytest.mark.parametrize("rule", list(RULES))
def test_every_rule_id_is_a_heading_of_the_rule_reference(rule: str) -> None:
    assert rule in headings(text_of(DOCS / "rules.md")), (
        f"docs/rules.md has no heading for rule {rule}"
    )


def test_rule_reference_quotes_the_checkers_statements() -> None:
    text = " ".join(text_of(DOCS / "rules.md").replace(">", " ").split())
    for rule in RULES.values():
        assert " ".join(rule.statement.split()) in text, f"{rule.id}: statement not quoted"


def test_the_architecture_map_names_each_rules_home() -> None:
    """Each row of the table "Where each rule lives": its rules' module, and its functions."""
    homes: dict[str, str] = {}
    for line in text_of(DOCS / "architecture.md").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[2].startswith("`rules/"):
            continue
        module = cells[2].strip("`")
        for rule in cells[0].split(", "):
            homes[rule] = module
        family = family_of(cells[0].split(", ")[0])
        for name in re.findall(r"`(\w+)`", cells[3] + cells[4]):
            assert hasattr(family, name), f"{module} has no {name} (row {cells[0]})"
    assert set(homes) == set(RULES)
    for rule, module in homes.items():
        assert family_of(rule).__name__.endswith(module.removesuffix(".py").replace("/", "."))


# --- links, anchors, paths and names ----------------------------------------------------------


def test_anchors_are_githubs() -> None:
    assert anchor("One-round best vs whole-fight best") == "one-round-best-vs-whole-fight-best"
    assert anchor("`POST /api/check`") == "post-apicheck"


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_links_pictures_and_anchors_resolve(page: Path) -> None:
    text = text_of(page)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if "://" in target or target.startswith("mailto:"):
            continue
        path, _, fragment = target.partition("#")
        linked = (page.parent / path) if path else page
        assert linked.exists(), f"{page_id(page)}: broken link {target}"
        if fragment:
            assert linked.suffix == ".md", f"{page_id(page)}: anchor into {path}"
            known = {anchor(h) for h in headings(text_of(linked))}
            assert fragment in known, (
                f"{page_id(page)}: no heading for #{fragment} in {linked.name}"
            )


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_paths_named_in_code_exist(page: Path) -> None:
    missing = sorted(path for path in named_paths(text_of(page)) if not exists(path))
    assert not missing, f"{page_id(page)} names paths that do not exist: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_module_names_in_code_exist(page: Path) -> None:
    """A bare module name (``odds.py``) is the name of a file of the package, tests or benches."""
    files = {
        p.name for folder in ("allocator", "tests", "bench") for p in (ROOT / folder).rglob("*.py")
    }
    names = {
        w for span in code_spans(text_of(page)) for w in re.findall(r"(?<![\w/.])\w+\.py\b", span)
    }
    assert names <= files, f"{page_id(page)}: no such module {sorted(names - files)}"


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_named_scenario_files_exist(page: Path) -> None:
    names = set(re.findall(r"((?:rule|guide|edge|fight)-[a-z0-9-]+\.yaml)", text_of(page)))
    for name in names:
        assert (ROOT / "models" / "scenarios" / name).is_file(), f"{page_id(page)}: no {name}"


def test_the_tutorial_and_the_rules_name_their_scenarios() -> None:
    for page in ("tutorial.md", "rules.md"):
        assert re.search(r"(?:rule|guide)-[a-z0-9-]+\.yaml", text_of(DOCS / page)), page


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_no_internal_or_retired_names(page: Path) -> None:
    """Users never see the internal texts; the guide's examples are not called a seed (dice
    seeds are); retired paths and endpoints are gone."""
    text = text_of(page)
    for pattern in (
        r"RULES\.md",
        r"\bshared/",
        r"/api/forces",
        r"\bseed['’]s\b",
        r"\b[Ss]eed (example|scenario|text)s?\b",
        r"\bseed-[a-z0-9]",
        r"(?<![\w/.])resolvers/",
        r"cp_objective",
    ):
        assert not re.search(pattern, text), f"{page_id(page)}: {pattern!r} found"


# --- commands -------------------------------------------------------------------------------


def shown_commands(text: str) -> list[list[str]]:
    """Every ``cfalloc ...`` command in a page's code, as words after ``cfalloc``."""
    found = []
    for span in code_spans(text):
        line = span.removeprefix("$ ").replace("\\|", "|")
        for part in line.split("&&"):
            words = part.split()
            if "cfalloc" in words:
                found.append(words[words.index("cfalloc") + 1 :])
    return found


def leaf_command(words: list[str]) -> tuple[Any, list[str]] | None:
    """The (click) command ``words`` runs and the words after its name; None when the text names
    a group of commands generically (``cfalloc resolve SYSTEM ...``)."""
    command: Any = typer.main.get_command(app)
    rest = list(words)
    while hasattr(command, "commands"):
        if not rest or rest[0] not in command.commands:
            return None
        command, rest = command.commands[rest[0]], rest[1:]
    return command, rest


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_commands_shown_use_options_the_commands_have(page: Path) -> None:
    checked = 0
    for words in shown_commands(text_of(page)):
        found = leaf_command(words)
        if found is None:
            continue
        command, rest = found
        known = {opt for param in command.params for opt in param.opts} | {"--help"}
        for word in rest:
            option = re.match(r"\[?(--[a-z][a-z-]*)", word)
            if option:
                assert option.group(1) in known, (
                    f"{page_id(page)}: `cfalloc {' '.join(words)}`: {command.name} has no "
                    f"{option.group(1)}"
                )
        checked += 1
    assert checked or page.name in ("architecture.md",), f"{page_id(page)} shows no command"


def quick_start() -> list[str]:
    section = text_of(README).split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block, "README.md: the quick start has no sh block"
    return block.group(1).strip().splitlines()


def test_the_quick_start_is_the_two_commands() -> None:
    assert quick_start() == QUICK_START


@pytest.mark.parametrize(
    "command",
    [part.strip() for line in QUICK_START for part in line.split("&&") if "cfalloc" in part],
)
def test_the_quick_starts_cfalloc_commands_exit_0(command: str) -> None:
    words = shlex.split(command)[1:]
    args = [str(ROOT / w) if (ROOT / w).exists() and "/" in w else w for w in words]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, f"{command}: exit {result.exit_code}\n{result.output}"


def test_the_tutorials_whole_fight_numbers_are_the_solvers() -> None:
    path = ROOT / "models" / "scenarios" / "fight-together-or-apart.yaml"
    result = runner.invoke(
        app, ["solve", str(path), "--side", "defender", "--objective", "take", "--json"]
    )
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    take, one_round = answer["value_exact"], answer["fight"]["one_round"]["exact"]
    text = text_of(DOCS / "tutorial.md")
    assert "## One-round best vs whole-fight best" in text
    assert f"Value: {take} " in text and f'`one_round` (`"{one_round}"`)' in text
    assert (take, one_round) == ("319/512", "343/512")


def test_tutorial_shows_the_pages_pictures() -> None:
    text = text_of(DOCS / "tutorial.md")
    for picture in ("page-check.png", "page-legal.png", "page-solve.png", "page-dice.png"):
        assert f"(img/{picture})" in text


def test_the_scenario_format_shows_the_shipped_example_as_it_is() -> None:
    shown = re.search(r"```yaml\n(title:.*?)```", text_of(DOCS / "scenarios.md"), re.DOTALL)
    assert shown, "docs/scenarios.md: no complete example"
    shipped = ROOT / "models" / "scenarios" / "guide-2hmg-1squad-v-4.yaml"
    assert shown.group(1) == shipped.read_text(encoding="utf-8")


def sessions(page: Path) -> list[tuple[str, list[str]]]:
    """Each ``$ cfalloc ...`` of a page's text blocks with the output shown after it."""
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"^```text\n(.*?)^```", text_of(page), re.DOTALL | re.MULTILINE):
        current: list[str] | None = None
        for line in block.splitlines():
            if line.startswith("$ "):
                current = [] if line.startswith("$ cfalloc ") else None
                if current is not None:
                    found.append((line[2:], current))
            elif current is not None:
                current.append(line)
    return found


@pytest.mark.parametrize("session", sessions(DOCS / "tutorial.md"), ids=lambda s: s[0][8:60])
def test_the_tutorials_outputs_are_real(
    session: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the tutorial shows after a command is what it prints, 100 columns wide, in order
    (``...`` stands for lines left out, and a line ending in ``...`` for the rest of it)."""
    from allocator.cli import console

    command, shown = session
    monkeypatch.setattr(console.out, "width", 100)
    words = shlex.split(command)[1:]
    args = [str(ROOT / w) if "/" in w and (ROOT / w).exists() else w for w in words]
    result = runner.invoke(app, args)
    assert result.exit_code in (0, 1), f"{command}: exit {result.exit_code}\n{result.output}"
    printed = iter(line.rstrip() for line in result.stdout.splitlines())
    for line in shown:
        expected = line.rstrip()
        if expected.strip() in ("", "..."):
            continue
        assert any(same_line(expected, p) for p in printed), (
            f"{command}: not printed (in order): {line!r}"
        )


def same_line(shown: str, printed: str) -> bool:
    """Whether a line of the docs is a line printed (``...`` at its end: a line begun so)."""
    if shown.endswith("..."):
        return printed.startswith(shown.removesuffix("...").rstrip())
    return printed == shown


#: The files of docs/sweep.md's refusals, beside the cottage of tests/crossfire/test_sweep.py.
SWEEP_SPECS = {
    "capacity.yaml": "scenario: cottage.yaml\nvary:\n  building.capcity: [2, 3]\n",
    "quality.yaml": "scenario: cottage.yaml\nvary:\n  attacker.quality: [green, elite]\n",
    "big.yaml": "scenario: cottage.yaml\nvary:\n"
    f"  building.capacity: {list(range(1, 101))}\n"
    f"  building.name: {[f'n{n}' for n in range(100)]}\n"
    "  surprise: [true, false, null]\n",
}


@pytest.mark.parametrize("session", sessions(DOCS / "sweep.md"), ids=lambda s: s[0][8:60])
def test_the_sweep_pages_refusals_are_real(
    session: tuple[str, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each refusal docs/sweep.md shows is what the command says, in full: a spec of
    :data:`SWEEP_SPECS`, or the cottage's sweep resumed from a file whose line 4 is cut."""
    from crossfire.test_sweep import SCENARIO, SPEC

    command, shown = session
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cottage.yaml").write_text(SCENARIO, encoding="utf-8")
    (tmp_path / "cottage-sweep.yaml").write_text(SPEC, encoding="utf-8")
    for name, text in SWEEP_SPECS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    words = shlex.split(command)[1:]
    if "--out" in words:
        out = Path(words[words.index("--out") + 1])
        assert runner.invoke(app, [*words, "--jobs", "1"]).exit_code == 0
        lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
        lines[3] = lines[3][:7] + "\n"
        out.write_text("".join(lines), encoding="utf-8")
    result = runner.invoke(app, words)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == shown
