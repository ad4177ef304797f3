"""The FastAPI app: the command line's JSON answers over HTTP, and the single page at ``/``.

Every endpoint answers what ``cfalloc ... --json`` prints for the same scenario. Bad input is a
4xx answer, never a 500: ``{"error": {"file": ..., "place": ..., "problem": ...}}`` (request
validation errors also carry FastAPI's ``detail`` list).

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app(WebSettings()))
>>> client.post("/api/check", json={"defender": {}}).json()["error"]["place"]
'attacker'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Body, FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import allocator
from allocator.core.errors import InputError, LimitError, TimeLimitError
from allocator.core.library import folder
from allocator.core.limits import Limits
from allocator.core.reader import read_file, read_text
from allocator.games.crossfire import service
from allocator.games.crossfire.answers import (
    Answer,
    CheckAnswer,
    ExplainAnswer,
    SimulateAnswer,
    SolveAnswer,
)
from allocator.games.crossfire.battle import COMMANDERS, ROLES, Battle, battle_from_data
from allocator.games.crossfire.schema import Stand
from allocator.web import builder
from allocator.web.settings import WebSettings

STATIC_DIR = Path(__file__).parent / "static"
SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")
#: A shipped ruleset profile or organisation: a bare name, never a path on the server.
SHIPPED_NAME = re.compile(r"[A-Za-z0-9_-]+")
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


class ErrorDetail(BaseModel):
    """Where the input is wrong and why, as the command line says it."""

    file: str | None = None
    place: str | None = Field(
        default=None, description="Where in the input, e.g. `defender.stands[2].unit`."
    )
    problem: str


class ErrorAnswer(BaseModel):
    error: ErrorDetail


ERROR_ANSWERS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorAnswer, "description": "Malformed JSON."},
    413: {"model": ErrorAnswer, "description": "The request or the scenario is too large."},
    422: {"model": ErrorAnswer, "description": "The scenario or the request is not valid."},
}


class SolveRequest(BaseModel):
    """The body of ``POST /api/solve``."""

    model_config = ConfigDict(extra="forbid")

    scenario: dict[str, Any]
    side: Literal["attacker", "defender"]
    objective: Literal["sweep", "exchange"] = "sweep"


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


class ScenarioNotFound(InputError):
    """A name that is not among the shipped scenarios."""


class BodyTooLarge(HTTPException):
    """A request body streamed past the configured limit (raised while FastAPI reads it)."""


class BodySizeLimit:
    """ASGI middleware: answers 413 to a body larger than the limit, declared or streamed."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def problem(self) -> str:
        return f"the request body is larger than this server accepts ({self.max_bytes} bytes)"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await error_answer(413, InputError(self.problem(), place="body"))(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_bytes:
                raise BodyTooLarge(413, self.problem())
            return message

        await self.app(scope, limited_receive, send)


def answer_response(answer: Answer) -> JSONResponse:
    """An answer exactly as ``--json`` prints it (the endpoint's response_model documents it)."""
    return JSONResponse(answer.to_json())


def error_answer(status: int, error: InputError, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": error.to_dict(), **extra}, status_code=status)


def input_error_status(error: InputError) -> int:
    if isinstance(error, ScenarioNotFound):
        return 404
    return 413 if isinstance(error, LimitError) else 422


def validation_error_answer(exc: RequestValidationError) -> JSONResponse:
    """FastAPI's validation detail, plus its first problem in the ``error`` form."""
    errors = exc.errors()
    first = errors[0]
    place = ".".join(str(part) for part in first["loc"])
    status = 400 if any(e["type"] == "json_invalid" for e in errors) else 422
    problem = "not valid JSON" if status == 400 else first["msg"]
    detail = jsonable_encoder(errors)
    return error_answer(status, InputError(problem, place=place), detail=detail)


def load_checked_battle(scenario: dict[str, Any], limits: Limits) -> Battle:
    """A scenario from a request: shipped profile and organisation names only, never paths."""
    return battle_from_data(scenario, limits=limits)


def shipped_scenarios() -> dict[str, Path]:
    """The scenarios in ``models/scenarios/`` by name (file name without its suffix)."""
    files = sorted(p for p in folder("scenarios").iterdir() if p.suffix in SCENARIO_SUFFIXES)
    return {path.stem: path for path in files}


def stand_json(stand: Stand) -> dict[str, Any]:
    return stand.model_dump(mode="json") | {
        "role": ROLES[stand.type].value,
        "commander": stand.type in COMMANDERS,
    }


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """The web app: JSON API under ``/api``, the page at ``/``, OpenAPI at ``/docs``."""
    settings = settings or WebSettings()
    app = FastAPI(
        docs_url=None,
        title="cfalloc",
        version=allocator.__version__,
        description=(
            "Close-combat allocation for Crossfire building fights. Every endpoint answers "
            "what `cfalloc ... --json` prints for the same scenario."
        ),
    )
    app.state.settings = settings
    app.add_middleware(BodySizeLimit, max_bytes=settings.limits.max_body_bytes)

    @app.exception_handler(InputError)
    async def on_input_error(_: Request, exc: InputError) -> JSONResponse:
        return error_answer(input_error_status(exc), exc)

    @app.exception_handler(RequestValidationError)
    async def on_validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        return validation_error_answer(exc)

    @app.exception_handler(TimeLimitError)
    async def on_time_limit(_: Request, exc: TimeLimitError) -> JSONResponse:
        return error_answer(422, InputError(str(exc), place="time limit"))

    @app.exception_handler(BodyTooLarge)
    async def on_body_too_large(_: Request, exc: BodyTooLarge) -> JSONResponse:
        return error_answer(413, InputError(exc.detail, place="body"))

    limits = settings.limits
    app.include_router(builder.router_for(limits, responses=ERROR_ANSWERS))

    @app.post("/api/check", tags=["rules"], responses=ERROR_ANSWERS, response_model=CheckAnswer)
    def check(scenario: ScenarioBody) -> Any:
        """Check the scenario's allocation (any leading part of it): `cfalloc check --json`."""
        battle = load_checked_battle(scenario, limits)
        return answer_response(service.check_answer(battle, settings.solve_time_limit))

    @app.post("/api/explain", tags=["rules"], responses=ERROR_ANSWERS, response_model=ExplainAnswer)
    def explain(scenario: ScenarioBody) -> Any:
        """Narrate the procedure step by step: `cfalloc explain --json`."""
        battle = load_checked_battle(scenario, limits)
        return answer_response(service.explain_answer(battle, time_limit=settings.solve_time_limit))

    @app.post("/api/solve", tags=["odds"], responses=ERROR_ANSWERS, response_model=SolveAnswer)
    def solve(request: SolveRequest) -> Any:
        """The best line of play for one side: `cfalloc solve --side S --objective O --json`."""
        battle = load_checked_battle(request.scenario, limits)
        return answer_response(
            service.solve_answer(battle, request.side, request.objective, settings.solve_time_limit)
        )

    @app.post(
        "/api/simulate", tags=["odds"], responses=ERROR_ANSWERS, response_model=SimulateAnswer
    )
    def simulate(request: SimulateRequest) -> Any:
        """Roll the dice for a complete allocation: `cfalloc simulate --seed N --json`."""
        battle = load_checked_battle(request.scenario, limits)
        return answer_response(
            service.simulate_answer(battle, seed=request.seed, time_limit=settings.solve_time_limit)
        )

    @app.post(
        "/api/parse",
        tags=["scenarios"],
        responses=ERROR_ANSWERS,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"text/plain": {"schema": {"type": "string"}}},
                "description": "A scenario as YAML or JSON text.",
            }
        },
    )
    async def parse(request: Request) -> Any:
        """Read a pasted or uploaded YAML/JSON scenario and answer it as JSON."""
        try:
            text = (await request.body()).decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("the text is not UTF-8", place="body") from None
        data = read_text(text, source=None, limits=limits)
        if not isinstance(data, dict):
            raise InputError("a scenario must be a mapping with `defender` and `attacker`")
        return data

    @app.post("/api/forces", tags=["scenarios"], responses=ERROR_ANSWERS)
    def forces(scenario: ScenarioBody) -> dict[str, Any]:
        """The building and both sides' stands (organisations expanded): what the page draws."""
        battle = load_checked_battle(scenario, limits)
        return {
            "title": battle.scenario.title,
            "description": battle.scenario.description,
            "building": battle.scenario.building.model_dump(mode="json"),
            "defender": [stand_json(s) for s in battle.defender.stands.values()],
            "attacker": [stand_json(s) for s in battle.attacker.stands.values()],
        }

    @app.get("/api/scenarios", tags=["scenarios"])
    def scenarios() -> list[dict[str, Any]]:
        """The shipped scenarios: name, title and what each is meant to show."""
        listing = []
        for name, path in shipped_scenarios().items():
            data = read_file(path)
            listing.append({"name": name, "title": data.get("title"), "expect": data.get("expect")})
        return listing

    @app.get("/api/scenarios/{name}", tags=["scenarios"], responses={404: {"model": ErrorAnswer}})
    def scenario(name: str) -> dict[str, Any]:
        """One shipped scenario's data, as JSON."""
        path = shipped_scenarios().get(name)
        if path is None:
            raise ScenarioNotFound(f"no shipped scenario '{name}'", place="name")
        return read_file(path)

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(
            STATIC_DIR / "index.html", headers={"Content-Security-Policy": PAGE_SECURITY_POLICY}
        )

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    _serve_api_docs(app)
    return app


def _serve_api_docs(app: FastAPI) -> None:
    """OpenAPI at ``/docs`` with Swagger UI served from this machine (no CDN at run time)."""
    from fastapi.openapi.docs import get_swagger_ui_html
    from swagger_ui_bundle import swagger_ui_path

    app.mount("/docs-assets", StaticFiles(directory=swagger_ui_path), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def api_docs() -> Any:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title="cfalloc API",
            swagger_js_url="/docs-assets/swagger-ui-bundle.js",
            swagger_css_url="/docs-assets/swagger-ui.css",
            swagger_favicon_url="/docs-assets/favicon-32x32.png",
        )
