"""The FastAPI app: the command line's JSON answers over HTTP, and the single page at ``/``.

Every endpoint returns its pydantic answer, which FastAPI checks against the declared model and
documents in ``/openapi.json``: the same JSON as ``cfalloc ... --json`` prints for the same
scenario. Bad input is a 4xx answer, never a 500:
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

import json
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, JsonValue, RootModel, StringConstraints

import allocator
from allocator.core.errors import InputError
from allocator.core.exact import Exact
from allocator.core.library import folder
from allocator.core.limits import default_limits
from allocator.core.reader import read_bytes, read_file
from allocator.games.crossfire import service
from allocator.games.crossfire.answers import (
    Answer,
    CheckAnswer,
    CompareAnswer,
    ExplainAnswer,
    PlanAnswer,
    PlayAnswer,
    SimulateAnswer,
    SolveAnswer,
)
from allocator.games.crossfire.battle import Battle, battle_from_data
from allocator.games.crossfire.objectives import DEFAULT_OBJECTIVE, Objective
from allocator.games.crossfire.play import MAX_DICE_TEXT, play_round, rolls_of
from allocator.games.crossfire.schema import Expect, Scenario
from allocator.web import builder, infinity
from allocator.web.bodies import RequestBody, ScenarioBody
from allocator.web.errors import JSON_REFUSALS, NotFound, install_error_handlers, refusals
from allocator.web.guards import (
    BodySizeLimit,
    CrossSiteGuard,
    SlowBodyTimeout,
    TrustedHosts,
    allowed_hosts,
)
from allocator.web.settings import WebSettings
from allocator.web.work import ApiRoute, Errand, Served, Work

STATIC_DIR = Path(__file__).parent / "static"
SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")
#: A shipped scenario's name: never a path on the server.
SHIPPED_NAME = re.compile(r"[A-Za-z0-9_.-]{1,100}")
#: The page may only talk to this server: no CDN, no external font, no inline script.
PAGE_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
#: Swagger UI at ``/docs`` starts itself with an inline script; it too loads nothing from elsewhere.
DOCS_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
#: Where the Swagger UI of the ``fastapi-offline`` package (Swagger UI 5, for OpenAPI 3.1) is
#: served from.
DOCS_ASSETS = "/docs-assets"

AnswerT = TypeVar("AnswerT", bound=Answer)


class SolveRequest(RequestBody):
    """The body of ``POST /api/solve``."""

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


class PlanRequest(RequestBody):
    """The body of ``POST /api/plan``."""

    scenario: dict[str, Any]
    side: Literal["attacker", "defender"]
    target: Exact | None = Field(
        default=None,
        description="A chance of taking the building to reach (the attacker: at least; the "
        'defender: at most), exact: "4/5" or "0.8".',
    )
    rounds: int | None = Field(
        default=None,
        ge=1,
        le=default_limits().max_rounds,
        description="Fight at most this many rounds (default: until one side is gone).",
    )


class CompareRequest(RequestBody):
    """The body of ``POST /api/compare``."""

    scenario: dict[str, Any]
    profile: str = Field(
        min_length=1,
        max_length=200,
        description="The profile to set beside the scenario's own: a shipped one (`/api/profiles`"
        ") or a base with house rules, `crossfire:ties=defender,leader_bonus=sum` (no files).",
    )


class SimulateRequest(RequestBody):
    """The body of ``POST /api/simulate``."""

    scenario: dict[str, Any]
    seed: int | None = Field(
        default=None,
        ge=0,
        le=2**31,
        description="Seed of the dice, so that a roll can be repeated (default: fresh dice).",
    )


#: One combat's dice as written at the table: ``4-3``, ``6 2-3``, ``4-4/5-2``.
DiceText = Annotated[str, StringConstraints(min_length=1, max_length=MAX_DICE_TEXT)]
CombatName = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class PlayRequest(RequestBody):
    """The body of ``POST /api/play``: the dice rolled at the table, or a seed to roll them."""

    scenario: dict[str, Any]
    dice: dict[CombatName, DiceText] | None = Field(
        default=None,
        description='Each rolled combat\'s dice, attacker first: `{"A": "4-3"}`; with '
        "the profile's dice_mode pool each side's dice with spaces (`6 2-3`); a tie that is "
        "re-rolled, then its re-roll after a slash (`4-4/5-2`). Without it the dice are rolled "
        "here.",
    )
    seed: int | None = Field(
        default=None,
        ge=0,
        le=2**31,
        description="Without `dice`: the seed of the dice rolled here (default: fresh dice).",
    )


class ScenarioEntry(BaseModel):
    """One shipped scenario in the list."""

    name: str = Field(description="Its name, for `GET /api/scenarios/{name}`.")
    title: str | None
    expect: Expect | None = Field(description="What it is meant to show.")


class ParsedDocument(RootModel[dict[str, JsonValue]]):
    """A pasted or uploaded document's data, as JSON: a mapping read by the same reader as a
    file and within the same limits, but not yet checked as a scenario (``POST /api/board``
    and ``POST /api/check`` do that)."""


def shipped_scenarios() -> dict[str, Path]:
    """The scenarios in ``models/scenarios/`` by name (file name without its suffix)."""
    files = sorted(p for p in folder("scenarios").iterdir() if p.suffix in SCENARIO_SUFFIXES)
    return {path.stem: path for path in files}


@cache
def scenario_listing() -> list[ScenarioEntry]:
    """Name, title and expectation of every shipped scenario (read once)."""
    entries = []
    for name in shipped_scenarios():
        scenario = shipped_scenario(name)
        entries.append(ScenarioEntry(name=name, title=scenario.title, expect=scenario.expect))
    return entries


@cache
def shipped_scenario(name: str) -> Scenario:
    """One shipped scenario (read and validated once); dumped without its unset fields, it is
    the file's data."""
    path = shipped_scenarios().get(name) if SHIPPED_NAME.fullmatch(name) else None
    if path is None:
        raise NotFound(f"no shipped scenario {name[:100]!r}", place="name")
    return Scenario.model_validate(read_file(path))


api = APIRouter(prefix="/api", route_class=ApiRoute)


async def answered(
    work: Errand, scenario: dict[str, Any], compute: Callable[[Battle], AnswerT]
) -> AnswerT:
    """The answer for ``scenario``, computed in the pool: the battle first (refused at once when
    over a size limit), then ``compute``, which is given the server's time limit. The answer is
    built (and so validated) there; FastAPI checks its type and writes it as JSON."""

    def job() -> AnswerT:
        return compute(battle_from_data(scenario, limits=work.settings.limits))

    return await work.run(job)


@api.post("/check", responses=JSON_REFUSALS, tags=["rules"])
async def check(scenario: ScenarioBody, work: Work) -> CheckAnswer:
    """Check the scenario's allocation (any leading part of it): `cfalloc check --json`."""
    seconds = work.settings.solve_time_limit
    return await answered(work, scenario, lambda battle: service.check_answer(battle, seconds))


@api.post("/explain", responses=JSON_REFUSALS, tags=["rules"])
async def explain(
    scenario: ScenarioBody,
    work: Work,
    objective: Annotated[
        Objective,
        Query(description="The aim of the line walked when the scenario has no allocation."),
    ] = DEFAULT_OBJECTIVE,
) -> ExplainAnswer:
    """Narrate the procedure step by step: `cfalloc explain --objective O --json`."""
    seconds = work.settings.solve_time_limit
    return await answered(
        work, scenario, lambda battle: service.explain_answer(battle, objective, seconds)
    )


@api.post("/solve", responses=JSON_REFUSALS, tags=["odds"])
async def solve(request: SolveRequest, work: Work) -> SolveAnswer:
    """The best line of play for one side: `cfalloc solve --side S --objective O --json`."""
    seconds = work.settings.solve_time_limit
    return await answered(
        work,
        request.scenario,
        lambda battle: service.solve_answer(
            battle, request.side, request.objective, seconds, request.rounds
        ),
    )


@api.post("/plan", responses=JSON_REFUSALS, tags=["odds"])
async def plan(request: PlanRequest, work: Work) -> PlanAnswer:
    """Which stands to commit or garrison, and the curve by squads: `cfalloc plan --side S
    --json`."""
    from allocator.games.crossfire.plan import plan_answer

    seconds = work.settings.solve_time_limit
    return await answered(
        work,
        request.scenario,
        lambda battle: plan_answer(battle, request.side, request.target, seconds, request.rounds),
    )


@api.post("/compare", responses=JSON_REFUSALS, tags=["odds"])
async def compare(request: CompareRequest, work: Work) -> CompareAnswer:
    """The fight under the scenario's own ruleset and another profile, side by side: `cfalloc
    compare --profile OWN --profile P --json`."""
    from allocator.games.crossfire.compare import compare_answer
    from allocator.games.crossfire.profile import profile_from_spec

    seconds = work.settings.solve_time_limit

    def side_by_side(battle: Battle) -> CompareAnswer:
        own = battle.ruleset
        if request.profile.strip() == own.name:
            raise InputError(
                f"{own.name} is the scenario's own ruleset: give another profile or house rules,"
                f" such as {own.name}:ties=defender",
                place="profile",
            )
        try:
            other = profile_from_spec(request.profile, source="profile")
        except InputError as error:
            raise error.located(None, "profile") from None
        return compare_answer(battle, {own.name: own, request.profile: other}, seconds)

    return await answered(work, request.scenario, side_by_side)


@api.post("/simulate", responses=JSON_REFUSALS, tags=["odds"])
async def simulate(request: SimulateRequest, work: Work) -> SimulateAnswer:
    """Roll the dice for a complete allocation: `cfalloc simulate --seed N --json`."""
    seconds = work.settings.solve_time_limit
    return await answered(
        work,
        request.scenario,
        lambda battle: service.simulate_answer(battle, seed=request.seed, time_limit=seconds),
    )


@api.post("/play", responses=JSON_REFUSALS, tags=["odds"])
async def play(request: PlayRequest, work: Work) -> PlayAnswer:
    """Play the scenario's allocation with the dice rolled at the table (or rolled here), and
    the next round's scenario with the survivors: `cfalloc play --dice ... --json`."""
    seconds = work.settings.solve_time_limit

    if request.dice is not None and request.seed is not None:
        raise InputError(
            "give the dice rolled at the table or a seed to roll them, not both", place="seed"
        )

    def played(battle: Battle) -> PlayAnswer:
        dice = None
        if request.dice is not None:
            problems: list[InputError] = []
            dice = {}
            for name, text in request.dice.items():
                try:
                    dice[name] = rolls_of(name, text)
                except InputError as problem:
                    problems.append(problem.located(None, f"dice.{name}"))
            if problems:
                raise InputError.of(problems)
        try:
            return play_round(battle, dice, request.seed, odds_time_limit=seconds)
        except InputError as error:
            raise error.located(None, "dice") from None

    return await answered(work, request.scenario, played)


@api.post(
    "/parse",
    tags=["scenarios"],
    responses=refusals(400, 403, 408, 413, 422, 429),
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"text/plain": {"schema": {"type": "string"}}},
            "description": "A scenario as YAML or JSON text (any content type).",
        }
    },
)
async def parse(request: Request, work: Work) -> ParsedDocument:
    """Read a pasted or uploaded YAML/JSON scenario and answer its data as JSON (not yet checked:
    `/api/board` and `/api/check` do that)."""
    body = await request.body()
    limits = work.settings.limits

    def job() -> ParsedDocument:
        try:
            data = read_bytes(body, limits=limits)
        except InputError as error:
            raise error.located(None, "body") from None
        if not isinstance(data, dict):
            raise InputError(
                "a scenario must be a mapping with `defender` and `attacker`", place="body"
            )
        # As JSON writes it: a key that YAML reads as a number or true/false becomes its text.
        return ParsedDocument(json.loads(json.dumps(data)))

    return await work.run(job)


# The shipped files are few, small and read once: they need no place in the pool, so that the
# page can open a scenario while the pool is busy.


@api.get(
    "/scenarios", tags=["scenarios"], responses=refusals(400), response_model_exclude_unset=True
)
def scenarios() -> list[ScenarioEntry]:
    """The shipped scenarios: name, title and what each is meant to show."""
    return scenario_listing()


@api.get(
    "/scenarios/{name}",
    tags=["scenarios"],
    responses=refusals(400, 404, 422),
    response_model_exclude_unset=True,
)
def scenario(name: str) -> Scenario:
    """One shipped scenario's data, as JSON, exactly as in its file."""
    return shipped_scenario(name)


pages = APIRouter(include_in_schema=False)


@pages.get("/")
async def page() -> FileResponse:
    return FileResponse(
        STATIC_DIR / "index.html", headers={"Content-Security-Policy": PAGE_SECURITY_POLICY}
    )


@pages.get("/infinity")
async def infinity_page() -> FileResponse:
    """The Infinity close-combat calculator (its endpoints: :mod:`allocator.web.infinity`)."""
    return FileResponse(
        STATIC_DIR / "infinity.html", headers={"Content-Security-Policy": PAGE_SECURITY_POLICY}
    )


@pages.get("/docs")
async def api_docs(request: Request) -> HTMLResponse:
    """Swagger UI 5, served from this machine (no CDN at run time, no online validator)."""
    from fastapi.openapi.docs import get_swagger_ui_html

    page = get_swagger_ui_html(
        openapi_url=request.app.openapi_url or "/openapi.json",
        title="cfalloc API",
        swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
        swagger_favicon_url=f"{DOCS_ASSETS}/favicon.png",
        swagger_ui_parameters={"validatorUrl": None},
    )
    page.headers["Content-Security-Policy"] = DOCS_SECURITY_POLICY
    return page


def docs_assets() -> Path:
    """The Swagger UI files of the ``fastapi-offline`` package (of the web extra)."""
    import fastapi_offline

    return Path(fastapi_offline.__file__).parent / "static"


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    yield
    app.state.served.pool.close()


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """The web app: JSON API under ``/api``, the page at ``/``, OpenAPI at ``/docs``."""
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
    app.include_router(infinity.router)
    app.include_router(pages)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.mount(DOCS_ASSETS, StaticFiles(directory=docs_assets()), name="docs-assets")
    # The last added runs first: the Host check, then the cross-site check, then the body limits.
    app.add_middleware(SlowBodyTimeout, seconds=settings.body_timeout)
    app.add_middleware(BodySizeLimit, max_bytes=settings.limits.max_body_bytes)
    app.add_middleware(CrossSiteGuard)
    app.add_middleware(TrustedHosts, allowed_hosts=allowed_hosts(settings))
    return app
