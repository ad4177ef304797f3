"""``cfalloc sweep``: the spec and its paths, the refusals, the backends, the output and resume.

The backends are real: joblib's loky processes and a ``dask.distributed.LocalCluster`` (in this
process, so that it starts in a fraction of a second), each held to the same bytes as a serial
run (``--jobs 1``) but for each line's ``seconds``, the one field that says where and how fast
a cell ran.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from fractions import Fraction
from io import StringIO
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from contract import answered, refusal, refused
from rich.console import Console
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.cli.sweep import progress_bar
from allocator.core.errors import InputError, LimitError
from allocator.core.library import folder
from allocator.core.limits import Limits
from allocator.games.crossfire.battle import battle_from_data
from allocator.games.crossfire.objectives import objective_named
from allocator.games.crossfire.search.solve import solve
from allocator.games.crossfire.sweep import (
    ResultsFile,
    SweepLine,
    csv_text,
    load_sweep,
    read_finished,
    solve_cell,
    variant,
)

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = folder("sweeps") / "farmhouse-quality.yaml"
runner = CliRunner()

SCENARIO = """\
title: A cottage
building: {name: Cottage, capacity: 2}
defender:
  units: [{id: p, kind: platoon}]
  stands:
    - {id: d1, type: rifle, unit: p}
    - {id: d2, type: rifle, unit: p}
attacker:
  units: [{id: q, kind: platoon}]
  stands:
    - {id: a1, type: rifle, unit: q}
    - {id: a2, type: rifle, unit: q}
    - {id: a3, type: rifle, unit: q}
"""
#: Six cells of the whole fight, each solved in milliseconds.
SPEC = """\
scenario: cottage.yaml
objective: take
vary:
  attacker.quality: [green, veteran]
  ruleset.overrides.ties: [reroll, defender, attacker]
"""


def invoke(*args: object) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def without_seconds(text: str) -> list[dict[str, Any]]:
    """The lines of a sweep's output, each without ``seconds`` (the field that differs)."""
    lines = [json.loads(line) for line in text.splitlines()]
    for line in lines:
        assert isinstance(line.pop("seconds"), float)
    return lines


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    (tmp_path / "cottage.yaml").write_text(SCENARIO, encoding="utf-8")
    path = tmp_path / "cottage-sweep.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def write_spec(tmp_path: Path, text: str) -> Path:
    (tmp_path / "cottage.yaml").write_text(SCENARIO, encoding="utf-8")
    path = tmp_path / "spec.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# --- the grid and its paths ---------------------------------------------------------------------


def test_the_grid_is_the_product_of_the_values_the_last_path_fastest(spec: Path) -> None:
    sweep = load_sweep(spec)
    assert [cell.key() for cell in sweep.cells[:4]] == [
        {"attacker.quality": "green", "ruleset.overrides.ties": "reroll"},
        {"attacker.quality": "green", "ruleset.overrides.ties": "defender"},
        {"attacker.quality": "green", "ruleset.overrides.ties": "attacker"},
        {"attacker.quality": "veteran", "ruleset.overrides.ties": "reroll"},
    ]
    assert len(sweep.cells) == 6


def test_a_side_wide_path_sets_every_stand_of_that_side(spec: Path) -> None:
    sweep = load_sweep(spec)
    data = variant(sweep.scenario, (("attacker.quality", "veteran"),))
    assert [s["quality"] for s in data["attacker"]["stands"]] == ["veteran"] * 3
    assert all("quality" not in s for s in data["defender"]["stands"])


def test_a_side_wide_path_on_an_organisation_sets_every_present_stand() -> None:
    scenario = {"attacker": {"organisation": "german-rifle-company", "present": ["de-1plt-sq1"]}}
    data = variant(scenario, (("attacker.suppressed", True),))
    assert data["attacker"]["present"] == [{"id": "de-1plt-sq1", "suppressed": True}]
    every = variant(
        {"attacker": {"organisation": "german-rifle-company"}}, (("attacker.quality", "green"),)
    )
    assert len(every["attacker"]["present"]) > 10
    assert {entry["quality"] for entry in every["attacker"]["present"]} == {"green"}


def test_a_stand_is_named_by_its_id_and_a_list_item_by_its_index(spec: Path) -> None:
    sweep = load_sweep(spec)
    data = variant(
        sweep.scenario, (("defender.d2.suppressed", True), ("attacker.stands.0.quality", "green"))
    )
    assert data["defender"]["stands"][1]["suppressed"] is True
    assert data["attacker"]["stands"][0]["quality"] == "green"
    assert sweep.scenario["defender"]["stands"][1].get("suppressed") is None  # a copy changed


def test_a_ruleset_path_turns_a_profile_name_into_its_overrides(spec: Path) -> None:
    sweep = load_sweep(spec)
    data = variant(sweep.scenario, (("ruleset.overrides.ties", "defender"),))
    assert data["ruleset"] == {"base": "crossfire", "overrides": {"ties": "defender"}}


def test_a_cell_is_the_solve_of_its_variant(spec: Path) -> None:
    sweep = load_sweep(spec)
    cell = sweep.cells[4]  # veteran attackers, ties to the defender
    data = variant(sweep.scenario, cell.values)
    expected = solve(battle_from_data(data), "defender", objective_named("take")).line.value
    line = solve_cell(sweep.task(cell)).line
    assert (line.status, line.value_exact) == ("optimal", expected)
    assert line.value == float(expected)


@pytest.mark.parametrize("side", ["attacker", "defender"])
def test_a_plan_cell_is_the_plan_of_its_variant(tmp_path: Path, side: str) -> None:
    """With plan, each cell is what `cfalloc plan` answers for its variant: the best choice's
    chance of taking the building, and the stands it commits."""
    from allocator.games.crossfire.plan import plan_answer

    path = write_spec(
        tmp_path,
        f"scenario: fight-together-or-apart\nplan: true\nside: {side}\n"
        "vary: {surprise: [true, false]}\n",
    )
    sweep = load_sweep(path)
    for cell in sweep.cells:
        best = plan_answer(battle_from_data(variant(sweep.scenario, cell.values)), side).best
        line = solve_cell(sweep.task(cell)).line
        assert (line.status, line.value_exact, line.stands) == (
            "optimal",
            best.value_exact,
            best.stands,
        )
    csv_lines = csv_text(sweep, [solve_cell(sweep.task(sweep.cells[0])).line]).splitlines()
    assert csv_lines[0] == "surprise,status,value,value_exact,stands,warnings,seconds"
    assert " ".join(best.stands) in csv_lines[1] or best.stands == []


def test_a_plan_is_of_the_whole_fight(tmp_path: Path) -> None:
    path = write_spec(tmp_path, "scenario: fight-together-or-apart\nplan: true\nobjective: sweep\n")
    with pytest.raises(InputError) as refused:
        load_sweep(path)
    assert refused.value.place == "plan" and "whole fight" in refused.value.problem


def test_the_shipped_example_obeys_the_committed_spec_schema() -> None:
    from allocator.core.reader import read_file

    schema = json.loads((ROOT / "models" / "schema" / "sweep-spec.schema.json").read_text())
    jsonschema.validate(read_file(SHIPPED), schema)
    assert len(load_sweep(SHIPPED).cells) == 108


def test_the_docs_show_the_shipped_example_as_it_is() -> None:
    text = (ROOT / "docs" / "sweep.md").read_text(encoding="utf-8")
    shown = re.search(r"```yaml\n(# A sweep.*?)```", text, re.DOTALL)
    assert shown and shown.group(1) == SHIPPED.read_text(encoding="utf-8")


# --- bad specs: one clear error, before any work ------------------------------------------------


@pytest.mark.parametrize(
    ("vary", "place", "problem"),
    [
        ("building.capcity: [2, 3]", "vary.building.capcity", "unknown key 'capcity'"),
        ("building.capacity: [2, 0]", "vary.building.capacity[1]", "greater than or equal to 1"),
        ("attacker.quality: [green, elite]", "vary.attacker.quality[1]", "'elite'"),
        ("ruleset.overrides.ties: [coin]", "vary.ruleset.overrides.ties[0]", "must be one of"),
        ("attacker.a9.quality: [green]", "vary.attacker.a9.quality", "no stand 'a9'"),
        ("attacker.stands.7.quality: [green]", "vary.attacker.stands.7.quality", "from 0 to 2"),
        ("title.x: [1]", "vary.title.x", "which has no parts"),
        ("surprise: [true, true]", "vary.surprise[1]", "listed twice"),
    ],
)
def test_a_bad_path_or_value_names_the_spec_the_place_and_the_problem(
    tmp_path: Path, vary: str, place: str, problem: str
) -> None:
    path = write_spec(tmp_path, f"scenario: cottage.yaml\nvary:\n  {vary}\n")
    out = tmp_path / "out.jsonl"
    result = invoke("sweep", path, "--out", out, "--jobs", "1")
    assert result.exit_code == 2, result.output
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"error: {path}: {place}: "), first
    assert problem in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()


def test_values_that_fit_alone_but_not_together_are_refused(tmp_path: Path) -> None:
    path = write_spec(
        tmp_path,
        "scenario: cottage.yaml\nvary:\n  attacker.stands: [[{id: a1, type: rifle, unit: q}]]\n"
        "  attacker.a2.quality: [green]\n",
    )
    with pytest.raises(InputError) as refused:
        load_sweep(path)
    assert refused.value.place == "vary" and "attacker.a2.quality = 'green'" in str(refused.value)


def test_too_many_cells_are_refused_with_the_limit_named(tmp_path: Path) -> None:
    path = write_spec(
        tmp_path, "scenario: cottage.yaml\nvary:\n  round: [1, 2, 3]\n  surprise: [true, false]\n"
    )
    with pytest.raises(LimitError) as refused:
        load_sweep(path, Limits(max_sweep_cells=5))
    assert refused.value.limit == "max_sweep_cells"
    assert "3 x 2 = 6 cells" in str(refused.value) and "CFALLOC_MAX_SWEEP_CELLS" in str(
        refused.value
    )


def test_too_long_in_all_is_refused_with_the_limit_named(tmp_path: Path) -> None:
    path = write_spec(tmp_path, "scenario: cottage.yaml\ntime_limit: 60\nvary:\n  round: [1, 2]\n")
    with pytest.raises(LimitError) as refused:
        load_sweep(path, Limits(max_sweep_seconds=100))
    assert refused.value.limit == "max_sweep_seconds" and refused.value.place == "time_limit"


def test_the_limits_are_read_from_the_environment(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "allocator", "sweep", str(spec)],
        env={**os.environ, "CFALLOC_MAX_SWEEP_CELLS": "5"},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "over the limit of 5 (raise it with CFALLOC_MAX_SWEEP_CELLS)" in result.stderr


@pytest.mark.parametrize(
    ("text", "place", "problem"),
    [
        (
            "scenario: ../cottage.yaml\n",
            "scenario",
            "out of the folder of the file that names it: keep the scenario next to the spec",
        ),
        ("scenario: /etc/passwd.yaml\n", "scenario", "must be a relative path"),
        ("scenario: no-such-shipped-one\n", "scenario", "no shipped scenario"),
        ("scenario: rule-1a-pas\n", "scenario", "(did you mean 'rule-1a-pass'?)"),
        ("scenario: CON\n", "scenario", "are shipped, such as edge-"),
        ("scenario: cottage.yaml\nobjective: sweep\nrounds: 3\n", "rounds", "whole fight"),
        ("scenario: cottage.yaml\nvary: {round: [1]}\nplot: {x: rounds}\n", "plot.x", "'round'"),
        ("scenario: cottage.yaml\nvary: {round: []}\n", "vary.round", "at least 1 item"),
        ("scenario: cottage.yaml\nsides: attacker\n", "sides", "unknown key"),
        ("scenario: no-such-file.yaml\n", "scenario", "no such file (in "),
    ],
)
def test_a_bad_spec_names_its_place(tmp_path: Path, text: str, place: str, problem: str) -> None:
    path = write_spec(tmp_path, text)
    with pytest.raises(InputError) as refused:
        load_sweep(path)
    assert (refused.value.file, refused.value.place) == (str(path), place)
    assert problem in refused.value.problem


@pytest.mark.parametrize(
    ("options", "place"),
    [
        (["--backend", "dask"], "--scheduler"),
        (["--backend", "dask", "--scheduler", "tcp://127.0.0.1:8786", "--jobs", "2"], "--jobs"),
        (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler"),
        (["--jobs", "100000"], "--jobs"),
        (["--backend", "dask", "--scheduler", "carrier-pigeon://loft"], "--scheduler"),
        (["--out", "no/such/folder/out.jsonl"], "--out"),
        (["--jobs", "100000"], "--jobs"),
        (["--out", "r.jsonl", "--csv", "r.jsonl"], "--csv"),
    ],
)
def test_options_that_do_not_go_together_are_refused(
    spec: Path, options: list[str], place: str
) -> None:
    result = invoke("sweep", spec, *options)  # refused before anything is written
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {place}: ")


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("tcp://[::1", "give a host and a port"),
        ("tcp://" + "a" * 5000, "'tcp://aaaaaaaaa"),
        ("tcp://localhost:99999", "a port from 1 to 65535"),
        ("tcp://:8786", "a host and a port"),
        ("inproc://192.0.2.2/1/1", "no scheduler of this process has it"),
        ("ucx://h:1", "give tcp://... or tls://... or ws://... or wss://... or inproc://..."),
        ("tls://127.0.0.1:8786", "tls:// needs Dask's TLS settings"),
        ("tcp://\x1b[2J:1", "a port from 1 to 65535"),
    ],
)
def test_a_scheduler_address_no_client_can_use_is_refused_without_one(
    spec: Path, monkeypatch: pytest.MonkeyPatch, address: str, problem: str
) -> None:
    """Said before a client is made: one that cannot start waits 20 s at exit to close, then
    prints a traceback."""
    import distributed

    def no_client(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a client was made")

    monkeypatch.setattr(distributed, "Client", no_client)
    result = invoke("sweep", spec, "--backend", "dask", "--scheduler", address)
    line = refused(
        result, "error: --scheduler: ", "is not the address of a Dask scheduler", problem
    )
    assert len(line) < 300


def test_a_heatmap_of_one_path_is_refused_before_any_work(tmp_path: Path) -> None:
    path = write_spec(
        tmp_path, "scenario: cottage.yaml\nvary: {round: [1, 2]}\nplot: {chart: heatmap}\n"
    )
    result = invoke("sweep", path, "--plot", tmp_path / "p.png", "--out", tmp_path / "o.jsonl")
    assert result.exit_code == 2 and "a heatmap needs two paths" in result.stderr
    assert not (tmp_path / "o.jsonl").exists()


# --- the backends: the same bytes whichever runs the cells --------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    from dask.distributed import LocalCluster

    with LocalCluster(
        processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
    ) as local:
        yield local


def test_a_dask_cluster_writes_the_bytes_of_a_serial_run(spec: Path, cluster: Any) -> None:
    serial = invoke("sweep", spec, "--jobs", "1", "--json")
    on_dask = invoke(
        "sweep", spec, "--backend", "dask", "--scheduler", cluster.scheduler_address, "--json"
    )
    assert serial.exit_code == on_dask.exit_code == 0, on_dask.output
    assert len(serial.stdout.splitlines()) == 6
    assert without_seconds(on_dask.stdout) == without_seconds(serial.stdout)
    strip = [line.split(', "seconds"')[0] for line in serial.stdout.splitlines()]
    assert strip == [line.split(', "seconds"')[0] for line in on_dask.stdout.splitlines()]


@pytest.mark.slow
def test_the_shipped_sweep_is_the_same_on_loky_dask_and_serial(tmp_path: Path) -> None:
    from dask.distributed import LocalCluster

    runs = {}
    runs["serial"] = invoke("sweep", SHIPPED, "--jobs", "1", "--out", tmp_path / "serial.jsonl")
    runs["loky"] = invoke("sweep", SHIPPED, "--out", tmp_path / "loky.jsonl")  # one per core
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as processes:
        address = processes.scheduler_address
        runs["dask"] = invoke(
            "sweep",
            SHIPPED,
            "--backend",
            "dask",
            "--scheduler",
            address,
            "--out",
            tmp_path / "dask.jsonl",
        )
    assert all(r.exit_code == 0 for r in runs.values()), {k: r.output for k, r in runs.items()}
    texts = {name: (tmp_path / f"{name}.jsonl").read_text() for name in runs}
    assert len(texts["serial"].splitlines()) == 108
    assert without_seconds(texts["loky"]) == without_seconds(texts["serial"])
    assert without_seconds(texts["dask"]) == without_seconds(texts["serial"])


# --- the output ---------------------------------------------------------------------------------


def test_every_line_obeys_the_committed_line_schema(spec: Path) -> None:
    schema = json.loads((ROOT / "models" / "schema" / "sweep-line.schema.json").read_text())
    result = invoke("sweep", spec, "--jobs", "1", "--json")
    for text in result.stdout.splitlines():
        jsonschema.validate(json.loads(text), schema)
        assert Fraction(json.loads(text)["value_exact"]) <= 1


def test_a_cell_whose_building_breaks_b1_or_b2_says_so_as_solve_does(tmp_path: Path) -> None:
    path = write_spec(tmp_path, "scenario: cottage.yaml\nvary: {building.capacity: [1, 2, 4]}\n")
    lines = without_seconds(invoke("sweep", path, "--jobs", "1", "--json").stdout)
    said = [line.get("warnings", []) for line in lines]
    assert [len(w) for w in said] == [1, 0, 1]  # no warnings key where there is none
    assert said[0][0].startswith("B1: Cottage holds 2 squads") and "Solved as given" in said[0][0]
    assert said[2][0].startswith("B2: A capacity of 4 is not a building")
    table = " ".join(invoke("sweep", path, "--jobs", "1").stdout.split())
    assert "Warning (building.capacity=1): B1: Cottage holds 2 squads" in table
    assert "Warning (building.capacity=4): B2:" in table
    summary = invoke("sweep", path, "--jobs", "1", "--out", tmp_path / "r.jsonl").stdout
    assert "3 cells: 3 optimal; 2 cells with warnings (in their lines)" in summary
    planned = write_spec(
        tmp_path, "scenario: cottage.yaml\nplan: true\nvary: {building.capacity: [1, 4]}\n"
    )
    plans = without_seconds(invoke("sweep", planned, "--jobs", "1", "--json").stdout)
    # a plan garrisons within the capacity (B1 is its bound): only B2 is said
    assert "warnings" not in plans[0] and plans[1]["warnings"][0].startswith("B2:")


def test_out_csv_and_plot_are_written_and_the_table_is_shown(spec: Path, tmp_path: Path) -> None:
    out, csv, plot = tmp_path / "r.jsonl", tmp_path / "r.csv", tmp_path / "r.svg"
    result = invoke("sweep", spec, "--jobs", "1", "--out", out, "--csv", csv, "--plot", plot)
    assert result.exit_code == 0, result.output
    assert "6 cells: 6 optimal; written to" in result.stdout
    rows = csv.read_text().splitlines()
    assert rows[0] == (
        "attacker.quality,ruleset.overrides.ties,status,value,value_exact,warnings,seconds"
    )
    first = json.loads(out.read_text().splitlines()[0])
    assert rows[1].startswith(f"green,reroll,optimal,{first['value']!r},{first['value_exact']},")
    assert plot.read_text().startswith("<?xml") and "attacker.quality" in plot.read_text()
    table = invoke("sweep", spec, "--jobs", "1")
    assert "take the building (whole fight), best for the defender" in " ".join(
        table.stdout.split()
    )
    assert table.stdout.count("optimal") == 6


def test_a_heatmap_is_drawn_over_two_paths(spec: Path, tmp_path: Path) -> None:
    path = write_spec(tmp_path, SPEC + "plot: {chart: heatmap, y: attacker.quality}\n")
    result = invoke("sweep", path, "--jobs", "1", "--plot", tmp_path / "h.png")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "h.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_progress_bar_counts_the_cells_on_a_terminal() -> None:
    screen = StringIO()
    with progress_bar(Console(file=screen, force_terminal=True, width=100)) as progress:
        task = progress.add_task("cells", total=4, completed=1)
        progress.advance(task)
    shown = screen.getvalue()
    assert "2/4" in shown and "cells/s" in shown and "sweep" in shown
    assert progress_bar(Console(file=StringIO(), force_terminal=False)).disable


# --- resume -------------------------------------------------------------------------------------


def test_a_sweep_resumes_from_its_file_without_solving_a_finished_cell_again(
    spec: Path, tmp_path: Path
) -> None:
    sweep = load_sweep(spec)
    out = tmp_path / "out.jsonl"
    kept = [
        solve_cell(sweep.task(cell)).line.model_copy(update={"seconds": 123.5})
        for cell in sweep.cells[3:5]
    ]
    cut = solve_cell(sweep.task(sweep.cells[0])).line.text()[:40]  # a killed run's last line
    out.write_text("".join(line.text() + "\n" for line in kept) + cut)
    result = invoke("sweep", spec, "--jobs", "1", "--out", out)
    assert result.exit_code == 0, result.output
    assert "6 cells (2 of them from an earlier run)" in result.stdout
    lines = [SweepLine.model_validate_json(text) for text in out.read_text().splitlines()]
    assert [line.cell for line in lines] == [cell.key() for cell in sweep.cells]
    assert [line.seconds for line in lines[3:5]] == [123.5, 123.5]  # not solved again
    assert all(line.seconds != 123.5 for line in lines[:3] + lines[5:])
    again = invoke("sweep", spec, "--jobs", "1", "--out", out)
    assert "6 cells (6 of them from an earlier run)" in again.stdout


def test_results_of_another_sweep_are_refused_naming_the_line(spec: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    sweep = load_sweep(spec)
    line = solve_cell(sweep.task(sweep.cells[0])).line
    other = line.model_copy(update={"cell": {"building.capacity": 3}})
    out.write_text(line.text() + "\n" + other.text() + "\n")
    result = invoke("sweep", spec, "--out", out)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {out}: line 2: the cell ")
    assert "another sweep" in result.stderr
    out.write_text(line.text() + "\n" + line.text() + "\n")
    with pytest.raises(InputError, match="listed twice"):
        read_finished(out, sweep)
    out.write_text("not json\n")
    with pytest.raises(InputError) as refused:
        ResultsFile(sweep, out)
    assert refused.value.file == str(out)


@pytest.mark.parametrize(
    ("written", "place", "problem"),
    [
        (b"GOOD\n\x1b[2J\n", "line 2, column 1", "not valid JSON"),
        (b"GOOD\n\n", "line 2, column 1", "not valid JSON"),
        (b"GOOD\n\xff\xfe\n", "line 2", "not UTF-8 text"),
        (b"GOOD\n" + b"[" * 5000 + b"\n", "line 2", "nested too deeply"),
        (b'{"cell": {}, "status": "won"}\n', "line 1: status", "'optimal', 'feasible' or"),
        (b"GOOD\n" + b"a" * 100_001, "line 2", "a line over 100,000 bytes"),
        (b"GOOD\n" + rb'{"cell": {}, "status": "optimal", "value": NaN}' + b"\n", "line 2", "NaN"),
    ],
)
def test_a_broken_results_file_is_refused_naming_its_line_and_kept(
    spec: Path, tmp_path: Path, written: bytes, place: str, problem: str
) -> None:
    sweep = load_sweep(spec)
    good = solve_cell(sweep.task(sweep.cells[0])).line.text().encode()
    out = tmp_path / "out.jsonl"
    out.write_bytes(written.replace(b"GOOD", good))
    before = out.read_bytes()
    line = refused(invoke("sweep", spec, "--jobs", "1", "--out", out), problem)
    assert line.startswith(f"error: {out}: {place}: "), line
    assert out.read_bytes() == before  # refused before it is written again


@pytest.mark.parametrize(
    ("changed", "problem"),
    [
        ({"value": 0.5}, "value is 0.5, not value_exact's"),
        ({"status": "no answer"}, "a line without an answer (status 'no answer') has no"),
        ({"value": None, "value_exact": None}, "a line without an answer"),
        ({"seconds": -1}, "seconds: Input should be greater than or equal to 0"),
    ],
)
def test_a_results_line_that_contradicts_itself_is_refused(
    spec: Path, tmp_path: Path, changed: dict[str, Any], problem: str
) -> None:
    sweep = load_sweep(spec)
    data = solve_cell(sweep.task(sweep.cells[0])).line.model_dump(mode="json") | changed
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps(data) + "\n", encoding="utf-8")
    refused(invoke("sweep", spec, "--jobs", "1", "--out", out), f"{out}: line 1: ", problem)


@pytest.mark.parametrize(
    ("option", "named", "problem"),
    [
        ("--csv", "cottage.yaml", "a table of results is a .csv file, not '.yaml'"),
        ("--out", "cottage.yaml", "a results file (JSON Lines) is a .jsonl file, not '.yaml'"),
        ("--out", "results", "is a .jsonl file, not one without a suffix"),
        ("--plot", "chart.bmp", "a picture is a .png, .svg, .pdf file, not '.bmp'"),
        ("--csv", "folder.csv", "folder.csv is there and is not a regular file"),
        ("--out", "pipe.jsonl", "pipe.jsonl is there and is not a regular file"),
        ("--plot", "device.png", "device.png is there and is not a regular file"),
    ],
)
def test_an_output_that_is_no_file_of_its_kind_is_refused_before_any_work(
    spec: Path, monkeypatch: pytest.MonkeyPatch, option: str, named: str, problem: str
) -> None:
    folder_ = spec.parent
    (folder_ / "folder.csv").mkdir()
    os.mkfifo(folder_ / "pipe.jsonl")
    (folder_ / "device.png").symlink_to("/dev/null")
    before = {path.name: path.read_bytes() for path in folder_.glob("*.yaml")}
    monkeypatch.chdir(folder_)
    refused(invoke("sweep", spec, option, named), f"error: {option}: ", problem)
    assert {path.name: path.read_bytes() for path in folder_.glob("*.yaml")} == before
    assert sorted(path.name for path in folder_.iterdir()) == sorted(
        [*before, "folder.csv", "pipe.jsonl", "device.png"]
    )
    assert Path("/dev/null").is_char_device()


def test_an_output_that_is_a_link_to_the_scenario_replaces_the_link_not_the_scenario(
    spec: Path, tmp_path: Path
) -> None:
    scenario = tmp_path / "cottage.yaml"
    csv, plot = tmp_path / "link.csv", tmp_path / "link.png"
    csv.symlink_to(scenario)
    plot.symlink_to(scenario)
    for option, path in (("--csv", csv), ("--plot", plot)):
        result = invoke("sweep", spec, "--jobs", "1", option, path)
        assert result.exit_code == 0, result.output
    assert scenario.read_text(encoding="utf-8") == SCENARIO
    assert not csv.is_symlink() and csv.read_text().startswith("attacker.quality,")
    assert not plot.is_symlink() and plot.read_bytes().startswith(b"\x89PNG")


def test_a_written_file_has_the_permissions_of_the_file_it_replaces_or_of_a_new_one(
    spec: Path, tmp_path: Path
) -> None:
    fresh, kept = tmp_path / "fresh.csv", tmp_path / "kept.csv"
    kept.write_text("old\n")
    kept.chmod(0o640)
    mask = os.umask(0o027)
    try:
        assert invoke("sweep", spec, "--jobs", "1", "--csv", fresh).exit_code == 0
        assert invoke("sweep", spec, "--jobs", "1", "--csv", kept).exit_code == 0
    finally:
        os.umask(mask)
    assert (fresh.stat().st_mode & 0o777, kept.stat().st_mode & 0o777) == (0o640, 0o640)
    assert kept.read_text().startswith("attacker.quality,")


@pytest.mark.slow
def test_a_killed_sweep_loses_no_finished_cell(tmp_path: Path) -> None:
    out = tmp_path / "killed.jsonl"
    command = [
        sys.executable,
        "-m",
        "allocator",
        "sweep",
        str(SHIPPED),
        "--jobs",
        "1",
        "--out",
        str(out),
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if out.exists() and len(out.read_bytes().splitlines()) >= 20:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    before = [text for text in out.read_text().split("\n")[:-1]]  # complete lines only
    assert 20 <= len(before) < 108
    finished = subprocess.run(command, capture_output=True, text=True)
    assert finished.returncode == 0, finished.stderr
    assert f"108 cells ({len(before)} of them from an earlier run)" in finished.stdout
    after = out.read_text().splitlines()
    assert set(before) <= set(after) and len(after) == 108  # the finished lines as they were
    full = invoke("sweep", SHIPPED, "--jobs", "1", "--json")
    assert without_seconds("\n".join(after)) == without_seconds(full.stdout)


# --- hostile input ------------------------------------------------------------------------------

CORPUS = ROOT / "tests" / "data" / "hostile"
HOSTILE: dict[str, dict[str, Any]] = yaml.safe_load((CORPUS / "expect.yaml").read_text("utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_scenario_keeps_the_contract_in_a_sweep(tmp_path: Path, name: str) -> None:
    scenario = tmp_path / name
    scenario.write_bytes((CORPUS / name).read_bytes())
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"scenario: {name}\nobjective: sweep\ntime_limit: 0.5\n", encoding="utf-8")
    result = invoke("sweep", spec, "--jobs", "1", "--json")
    if "refused" in HOSTILE[name]:
        refused(result, str(scenario), *HOSTILE[name]["refused"])
        return
    answered(result)
    assert SweepLine.model_validate_json(result.stdout).cell == {}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_file_as_the_spec_is_refused_in_one_line(name: str) -> None:
    result = invoke("sweep", CORPUS / name, "--jobs", "1")
    line = refusal(result)
    assert f"error: {CORPUS / name}" in line and len(line) < 400


def test_an_interrupted_sweep_keeps_its_finished_cells_and_says_how_to_go_on(
    spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import allocator.core.parallel as parallel

    def two_then_ctrl_c(task: Any, items: list[Any], **options: Any) -> Iterator[Any]:
        yield from (task(item) for item in items[:2])
        raise KeyboardInterrupt

    monkeypatch.setattr(parallel, "run_unordered", two_then_ctrl_c)
    out = tmp_path / "out.jsonl"
    result = invoke("sweep", spec, "--out", out)
    assert result.exit_code == 130
    assert f"interrupted: 2 of 6 cells are in {out}; run the same command again" in " ".join(
        result.stderr.split()
    )
    assert len(out.read_text().splitlines()) == 2


def test_a_cell_without_an_answer_in_time_is_a_line_that_says_so(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import allocator.games.crossfire.search.solve as search
    from allocator.core.errors import TimeLimitError

    def out_of_time(*args: Any, **options: Any) -> Any:
        raise TimeLimitError(10.0)

    monkeypatch.setattr(search, "solve", out_of_time)
    result = invoke("sweep", spec, "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    schema = json.loads((ROOT / "models" / "schema" / "sweep-line.schema.json").read_text())
    for text in result.stdout.splitlines():
        line = json.loads(text)
        jsonschema.validate(line, schema)
        assert (line["status"], line["value"], line["value_exact"]) == ("no answer", None, None)
    table = invoke("sweep", spec, "--jobs", "1")
    assert table.stdout.count("no answer") == 6


def test_garrisons_are_compared_by_varying_the_stands_present(tmp_path: Path) -> None:
    spec = tmp_path / "garrisons.yaml"
    spec.write_text(
        "scenario: org-british-platoon-v-german-squads\nobjective: sweep\nvary:\n"
        "  defender.present: [[de-1plt-sq1, de-coy-hmg], [de-1plt-sq1, de-1plt-sq2]]\n",
        encoding="utf-8",
    )
    sweep = load_sweep(spec)
    values = []
    for cell in sweep.cells:
        data = variant(sweep.scenario, cell.values)
        battle = battle_from_data(data)
        assert sorted(battle.defender.stands) == sorted(cell.key()["defender.present"])
        expected = solve(battle, "defender", objective_named("sweep")).line.value
        assert solve_cell(sweep.task(cell)).line.value_exact == expected
        values.append(expected)
    assert values[0] != values[1]
