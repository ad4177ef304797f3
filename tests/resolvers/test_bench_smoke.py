"""The Infinity bench runs (B1 v B1); its icepool comparison runs with the bench extra."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).parents[2] / "bench" / "bench_infinity.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_infinity", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_ours_runs_on_b1():
    bench = load_bench()
    active, reactive = bench.ours(1, 1)
    assert 0 < active < 1 and 0 < reactive < 1
    elapsed, answer = bench.seconds(bench.ours, 1)
    assert elapsed > 0 and answer == (active, reactive)
