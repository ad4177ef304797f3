"""``serve``, the function behind ``cfalloc serve``: a clear message without the web extra."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from allocator.web import cli as web_cli


def serve_app() -> typer.Typer:
    app = typer.Typer()
    app.command()(web_cli.serve)
    return app


def test_without_the_web_extra_serve_says_how_to_install_it(monkeypatch: Any) -> None:
    monkeypatch.setattr(web_cli, "find_spec", lambda name: None)
    result = CliRunner().invoke(serve_app(), [])
    assert result.exit_code == 2
    assert "pip install '.[web]'" in result.stderr
    assert "Traceback" not in result.output


def test_serve_runs_uvicorn_on_loopback_by_default(monkeypatch: Any) -> None:
    uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(options))
    result = CliRunner().invoke(serve_app(), ["--port", "8123"])
    assert result.exit_code == 0, result.output
    assert calls == [{"host": "127.0.0.1", "port": 8123}]
    assert "warning" not in result.stderr


def test_serve_warns_when_reachable_from_other_machines(monkeypatch: Any) -> None:
    uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    result = CliRunner().invoke(serve_app(), ["--host", "0.0.0.0"])
    assert result.exit_code == 0, result.output
    assert "no login" in result.stderr
