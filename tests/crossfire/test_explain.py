"""Golden-output tests of ``cfalloc explain`` on the guide's examples, and its step verdicts.

The JSON that :func:`allocator.games.crossfire.explain.explain` returns for each example scenario
(``models/scenarios/guide-*.yaml``) and for ``bench/platoon-v-squad-hmg-pc.yaml`` (no allocation:
the optimal line of play) must equal the committed file ``tests/golden/explain-<name>.json``.

When the explanation changes on purpose, regenerate the golden files and read the diff before
committing it::

    CFALLOC_UPDATE_GOLDEN=1 python -m pytest tests/crossfire/test_explain.py

With that variable set, the tests write the files instead of comparing them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from allocator.games.crossfire.battle import load_battle
from allocator.games.crossfire.check import check_battle, is_complete
from allocator.games.crossfire.explain import explain
from allocator.games.crossfire.objectives import objective_named
from allocator.games.crossfire.rules import RULES

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SCENARIOS = ROOT / "models" / "scenarios"
EXAMPLES = [*sorted(SCENARIOS.glob("guide-*.yaml")), ROOT / "bench" / "platoon-v-squad-hmg-pc.yaml"]
UPDATE = os.environ.get("CFALLOC_UPDATE_GOLDEN") == "1"


def golden_path(scenario: Path) -> Path:
    return GOLDEN / f"explain-{scenario.stem}.json"


def as_json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def explained(scenario: Path) -> dict[str, Any]:
    return explain(load_battle(scenario)).to_json()


@pytest.mark.parametrize("scenario", EXAMPLES, ids=lambda p: p.stem)
def test_explain_matches_golden(scenario: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = as_json(explained(scenario))
    path = golden_path(scenario)
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.is_file(), f"missing {path.name}: run with CFALLOC_UPDATE_GOLDEN=1"
    assert json.loads(text) == json.loads(path.read_text(encoding="utf-8")), (
        f"explain output differs from {path.name}; if the change is meant, regenerate with "
        "CFALLOC_UPDATE_GOLDEN=1 and review the diff"
    )


def test_no_stray_golden_files() -> None:
    expected = {golden_path(p).name for p in EXAMPLES}
    present = {p.name for p in GOLDEN.glob("explain-*.json")}
    assert present <= expected, f"golden files without a scenario: {sorted(present - expected)}"


def test_the_guide_examples_are_all_there() -> None:
    # 2 HMGs and 1 squad against 4; 5 squads against 2; a rifle squad and a CC against 2 SMGs
    stems = {p.stem for p in EXAMPLES}
    assert {
        "guide-2hmg-1squad-v-4",
        "guide-5-squads-v-2-four-and-one",
        "guide-5-squads-v-2-three-and-two",
        "guide-5-squads-v-2-five-and-none",
        "guide-rifle-and-cc-v-2-smg-legal",
        "guide-rifle-and-cc-v-2-smg-illegal",
    } <= stems


def test_the_explanation_has_a_step_for_each_part_of_the_procedure() -> None:
    data = explained(SCENARIOS / "guide-2hmg-1squad-v-4.yaml")
    assert data["mode"] == "check"
    steps = data["steps"]
    assert [s["step"] for s in steps] == list(range(8))
    for step in steps[:7]:
        assert step["rules"] == [r for r, rule in RULES.items() if rule.step == step["step"]]
        assert step["text"], step["title"]
    assert steps[7]["odds"]["sweep"]["exact"] == "65/88"


def test_optimal_mode_says_why() -> None:
    data = explained(ROOT / "bench" / "platoon-v-squad-hmg-pc.yaml")
    assert data["mode"] == "optimal"
    statuses = {s["status"] for s in data["steps"]}
    assert statuses == {"optimal"}
    assert any("runner-up" in line for line in data["steps"][1]["text"])
    assert any("runner-up" in line for line in data["steps"][4]["text"])
    assert data["objective"] == "take"
    assert data["fight"]["p_attacker_takes"] == "200279/261392"
    assert any("Over the whole fight" in line for line in data["steps"][7]["text"])
    one_round = explain(
        load_battle(ROOT / "bench" / "platoon-v-squad-hmg-pc.yaml"), objective_named("sweep")
    )
    assert one_round.to_json()["steps"][7]["odds"]["sweep"]["exact"] == "273/496"


WITH_ALLOCATION = [p for p in sorted(SCENARIOS.glob("*.yaml")) if load_battle(p).allocation]


@pytest.mark.parametrize("scenario", WITH_ALLOCATION, ids=lambda p: p.stem)
def test_broken_steps_are_exactly_the_steps_of_the_reported_rules(scenario: Path) -> None:
    battle = load_battle(scenario)
    assert battle.allocation is not None
    report = check_battle(battle)
    steps = explain(battle).to_json()["steps"]
    broken = {s["step"] for s in steps if s["status"] == "broken"}
    assert broken == {v.step for v in report.violations}
    quoted = sorted((v["rule"], tuple(v["stands"])) for s in steps for v in s["violations"])
    assert quoted == sorted((v.rule, tuple(v.stands)) for v in report.violations)
    for step in steps:
        for v in step["violations"]:
            assert RULES[v["rule"]].step == step["step"]
            assert any(v["rule"] in line for line in step["text"])
    complete = report.legal and is_complete(battle.allocation)
    assert steps[7]["status"] == ("followed" if complete else "not reached")
    assert ("odds" in steps[7]) == complete
    if complete:
        assert all(s["status"] == "followed" for s in steps[:7]), [
            (s["step"], s["status"]) for s in steps[:7]
        ]
