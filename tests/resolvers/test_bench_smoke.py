"""The Infinity bench runs (B1 v B1) and, where icepool is installed, agrees with it."""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path

import pytest

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
    assert elapsed >= 0 and answer == (active, reactive)


def test_bench_icepool_agrees_on_b1():
    pytest.importorskip("icepool")
    bench = load_bench()
    assert bench.icepool_face_to_face(1, 1) == bench.ours(1, 1)
    assert sum(bench.icepool_face_to_face(2, 1)) < Fraction(1)
