"""``cfalloc serve``: the web page and JSON API on this machine.

FastAPI and uvicorn are the optional ``web`` extra; they are imported only when the command runs,
and their absence is one clear message with exit code 2, as are a busy port and a bad host.

>>> is_loopback("localhost"), is_loopback("::1"), is_loopback("0.0.0.0")
(True, True, False)
"""

from __future__ import annotations

import socket
from importlib.util import find_spec
from ipaddress import ip_address
from typing import Annotated, Any

import typer

from allocator.cli.console import OK, err, guarded, out
from allocator.cli.render import safe
from allocator.core.budget import answer_started
from allocator.core.errors import InputError
from allocator.core.limits import default_limits
from allocator.core.validation import validate
from allocator.web.settings import WebSettings

WEB_MODULES = ("fastapi", "uvicorn")
#: The option of ``cfalloc serve`` behind each setting, for messages.
OPTIONS = {
    "host": "--host",
    "port": "--port",
    "allowed_hosts": "--allow-host",
    "solve_time_limit": "--time-limit",
    "workers": "--workers",
    "queue": "--queue",
}


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def web_settings(**given: Any) -> WebSettings:
    """The settings from the command's options; a bad one is an InputError naming its option."""
    try:
        return validate(WebSettings, given)
    except InputError as error:
        for problem in error.problems():
            field = (problem.place or "").split("[")[0].split(".")[0]
            problem.place = OPTIONS.get(field, problem.place)
        raise error from None


def serve(
    host: Annotated[
        str,
        typer.Option(
            help="Address to listen on: 127.0.0.1 (the default) for this machine only; 0.0.0.0 "
            "or a LAN address to let other machines open the page."
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port to listen on (0: any free port).")] = 8000,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            help="Another name the page may be opened by (repeatable); loopback, the --host "
            "address and, with --host 0.0.0.0, this machine's name and addresses always work."
        ),
    ] = None,
    time_limit: Annotated[
        float,
        typer.Option(
            min=0.001,
            help="Seconds one answer may take, as the commands' --time-limit; at most "
            f"CFALLOC_MAX_TIME_LIMIT ({default_limits().max_time_limit:g}).",
        ),
    ] = 10.0,
    workers: Annotated[int, typer.Option(help="Answers computed at the same time.")] = 2,
    queue: Annotated[
        int, typer.Option(help="Answers that may wait for a worker; beyond, the server is busy.")
    ] = 8,
) -> None:
    """Serve the web page and the JSON API on this machine (needs the web extra)."""

    def body() -> int:
        default_limits().check("max_time_limit", time_limit, "--time-limit")
        missing = [name for name in WEB_MODULES if find_spec(name) is None]
        if missing:
            raise InputError(
                f"`cfalloc serve` needs {' and '.join(missing)}, which are not installed. "
                "Install the web extra: pip install '.[web]' (or 'cfalloc[web]')."
            )
        settings = web_settings(
            host=host,
            port=port,
            allowed_hosts=tuple(allow_host or ()),
            solve_time_limit=time_limit,
            workers=workers,
            queue=queue,
        )
        import uvicorn

        from allocator.web.app import create_app
        from allocator.web.guards import binds_every_address, machine_addresses
        from allocator.web.server import listen, server_options, url

        listener = listen(settings.host, settings.port)
        bound = listener.getsockname()[1]
        settings = settings.model_copy(update={"port": bound})
        if not is_loopback(settings.host):
            err.print(
                f"[yellow]warning:[/] listening on {safe(settings.host)}: anyone who can reach "
                "this machine can use the page (it has no login)."
            )
        if binds_every_address(settings.host):
            names = machine_addresses() or [socket.gethostname()]
            elsewhere = " or ".join(url(name, bound) for name in names)
            where = f"{elsewhere} from another machine, {url('127.0.0.1', bound)} on this one"
        else:
            where = url(settings.host, bound)
        out.print(f"cfalloc: open {safe(where)} (Ctrl+C stops)", soft_wrap=True)
        config = uvicorn.Config(create_app(settings), **server_options(settings))
        with listener, answer_started(None):  # each request's time counts from its start
            uvicorn.Server(config).run(sockets=[listener])
        return OK

    guarded(body)
