"""What stands between a client and the endpoints: the Host check, the cross-site check, and the
size and time limits of a request body. Each refuses in the API's one error form.

>>> from starlette.datastructures import Headers
>>> cross_site(Headers({"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:8000"}))
False
>>> cross_site(Headers({"host": "127.0.0.1:8000", "origin": "https://evil.example"}))
True
>>> cross_site(Headers({"host": "127.0.0.1:8000", "sec-fetch-site": "cross-site"}))
True
"""

from __future__ import annotations

import socket
import time
from collections.abc import Sequence
from ipaddress import ip_address
from urllib.parse import urlsplit

import anyio
from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from allocator.core.errors import InputError
from allocator.web.errors import Refusal, error_response
from allocator.web.settings import WebSettings, host_header_name

#: The names of this machine that the page always answers to.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
#: Methods that change nothing: a page of another site may send them (it cannot read the answer).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_HOST_CHECKED = "cfalloc.host_checked"


def binds_every_address(host: str) -> bool:
    return host in ("0.0.0.0", "::", "[::]")


def route_address() -> str | None:
    """The address this machine reaches the network from (a UDP socket is pointed at a
    documentation address: nothing is sent), or None without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            return None
        found: str = probe.getsockname()[0]
        return found


def machine_addresses() -> list[str]:
    """The addresses of this machine other than loopback: the one it reaches the network
    from, and those its host name resolves to (which /etc/hosts often makes loopback only)."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
    except OSError:
        found = []
    route = route_address()
    candidates = [route] if route else []
    candidates += [str(sockaddr[0]) for *_, sockaddr in found]
    addresses: list[str] = []
    for candidate in candidates:
        address = ip_address(candidate)
        if not (address.is_loopback or address.is_link_local) and str(address) not in addresses:
            addresses.append(str(address))
    return addresses


def allowed_hosts(settings: WebSettings) -> list[str]:
    """The names a request's Host header may carry: loopback, the bound address, the names
    allowed by the settings and, when every address is bound, this machine's name and addresses.
    """
    names = [*LOOPBACK_NAMES, host_header_name(settings.host), *settings.allowed_hosts]
    if binds_every_address(settings.host):
        names += [socket.gethostname().lower(), *map(host_header_name, machine_addresses())]
    return list(dict.fromkeys(names))


class TrustedHosts(TrustedHostMiddleware):
    """Starlette's Host check (against DNS rebinding), refusing in the API's error form."""

    def __init__(self, app: ASGIApp, allowed_hosts: Sequence[str]) -> None:
        async def checked(scope: Scope, receive: Receive, send: Send) -> None:
            scope[_HOST_CHECKED] = True
            await app(scope, receive, send)

        super().__init__(checked, allowed_hosts=allowed_hosts, www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        refused = False

        async def send_or_refuse(message: Message) -> None:
            nonlocal refused
            if scope.get(_HOST_CHECKED):
                await send(message)
            elif not refused:
                refused = True
                host = Headers(scope=scope).get("host", "")
                problem = (
                    f"this server does not answer to the name {host[:100]!r}; open it as "
                    "http://127.0.0.1 or allow the name with `cfalloc serve --allow-host NAME`"
                )
                await error_response(400, InputError(problem, place="Host header"))(
                    scope, receive, send
                )

        await super().__call__(scope, receive, send_or_refuse)


def cross_site(headers: Headers) -> bool:
    """Whether a request comes from a page of another site (as the browser says)."""
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site not in ("same-origin", "none")
    origin = headers.get("origin")
    if origin is None:  # not sent by a browser's page (curl, a script)
        return False
    return urlsplit(origin).netloc.lower() != headers.get("host", "").lower()


class CrossSiteGuard:
    """Refuses (403) a state-changing request that a page of another site makes the browser send,
    so that a page the user visits cannot make this server work."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] not in SAFE_METHODS
            and cross_site(Headers(scope=scope))
        ):
            problem = "a page of another site may not send requests to this server"
            await error_response(403, InputError(problem, place="Origin header"))(
                scope, receive, send
            )
            return
        await self.app(scope, receive, send)


class BodySizeLimit:
    """Answers 413 to a body larger than the limit, declared or streamed."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def refusal(self) -> InputError:
        return InputError(
            f"the request body is larger than this server accepts ({self.max_bytes} bytes; "
            "raise it with CFALLOC_MAX_BODY_BYTES)",
            place="body",
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await error_response(413, self.refusal())(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_bytes:
                raise Refusal(413, self.refusal())
            return message

        await self.app(scope, limited_receive, send)


class SlowBodyTimeout:
    """Answers 408 to a client that takes longer than ``seconds`` to send its body."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        deadline = time.monotonic() + self.seconds
        body_done = False

        async def timed_receive() -> Message:
            nonlocal body_done
            if body_done:  # what follows the body (a disconnect) may come at any time
                return await receive()
            with anyio.move_on_after(deadline - time.monotonic()) as waiting:
                message = await receive()
            if waiting.cancelled_caught:
                problem = f"the request body did not arrive within {self.seconds:g} s"
                raise Refusal(408, InputError(problem, place="body"), {"Connection": "close"})
            body_done = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        await self.app(scope, timed_receive, send)
