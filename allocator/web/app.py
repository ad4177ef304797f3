"""The FastAPI app: the command line's JSON answers over HTTP, and the single page at ``/``.

Every endpoint answers what ``cfalloc ... --json`` prints for the same scenario, and documents
its answer in ``/openapi.json``. Bad input is a 4xx answer, never a 500:
``{"error": {"file": ..., "place": ..., "problem": ...}}`` (see :mod:`allocator.web.errors`).
Heavy work runs in a bounded pool (:mod:`allocator.web.work`); requests pass the Host, cross-site
and body checks of :mod:`allocator.web.guards` first.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app(WebSettings()), base_url="http://127.0.0.1:8000")
>>> client.post("/api/check", json={"defender": {}}).json()["error"]["place"]
'attacker'
>>> client.get("/", headers={"host": "rebound.example"}).status_code
400
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, FastAPI, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

import allocator
from allocator.core.errors import InputError
from allocator.core.library import folder
from allocator.core.limits import default_limits
from allocator.core.reader import read_bytes, read_file
from allocator.games.crossfire import service
from allocator.games.crossfire.answers import (
    Answer,
    CheckAnswer,
    ExplainAnswer,
    SimulateAnswer,
    SolveAnswer,
)
from allocator.games.crossfire.battle import Battle, battle_from_data
from allocator.games.crossfire.objectives import DEFAULT_OBJECTIVE, Objective
from allocator.games.crossfire.schema import Expect, Scenario
from allocator.web import builder
from allocator.web.errors import JSON_REFUSALS, NotFound, install_error_handlers, refusals
from allocator.web.guards import (
    BodySizeLimit,
    CrossSiteGuard,
    SlowBodyTimeout,
    TrustedHosts,
    allowed_hosts,
)
from allocator.web.settings import WebSettings
from allocator.web.work import ApiRoute, Served, Work

STATIC_DIR = Path(__file__).parent / "static"
SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")
#: A shipped scenario's name: never a path on the server.
SHIPPED_NAME = re.compile(r"[A-Za-z0-9_.-]{1,100}")
#: The page may only talk to this server: no CDN, no external font, no inline script.
PAGE_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)

EXAMPLE_SCENARIO: dict[str, Any] = {
    "building": {"name": "Barn", "capacity": 2},
    "defender": {
        "units": [{"id": "p", "kind": "platoon"}],
        "stands": [{"id": "d1", "type": "rifle", "unit": "p"}],
    },
    "attacker": {
        "units": [{"id": "q", "kind": "platoon"}],
        "stands": [{"id": "a1", "type": "rifle", "unit": "q"}],
    },
    "allocation": {"combats": {"A": ["d1"]}, "attack": {"A": ["a1"]}, "reallocate": {}},
}

ScenarioBody = Annotated[
    dict[str, Any],
    Body(
        description="A scenario, as in a scenario file (see `cfalloc schema`).",
        examples=[EXAMPLE_SCENARIO],
    ),
]


class SolveRequest(BaseModel):
    """The body of ``POST /api/solve``."""

    model_config = ConfigDict(extra="forbid")

    scenario: dict[str, Any]
    side: Literal["attacker", "defender"]
    objective: Objective = Field(
        default=DEFAULT_OBJECTIVE,
        description="What the attacker plays for (`/api/terms` lists the objectives).",
    )
    rounds: int | None = Field(
        default=None,
        ge=1,
        le=default_limits().max_rounds,
        description="With an objective of the whole fight: fight at most this many rounds "
        "(default: until one side is gone).",
    )


class SimulateRequest(BaseModel):
    """The body of ``POST /api/simulate``."""

    model_config = ConfigDict(extra="forbid")

    scenario: dict[str, Any]
    seed: int | None = Field(
        default=None,
        ge=0,
        le=2**31,
        description="Seed of the dice, so that a roll can be repeated (default: fresh dice).",
    )


class ScenarioEntry(BaseModel):
    """One shipped scenario in the list."""

    name: str = Field(description="Its name, for `GET /api/scenarios/{name}`.")
    title: str | None
    expect: Expect | None = Field(description="What it is meant to show.")


def answer_response(answer: Answer) -> JSONResponse:
    """An answer exactly as ``--json`` prints it (the endpoint's response_model documents it)."""
    return JSONResponse(answer.to_json())


def shipped_scenarios() -> dict[str, Path]:
    """The scenarios in ``models/scenarios/`` by name (file name without its suffix)."""
    files = sorted(p for p in folder("scenarios").iterdir() if p.suffix in SCENARIO_SUFFIXES)
    return {path.stem: path for path in files}


@cache
def scenario_listing() -> list[dict[str, Any]]:
    """Name, title and expectation of every shipped scenario (read once)."""
    listing = []
    for name, path in shipped_scenarios().items():
        data = read_file(path)
        listing.append({"name": name, "title": data.get("title"), "expect": data.get("expect")})
    return listing


@cache
def shipped_scenario(name: str) -> Any:
    """One shipped scenario's data (read once)."""
    path = shipped_scenarios().get(name) if SHIPPED_NAME.fullmatch(name) else None
    if path is None:
        raise NotFound(f"no shipped scenario {name[:100]!r}", place="name")
    return read_file(path)


api = APIRouter(prefix="/api", route_class=ApiRoute)


async def answered(
    work: Served, scenario: dict[str, Any], compute: Callable[[Battle], Answer]
) -> Any:
    """The answer for ``scenario``, computed in the pool: the battle first (refused at once when
    over a size limit), then ``compute``, which is given the server's time limit."""

    def job() -> JSONResponse:
        battle = battle_from_data(scenario, limits=work.settings.limits)
        return answer_response(compute(battle))

    return await work.pool.run(job)


@api.post("/check", responses=JSON_REFUSALS, tags=["rules"], response_model=CheckAnswer)
async def check(scenario: ScenarioBody, work: Work) -> Any:
    """Check the scenario's allocation (any leading part of it): `cfalloc check --json`."""
    seconds = work.settings.solve_time_limit
    return await answered(work, scenario, lambda battle: service.check_answer(battle, seconds))


@api.post("/explain", responses=JSON_REFUSALS, tags=["rules"], response_model=ExplainAnswer)
async def explain(
    scenario: ScenarioBody,
    work: Work,
    objective: Annotated[
        Objective,
        Query(description="The aim of the line walked when the scenario has no allocation."),
    ] = DEFAULT_OBJECTIVE,
) -> Any:
    """Narrate the procedure step by step: `cfalloc explain --objective O --json`."""
    seconds = work.settings.solve_time_limit
    return await answered(
        work, scenario, lambda battle: service.explain_answer(battle, objective, seconds)
    )


@api.post("/solve", responses=JSON_REFUSALS, tags=["odds"], response_model=SolveAnswer)
async def solve(request: SolveRequest, work: Work) -> Any:
    """The best line of play for one side: `cfalloc solve --side S --objective O --json`."""
    seconds = work.settings.solve_time_limit
    return await answered(
        work,
        request.scenario,
        lambda battle: service.solve_answer(
            battle, request.side, request.objective, seconds, request.rounds
        ),
    )


@api.post("/simulate", responses=JSON_REFUSALS, tags=["odds"], response_model=SimulateAnswer)
async def simulate(request: SimulateRequest, work: Work) -> Any:
    """Roll the dice for a complete allocation: `cfalloc simulate --seed N --json`."""
    seconds = work.settings.solve_time_limit
    return await answered(
        work,
        request.scenario,
        lambda battle: service.simulate_answer(battle, seed=request.seed, time_limit=seconds),
    )


@api.post(
    "/parse",
    tags=["scenarios"],
    responses=refusals(400, 403, 408, 413, 422, 429),
    response_model=Scenario,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"text/plain": {"schema": {"type": "string"}}},
            "description": "A scenario as YAML or JSON text (any content type).",
        }
    },
)
async def parse(request: Request, work: Work) -> Any:
    """Read a pasted or uploaded YAML/JSON scenario and answer its data as JSON (not yet checked:
    `/api/board` and `/api/check` do that)."""
    body = await request.body()
    limits = work.settings.limits

    def job() -> JSONResponse:
        try:
            data = read_bytes(body, limits=limits)
        except InputError as error:
            raise error.located(None, "body") from None
        if not isinstance(data, dict):
            raise InputError(
                "a scenario must be a mapping with `defender` and `attacker`", place="body"
            )
        return JSONResponse(data)

    return await work.pool.run(job)


# The shipped files are few, small and read once: they need no place in the pool, so that the
# page can open a scenario while the pool is busy.


@api.get(
    "/scenarios",
    tags=["scenarios"],
    response_model=list[ScenarioEntry],
    responses=refusals(400),
)
def scenarios() -> Any:
    """The shipped scenarios: name, title and what each is meant to show."""
    return JSONResponse(scenario_listing())


@api.get(
    "/scenarios/{name}",
    tags=["scenarios"],
    response_model=Scenario,
    responses=refusals(400, 404, 422),
)
def scenario(name: str) -> Any:
    """One shipped scenario's data, as JSON, exactly as in its file."""
    return JSONResponse(shipped_scenario(name))


pages = APIRouter(include_in_schema=False)


@pages.get("/")
async def page() -> FileResponse:
    return FileResponse(
        STATIC_DIR / "index.html", headers={"Content-Security-Policy": PAGE_SECURITY_POLICY}
    )


@pages.get("/docs")
async def api_docs(request: Request) -> HTMLResponse:
    """Swagger UI, served from this machine (no CDN at run time)."""
    from fastapi.openapi.docs import get_swagger_ui_html

    return get_swagger_ui_html(
        openapi_url=request.app.openapi_url or "/openapi.json",
        title="cfalloc API",
        swagger_js_url="/docs-assets/swagger-ui-bundle.js",
        swagger_css_url="/docs-assets/swagger-ui.css",
        swagger_favicon_url="/docs-assets/favicon-32x32.png",
    )


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    yield
    app.state.served.pool.close()


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """The web app: JSON API under ``/api``, the page at ``/``, OpenAPI at ``/docs``."""
    from swagger_ui_bundle import swagger_ui_path

    settings = settings or WebSettings()
    app = FastAPI(
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
        title="cfalloc",
        version=allocator.__version__,
        description=(
            "Close-combat allocation for Crossfire building fights. Every endpoint answers "
            "what `cfalloc ... --json` prints for the same scenario."
        ),
    )
    app.state.served = Served(settings)
    install_error_handlers(app)
    app.include_router(api)
    app.include_router(builder.router)
    app.include_router(pages)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.mount("/docs-assets", StaticFiles(directory=swagger_ui_path), name="docs-assets")
    # The last added runs first: the Host check, then the cross-site check, then the body limits.
    app.add_middleware(SlowBodyTimeout, seconds=settings.body_timeout)
    app.add_middleware(BodySizeLimit, max_bytes=settings.limits.max_body_bytes)
    app.add_middleware(CrossSiteGuard)
    app.add_middleware(TrustedHosts, allowed_hosts=allowed_hosts(settings))
    return app
