"""The docs stay in step with the code: every rule has a reference entry, every link resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from allocator.games.crossfire.rules import RULES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = ["rules.md", "tutorial.md", "scenarios.md"]


def headings(text: str) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"^#{1,6}\s+(.+)$", text, re.MULTILINE)]


@pytest.mark.parametrize("rule", list(RULES))
def test_every_rule_id_is_a_heading_of_the_rule_reference(rule: str) -> None:
    assert rule in headings((DOCS / "rules.md").read_text(encoding="utf-8")), (
        f"docs/rules.md has no heading for rule {rule}"
    )


def test_rule_reference_quotes_the_checkers_statements() -> None:
    text = " ".join((DOCS / "rules.md").read_text(encoding="utf-8").replace(">", " ").split())
    for rule in RULES.values():
        assert " ".join(rule.statement.split()) in text, f"{rule.id}: statement not quoted"


@pytest.mark.parametrize("page", PAGES)
def test_links_and_pictures_resolve(page: str) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)\)", text):
        if "://" not in target:
            assert (DOCS / target).exists(), f"{page}: broken link {target}"


@pytest.mark.parametrize("page", PAGES)
def test_named_scenario_files_exist(page: str) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    names = set(re.findall(r"((?:rule|guide|edge)-[a-z0-9-]+\.yaml)", text))
    assert names or page == "scenarios.md"
    for name in names:
        assert (ROOT / "models" / "scenarios" / name).is_file(), f"{page}: no scenario {name}"


def test_tutorial_shows_the_pages_pictures() -> None:
    text = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    for picture in ("page-check.png", "page-legal.png", "page-solve.png", "page-dice.png"):
        assert f"(img/{picture})" in text
