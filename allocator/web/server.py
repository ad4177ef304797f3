"""The HTTP server behind ``cfalloc serve``: its socket, and uvicorn set up against slow clients.

A client has ``head_timeout`` seconds to send a request's head (request line and headers),
``body_timeout`` more for its body (:class:`~allocator.web.guards.SlowBodyTimeout`), and an idle
kept-alive connection is closed after ``keep_alive`` seconds; the connections open at once are
bounded, in all and for each client network (:func:`over_a_cap`), so that clients that hold
their connections cannot use up the memory or shut the others out (one over a bound gets 429, as
a busy pool answers).

>>> url("127.0.0.1", 8000), url("::1", 8000)
('http://127.0.0.1:8000/', 'http://[::1]:8000/')
"""

from __future__ import annotations

import asyncio
import errno
import json
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from ipaddress import ip_address, ip_network
from math import ceil
from typing import Any, ClassVar

import uvicorn
from fastapi import FastAPI
from uvicorn.protocols.http.h11_impl import H11Protocol

from allocator.core.errors import InputError
from allocator.web.settings import WebSettings

#: Largest request head (request line and headers) a client may send, in bytes.
MAX_HEAD_BYTES = 16 * 1024
#: The share of ``max_connections`` kept for the networks that hold few connections: those of a
#: visitor who has just arrived, whom networks holding many (an attacker's) cannot shut out.
RESERVED_SHARE = 0.25
#: A network holding fewer connections than a browser opens to one server may use the reserve,
#: so that a new visitor's page loads whole.
BROWSER_CONNECTIONS = 6


def client_network(address: str | None) -> str | None:
    """The network a client's connections count in: its /24 (IPv4) or /64 (IPv6), since one
    who holds an address of a network most often holds its neighbours too.

    >>> [client_network(a) for a in ("192.0.2.77", "2001:db8::1", "::ffff:10.1.2.3")]
    ['192.0.2.0/24', '2001:db8::/64', '10.1.2.0/24']
    """
    if address is None:
        return None
    try:
        found = ip_address(address)
    except ValueError:  # not an IP address (a Unix socket's path): a network of its own
        return address
    if found.version == 6 and found.ipv4_mapped is not None:
        found = found.ipv4_mapped
    return str(ip_network(f"{found}/{24 if found.version == 4 else 64}", strict=False))


def over_a_cap(
    network: str | None, held: Sequence[str | None], most: int, most_per_network: int
) -> str | None:
    """Why a new connection from ``network`` is one too many, or None.

    ``held`` holds the network of every connection admitted and still open. The server holds at
    most ``most``, a network at most ``most_per_network``; and the last :data:`RESERVED_SHARE`
    of ``most`` take only connections of networks holding fewer than
    :data:`BROWSER_CONNECTIONS`, so that networks holding many cannot fill the server.

    >>> over_a_cap("192.0.2.0/24", ["192.0.2.0/24"] * 3, most=8, most_per_network=3)
    'this network (192.0.2.0/24) has its most connections open (3): close some'
    >>> over_a_cap("198.51.100.0/24", ["192.0.2.0/24"] * 7, most=8, most_per_network=8) is None
    True
    >>> over_a_cap("192.0.2.0/24", ["192.0.2.0/24"] * 7, most=8, most_per_network=8)
    'the server keeps its last 2 connections for new clients'
    """
    if len(held) >= most:
        return f"the server has its most connections open ({most})"
    mine = sum(1 for other in held if other == network)
    if mine >= most_per_network:
        return (
            f"this network ({network}) has its most connections open ({most_per_network}): "
            "close some"
        )
    reserved = int(most * RESERVED_SHARE)
    if len(held) >= most - reserved and mine >= BROWSER_CONNECTIONS:
        return f"the server keeps its last {reserved} connections for new clients"
    return None


def _refusal(problem: str, retry_after: int) -> Any:
    """An ASGI app that answers every request 429 in the API's error form, and closes."""
    body = json.dumps({"error": {"file": None, "place": "connections", "problem": problem}})
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(retry_after).encode()),
        (b"connection", b"close"),
    ]

    async def refuse(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body.encode()})

    return refuse


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1, closing a connection whose request head does not arrive within
    ``head_timeout`` seconds (uvicorn itself times out only idle kept-alive connections, so a
    client sending its headers a byte at a time would hold the connection for ever), and
    admitting a connection only within the caps of :func:`over_a_cap`."""

    head_timeout: ClassVar[float] = 5.0
    max_connections: ClassVar[int] = 256
    max_connections_per_network: ClassVar[int] = 16
    #: The client's network, and whether the connection counts against the caps (it does
    #: once admitted; one refused does not, so that refused connections fill nothing).
    network: str | None = None
    admitted: bool = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._head_timer: asyncio.TimerHandle | None = None
        self.network = client_network(self.client[0] if self.client else None)
        held = [
            other.network
            for other in self.connections
            if isinstance(other, TimedH11Protocol) and other.admitted
        ]
        problem = over_a_cap(
            self.network, held, self.max_connections, self.max_connections_per_network
        )
        self.admitted = problem is None
        if problem is not None:  # its request, when it comes, is answered 429 and not run
            self.app = _refusal(f"busy: {problem}", ceil(self.head_timeout))
        self._wait_for_head()

    def _wait_for_head(self) -> None:
        self._stop_waiting()
        self._answered_cycle = self.cycle
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_too_slow)

    def _stop_waiting(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not self._answered_cycle:  # a new request's head has arrived
            self._stop_waiting()

    def on_response_complete(self) -> None:
        self._wait_for_head()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, or one InputError saying why it cannot be.

    It listens at once, so that a client who connects as soon as the address is printed waits in
    the backlog until uvicorn accepts (rather than being refused while the app is built).
    """
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
    listener.listen(socket.SOMAXCONN)
    return listener


@contextmanager
def background(settings: WebSettings, patience: float = 60.0) -> Iterator[tuple[str, FastAPI]]:
    """The app served as ``cfalloc serve`` serves it, on a free loopback port, in a thread of
    this process (for tests and benchmarks): its address and the app."""
    from allocator.web.app import create_app

    listener = listen("127.0.0.1", 0)
    app = create_app(settings.model_copy(update={"port": listener.getsockname()[1]}))
    server = uvicorn.Server(uvicorn.Config(app, **server_options(settings)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + patience
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the web server did not start within {patience:g} s")
        time.sleep(0.01)
    try:
        yield url("127.0.0.1", listener.getsockname()[1]).rstrip("/"), app
    finally:
        server.should_exit = True
        thread.join(timeout=patience)
        listener.close()


def url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def server_options(settings: WebSettings) -> dict[str, Any]:
    """uvicorn's settings: slow and idle clients time out, and connections are bounded."""
    caps = {
        "head_timeout": settings.head_timeout,
        "max_connections": settings.max_connections,
        "max_connections_per_network": settings.max_connections_per_network,
    }
    protocol = type("TimedH11Protocol", (TimedH11Protocol,), caps)
    return {
        "http": protocol,
        "lifespan": "on",
        "timeout_keep_alive": settings.keep_alive,
        "limit_concurrency": None,  # the protocol's caps, which answer 429 (uvicorn's is a 503)
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
        # On Ctrl+C or SIGTERM, answers under way may finish within their time limit.
        "timeout_graceful_shutdown": ceil(settings.solve_time_limit) + 1,
        "proxy_headers": False,
        "server_header": False,
        "log_level": "warning",
    }
