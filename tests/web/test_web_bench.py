"""The web benchmark still runs (on its quick requests), so that it cannot rot."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_web

from allocator.web.server import background
from allocator.web.settings import WebSettings


def test_the_bench_sends_the_requests_of_the_issue_and_times_the_page() -> None:
    (_, check_path, check), (_, simulate_path, simulate), (_, explain_path, _) = (
        bench_web.heavy_requests()
    )
    assert (check_path, simulate_path, explain_path) == (
        "/api/check",
        "/api/simulate",
        "/api/explain",
    )
    assert len(check["allocation"]["combats"]["A"]) == 1000
    assert len(simulate["scenario"]["defender"]["stands"]) == 500
    with background(WebSettings()) as (url, _):
        seconds, status = bench_web.timed_post(f"{url}{check_path}", check)
        assert status == 413 and seconds > 0
        seconds, status = bench_web.timed_post(f"{url}{simulate_path}", simulate)
        assert status == 413 and seconds > 0
        assert all(seconds > 0 for seconds in bench_web.page_seconds(url, 2))


def test_the_bench_holds_connections_from_many_addresses_of_one_network() -> None:
    settings = WebSettings(max_connections=8, max_connections_per_network=2)
    with background(settings) as (url, _):
        assert bench_web.refused_share(url, ["127.0.0.1", "127.0.0.2"], 3, "127.0.1.2", 3) == 0
        assert bench_web.refused_share(url, ["127.0.0.1"], 2, "127.0.0.3", 2) == 1


def test_the_bench_drops_heavy_solves_and_times_the_pools_rest() -> None:
    with background(WebSettings(workers=1, queue=1, solve_time_limit=30)) as (url, app):
        pool = app.state.served.pool
        rest = bench_web.dropped_rest(url, pool, 3, hold=0.2)
        assert 0 <= rest < 30 and pool.running == pool.admitted == 0
