"""Settings of the web server: where it listens and how much work one request may ask for.

>>> settings = WebSettings()
>>> settings.host, settings.port
('127.0.0.1', 8000)
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class WebSettings(BaseModel):
    """Where ``cfalloc serve`` listens, and the limits that keep one request from hogging it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = Field(default="127.0.0.1", description="Address to bind; loopback by default.")
    port: int = Field(default=8000, ge=0, le=65535, description="TCP port to listen on.")
    max_stands_per_side: int = Field(
        default=16,
        ge=1,
        description="Largest force (stands per side) that /api/solve and /api/explain accept.",
    )
    max_body_bytes: int = Field(
        default=256 * 1024, ge=1024, description="Largest request body accepted, in bytes."
    )
    max_yaml_nodes: int = Field(
        default=50_000,
        ge=100,
        description="Largest document /api/parse reads, in values once YAML aliases are expanded.",
    )
    solve_time_limit: float = Field(
        default=10.0, gt=0, description="Seconds a solve may search before answering `feasible`."
    )
