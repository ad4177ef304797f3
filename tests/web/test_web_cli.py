"""``serve``, the function behind ``cfalloc serve``: one clear line and exit code 2 for what it
cannot do (no web extra, a busy port, a bad host), and uvicorn set up against slow clients."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from allocator.cli import serve as web_cli

#: Longest a test waits for the server (a guard against hanging, not a speed goal).
PATIENCE = 60


def serve_app() -> typer.Typer:
    app = typer.Typer()
    app.command()(web_cli.serve)
    return app


def assert_one_error_line(result: Any, *words: str) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0]
    return str(lines[0])


@pytest.fixture
def served(monkeypatch: Any) -> list[Any]:
    """Where uvicorn would serve: ``[(config, sockets), ...]`` (uvicorn is not started)."""
    uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")
    calls: list[Any] = []

    def run(server: Any, sockets: list[socket.socket]) -> None:
        calls.append((server.config, [s.getsockname() for s in sockets]))

    monkeypatch.setattr(uvicorn.Server, "run", run)
    return calls


def test_without_the_web_extra_serve_says_how_to_install_it(monkeypatch: Any) -> None:
    monkeypatch.setattr(web_cli, "find_spec", lambda name: None)
    result = CliRunner().invoke(serve_app(), [])
    assert_one_error_line(result, "pip install '.[web]'")


def test_serve_listens_on_loopback_with_uvicorn_set_against_slow_clients(
    served: list[Any],
) -> None:
    from allocator.web.server import TimedH11Protocol

    result = CliRunner().invoke(serve_app(), ["--port", "0", "--time-limit", "4"])
    assert result.exit_code == 0, result.output
    [(config, addresses)] = served
    host, port = addresses[0]
    assert host == "127.0.0.1" and port > 0
    assert result.stdout == f"cfalloc: open http://127.0.0.1:{port}/ (Ctrl+C stops)\n"
    assert "warning" not in result.stderr
    assert issubclass(config.http, TimedH11Protocol) and config.http.head_timeout == 5
    assert (config.timeout_keep_alive, config.limit_concurrency) == (5, None)
    assert (config.http.max_connections, config.http.max_connections_per_network) == (256, 16)
    assert config.timeout_graceful_shutdown == 5
    settings = config.app.state.served.settings
    assert (settings.port, settings.solve_time_limit) == (port, 4)


def test_serve_on_every_address_prints_the_machines_address(
    served: list[Any], monkeypatch: Any
) -> None:
    from allocator.web import guards

    monkeypatch.setattr(guards, "machine_addresses", lambda: ["192.0.2.10"])
    result = CliRunner().invoke(serve_app(), ["--host", "0.0.0.0", "--port", "0"])
    assert result.exit_code == 0, result.output
    [(config, [(_, port)])] = served
    assert "no login" in result.stderr
    assert f"open http://192.0.2.10:{port}/ from another machine" in result.stdout
    assert f"http://127.0.0.1:{port}/ on this one" in result.stdout
    assert "0.0.0.0" not in result.stdout
    assert config.app.state.served.settings.host == "0.0.0.0"


def test_serve_passes_allowed_names_workers_and_queue(served: list[Any]) -> None:
    options = ["--port", "0", "--allow-host", "Club.LAN", "--allow-host", "::1"]
    result = CliRunner().invoke(serve_app(), [*options, "--workers", "3", "--queue", "1"])
    assert result.exit_code == 0, result.output
    [(config, _)] = served
    settings = config.app.state.served.settings
    assert settings.allowed_hosts == ("club.lan", "[::1]")
    assert config.app.state.served.pool.capacity == 4


def test_serve_on_a_busy_port_says_so_and_suggests_another(served: list[Any]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(serve_app(), ["--port", str(port)])
    line = assert_one_error_line(result, "--port", "already in use", f"--port {port + 1}")
    assert served == [] and line


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--host", "[/x]"], ["--host", "'[/x]'"]),
        (["--host", "[bold]x[/bold]"], ["--host", "'[bold]x[/bold]'"]),
        (["--allow-host", "[/x]"], ["--allow-host", "'[/x]'"]),
        (["--allow-host", "*"], ["--allow-host", "*.domain"]),
        (["--workers", "0"], ["--workers"]),
        (["--queue", "-1"], ["--queue"]),
    ],
    ids=["markup-host", "bold-host", "markup-allowed", "any-host", "no-workers", "queue"],
)
def test_bad_options_are_one_line_naming_the_option(
    served: list[Any], options: list[str], words: list[str]
) -> None:
    assert_one_error_line(CliRunner().invoke(serve_app(), [*options, "--port", "0"]), *words)
    assert served == []


def test_a_host_name_that_does_not_resolve_is_one_line(served: list[Any], monkeypatch: Any) -> None:
    def unknown(*args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", unknown)
    result = CliRunner().invoke(serve_app(), ["--host", "club-laptop.invalid"])
    assert_one_error_line(result, "--host", "cannot listen on 'club-laptop.invalid'", "not known")


def test_an_address_of_another_machine_is_one_line(served: list[Any]) -> None:
    result = CliRunner().invoke(serve_app(), ["--host", "192.0.2.1", "--port", "0"])
    assert_one_error_line(result, "--host", "cannot listen on '192.0.2.1'")


def test_serve_stops_on_sigterm() -> None:
    httpx = pytest.importorskip("httpx")
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    command = [sys.executable, "-c", "from allocator.cli import main; main()", "serve"]
    server = subprocess.Popen(
        [*command, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ | {"COLUMNS": "200"},
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("cfalloc: open http://127.0.0.1:"), line
        address = line.split()[2]
        assert httpx.get(address, timeout=PATIENCE).status_code == 200
        server.send_signal(signal.SIGTERM)
        # uvicorn shuts down gracefully, then re-raises the signal it caught (older ones exit 0).
        assert server.wait(timeout=PATIENCE) in (0, -signal.SIGTERM)
        assert server.stderr is not None
        assert "Traceback" not in server.stderr.read()
    finally:
        server.kill()
        server.wait()


def test_a_servers_answers_count_from_each_request_not_from_its_start(
    monkeypatch: Any,
) -> None:
    """`cfalloc` counts a command's time from the start of its process; the server resets that,
    or every request of a server up for longer than its limit would be out of time at once."""
    uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")
    from allocator.core.budget import Budget, answer_started

    left: list[float] = []
    monkeypatch.setattr(
        uvicorn.Server, "run", lambda server, sockets: left.append(Budget.of_answer(5).remaining())
    )
    with answer_started(time.monotonic() - 100):  # as `main` sets it, long ago
        result = CliRunner().invoke(serve_app(), ["--port", "0"])
    assert result.exit_code == 0, result.output
    assert len(left) == 1 and left[0] > 4
