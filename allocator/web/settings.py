"""Settings of the web server: where it listens, who may reach it, and how much work it takes on.

>>> settings = WebSettings()
>>> settings.host, settings.port, settings.workers, settings.queue
('127.0.0.1', 8000, 2, 8)
>>> WebSettings(allowed_hosts=("Club-Laptop.local",)).allowed_hosts
('club-laptop.local',)
"""

from __future__ import annotations

import re
from ipaddress import ip_address
from typing import Annotated, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from allocator.core.limits import Limits, default_limits

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
#: A host name (or an IPv4 address) as a Host header carries it.
HOST_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")


def host_header_name(host: str) -> str:
    """How ``host`` appears in a Host header: lower case, an IPv6 address in brackets.

    >>> host_header_name("::1"), host_header_name("Club-Laptop")
    ('[::1]', 'club-laptop')
    """
    try:
        address = ip_address(host.strip("[]"))
    except ValueError:
        if not HOST_NAME.fullmatch(host):
            raise ValueError("not a host name or an address") from None
        return host.lower()
    return f"[{address}]" if address.version == 6 else str(address)


def allowed_name(name: str) -> str:
    """A name to allow in the Host header: a host name, an address, or ``*.domain``."""
    domain = name.removeprefix("*.")
    try:
        allowed = host_header_name(domain)
    except ValueError:
        raise ValueError("not a host name, an address or *.domain") from None
    return name[: len(name) - len(domain)] + allowed


def listen_name(host: str) -> str:
    """An address to listen on, as given (a host name or an IP address)."""
    host_header_name(host)
    return host


HostName = Annotated[str, AfterValidator(listen_name)]
AllowedName = Annotated[str, AfterValidator(allowed_name)]


class WebSettings(BaseModel):
    """Where ``cfalloc serve`` listens, and the limits that keep one client from hogging it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: HostName = Field(default="127.0.0.1", description="Address to bind; loopback by default.")
    port: int = Field(default=8000, ge=0, le=65535, description="TCP port to listen on.")
    allowed_hosts: tuple[AllowedName, ...] = Field(
        default=(),
        description="More names the page may be reached by (the Host header), besides the "
        "bound address, localhost, 127.0.0.1 and ::1; `*.example.org` allows a domain's names.",
    )
    limits: Limits = Field(
        default_factory=default_limits,
        description="The size limits, shared with the command line (CFALLOC_* variables).",
    )
    solve_time_limit: float = Field(
        default=10.0,
        gt=0,
        description="Seconds one answer may take (check, explain, solve, simulate), as the "
        "command line's --time-limit; a solve stopped by it answers `feasible`.",
    )
    workers: int = Field(
        default=2, ge=1, le=64, description="Answers computed at the same time (threads)."
    )
    queue: int = Field(
        default=8,
        ge=0,
        le=1000,
        description="Answers waiting for a worker; beyond them a request gets 429 (busy).",
    )
    head_timeout: float = Field(
        default=5.0,
        gt=0,
        le=3600,
        description="Seconds a client may take to send a request's head (line and headers).",
    )
    body_timeout: float = Field(
        default=10.0, gt=0, le=3600, description="Seconds a client may take to send its body."
    )
    keep_alive: int = Field(
        default=5, ge=1, le=600, description="Seconds an idle kept-alive connection stays open."
    )
    max_connections: int = Field(
        default=256,
        ge=1,
        le=100_000,
        description="Connections open at once (each may hold a body of up to max_body_bytes); "
        "beyond them a new connection gets 429 (busy) with Retry-After. The last quarter "
        "takes only networks holding fewer than 6 (a visitor who has just arrived).",
    )
    max_connections_per_network: int = Field(
        default=16,
        ge=1,
        le=100_000,
        description="Connections the clients of one network (an IPv4 /24, an IPv6 /64) may "
        "hold open at once, so that one who holds many idle cannot shut out the others; beyond "
        "them 429. Behind a proxy every client has the proxy's address: raise it to "
        "max_connections.",
    )

    @model_validator(mode="after")
    def within_the_time_limit(self) -> Self:
        if self.solve_time_limit > self.limits.max_time_limit:
            raise ValueError(
                f"solve_time_limit {self.solve_time_limit:g} s is over the limit of "
                f"{self.limits.max_time_limit:g} s (raise it with CFALLOC_MAX_TIME_LIMIT)"
            )
        return self
