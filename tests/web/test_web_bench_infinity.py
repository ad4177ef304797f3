"""The Infinity page's benchmark still runs (one roll, once), so that it cannot rot."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_infinity_page
import httpx

from allocator.web.server import background
from allocator.web.settings import WebSettings


def test_the_bench_times_the_endpoint_against_the_same_work_in_process() -> None:
    rolls = bench_infinity_page.rolls()
    assert len(rolls) == 3
    opening = next(iter(rolls.values()))
    answer, view = bench_infinity_page.in_process(opening)
    with background(WebSettings()) as (url, _), httpx.Client(timeout=30) as client:
        served = bench_infinity_page.endpoint(client, url, opening)
    assert served["answer"] == answer
    assert served["view"] == view.model_dump(mode="json")
