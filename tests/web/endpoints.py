"""The web API's endpoints, read from the app itself, so that no test lists them by hand."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, get_type_hints

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")

from fastapi import FastAPI
from fastapi.routing import APIRoute

from allocator.web.bodies import ScenarioBody


def _flat(routes: Iterable[Any]) -> Iterator[Any]:
    for route in routes:
        included = getattr(route, "original_router", None)  # newer FastAPI keeps routers whole
        yield from _flat(included.routes) if included is not None else [route]


def api_routes(app: FastAPI) -> dict[tuple[str, str], APIRoute]:
    """The JSON API's endpoints, by (method, path)."""
    return {
        (method, route.path): route
        for route in _flat(app.routes)
        if isinstance(route, APIRoute) and route.path.startswith("/api/")
        for method in sorted(route.methods)
    }


def takes_a_scenario(route: APIRoute) -> bool:
    """Whether the endpoint's body is a scenario itself (``ScenarioBody``)."""
    hints = get_type_hints(route.endpoint, include_extras=True)
    return any(hint == ScenarioBody for hint in hints.values())


def scenario_paths(app: FastAPI) -> list[str]:
    """The paths of the endpoints whose body is a scenario."""
    return sorted(path for (_, path), route in api_routes(app).items() if takes_a_scenario(route))


def json_body_paths(app: FastAPI) -> list[str]:
    """The paths of the endpoints that take a JSON body (a scenario, or a request holding one)."""
    return sorted(path for (_, path), route in api_routes(app).items() if route.body_field)
