"""Settings of the web server: where it listens and how much work one request may ask for.

>>> settings = WebSettings()
>>> settings.host, settings.port
('127.0.0.1', 8000)
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from allocator.core.limits import Limits, default_limits


class WebSettings(BaseModel):
    """Where ``cfalloc serve`` listens, and the limits that keep one request from hogging it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = Field(default="127.0.0.1", description="Address to bind; loopback by default.")
    port: int = Field(default=8000, ge=0, le=65535, description="TCP port to listen on.")
    limits: Limits = Field(
        default_factory=default_limits,
        description="The size limits, shared with the command line (CFALLOC_* variables).",
    )
    solve_time_limit: float = Field(
        default=10.0, gt=0, description="Seconds a solve may search before answering `feasible`."
    )
