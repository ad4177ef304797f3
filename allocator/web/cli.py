"""``cfalloc serve``: the web page and JSON API on this machine.

FastAPI and uvicorn are the optional ``web`` extra; they are imported only when the command runs,
and their absence is one clear message with exit code 2, as are a busy port and a bad host.

>>> is_loopback("localhost"), is_loopback("::1"), is_loopback("0.0.0.0")
(True, True, False)
"""

from __future__ import annotations

import errno
import socket
from importlib.util import find_spec
from ipaddress import ip_address
from math import ceil
from typing import Annotated, Any

import typer

from allocator.cli.console import OK, err, guarded, out
from allocator.core.errors import InputError
from allocator.core.limits import default_limits
from allocator.core.text import safe
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
#: Largest request head (request line and headers) a client may send, in bytes.
MAX_HEAD_BYTES = 16 * 1024


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
        field = (error.place or "").split("[")[0].split(".")[0]
        raise InputError(error.problem, place=OPTIONS.get(field, error.place)) from None


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, or one InputError saying why it cannot be."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise InputError(f"cannot listen on {host!r}: {reason}", place="--host") from None
    listener = socket.socket(family, kind, proto)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(address)
    except OSError as exc:
        listener.close()
        if exc.errno == errno.EADDRINUSE:
            other = port + 1 if port < 65535 else 8001
            raise InputError(
                f"port {port} is already in use (by another program, or another cfalloc "
                f"serve): choose another with --port, e.g. --port {other}",
                place="--port",
            ) from None
        if exc.errno == errno.EACCES:
            raise InputError(
                f"port {port} needs administrator rights: choose one above 1023 with --port",
                place="--port",
            ) from None
        raise InputError(
            f"cannot listen on {host!r}, port {port}: {exc.strerror or exc}", place="--host"
        ) from None
    return listener


def url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def server_options(settings: WebSettings) -> dict[str, Any]:
    """uvicorn's settings: slow and idle clients time out, and connections are bounded."""
    return {
        "http": "h11",
        "lifespan": "on",
        "timeout_keep_alive": settings.keep_alive,
        "limit_concurrency": settings.max_connections,
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
        # On Ctrl+C or SIGTERM, answers under way may finish within their time limit.
        "timeout_graceful_shutdown": ceil(settings.solve_time_limit) + 1,
        "proxy_headers": False,
        "server_header": False,
        "log_level": "warning",
    }


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on; other machines can reach anything else.")
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
            max=default_limits().max_time_limit,
            help="Seconds one answer may take, as the commands' --time-limit.",
        ),
    ] = 10.0,
    workers: Annotated[int, typer.Option(help="Answers computed at the same time.")] = 2,
    queue: Annotated[
        int, typer.Option(help="Answers that may wait for a worker; beyond, the server is busy.")
    ] = 8,
) -> None:
    """Serve the web page and the JSON API on this machine (needs the web extra)."""

    def body() -> int:
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
        listener = listen(settings.host, settings.port)
        import uvicorn

        from allocator.web.app import create_app
        from allocator.web.guards import binds_every_address, machine_addresses

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
        out.print(f"cfalloc: open {safe(where)} (Ctrl+C stops)")
        config = uvicorn.Config(create_app(settings), **server_options(settings))
        uvicorn.Server(config).run(sockets=[listener])
        return OK

    guarded(body)
