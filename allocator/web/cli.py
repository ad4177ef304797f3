"""``cfalloc serve``: the web page and JSON API on this machine.

FastAPI and uvicorn are the optional ``web`` extra; they are imported only when the command runs,
and their absence is one clear message with exit code 2.
"""

from __future__ import annotations

from importlib.util import find_spec
from ipaddress import ip_address
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

WEB_MODULES = ("fastapi", "uvicorn")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on; other machines can reach anything else.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port to listen on.")] = 8000,
) -> None:
    """Serve the web page and the JSON API on this machine (needs the web extra)."""
    err = Console(stderr=True)
    missing = [name for name in WEB_MODULES if find_spec(name) is None]
    if missing:
        problem = (
            f"`cfalloc serve` needs {' and '.join(missing)}, which are not installed. "
            "Install the web extra: pip install '.[web]' (or 'cfalloc[web]')."
        )
        err.print(f"[bold red]error:[/] {escape(problem)}", highlight=False, soft_wrap=True)
        raise typer.Exit(2)
    import uvicorn

    from allocator.web.app import create_app
    from allocator.web.settings import WebSettings

    if not is_loopback(host):
        err.print(
            f"[yellow]warning:[/] listening on {host}: anyone who can reach this machine can use "
            "the page (it has no login).",
            highlight=False,
            soft_wrap=True,
        )
    settings = WebSettings(host=host, port=port)
    address = f"[{host}]" if ":" in host else host
    Console().print(f"cfalloc: open http://{address}:{port}/ (Ctrl+C stops)", highlight=False)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port)
