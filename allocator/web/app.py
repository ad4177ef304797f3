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

import yaml
from fastapi import Body, FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import allocator
from allocator import service
from allocator.battle import COMMANDERS, ROLES, Battle, battle_from_data, read_data
from allocator.errors import InputError, TooLargeError
from allocator.ruleset import models_dir
from allocator.schema import Stand
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
    seed: int = Field(description="Seed of the dice, so that a roll can be repeated.")


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


def error_answer(status: int, error: InputError, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": error.to_dict(), **extra}, status_code=status)


def input_error_status(error: InputError) -> int:
    if isinstance(error, ScenarioNotFound):
        return 404
    return 413 if isinstance(error, TooLargeError) else 422


def validation_error_answer(exc: RequestValidationError) -> JSONResponse:
    """FastAPI's validation detail, plus its first problem in the ``error`` form."""
    errors = exc.errors()
    first = errors[0]
    place = ".".join(str(part) for part in first["loc"])
    status = 400 if any(e["type"] == "json_invalid" for e in errors) else 422
    problem = "not valid JSON" if status == 400 else first["msg"]
    detail = jsonable_encoder(errors)
    return error_answer(status, InputError(problem, place=place), detail=detail)


def reject_server_paths(scenario: dict[str, Any]) -> None:
    """Over the web a scenario may name shipped profiles and organisations, never server files."""
    ruleset = scenario.get("ruleset")
    names: dict[str, Any] = {"ruleset": ruleset}
    if isinstance(ruleset, dict):
        names = {"ruleset.base": ruleset.get("base")}
    for side in ("defender", "attacker"):
        force = scenario.get(side)
        if isinstance(force, dict):
            names[f"{side}.organisation"] = force.get("organisation")
    for place, name in names.items():
        if isinstance(name, str) and not SHIPPED_NAME.fullmatch(name):
            raise InputError(
                f"'{name}' is not the name of a shipped file; the web API does not read paths",
                place=place,
            )


def load_checked_battle(scenario: dict[str, Any]) -> Battle:
    reject_server_paths(scenario)
    return battle_from_data(scenario)


def ensure_solvable(scenario: dict[str, Any], settings: WebSettings) -> None:
    """Refuse a force larger than the server's solve limit (413)."""
    battle = load_checked_battle(scenario)
    for force in (battle.defender, battle.attacker):
        if len(force.stands) > settings.max_stands_per_side:
            raise TooLargeError(
                f"the {force.name} has {len(force.stands)} stands; this server solves at most "
                f"{settings.max_stands_per_side} a side",
                place=f"{force.name}.stands",
            )


def expanded_node_count(root: yaml.Node, limit: int) -> int:
    """Nodes of a YAML document once its aliases are expanded, counting no further than limit."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()

    def count(node: yaml.Node) -> int:
        if id(node) in sizes:
            return sizes[id(node)]
        if id(node) in open_nodes:
            raise InputError("a YAML alias refers to the node that contains it", place="body")
        open_nodes.add(id(node))
        children: list[yaml.Node] = []
        if isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = node.value
        total = 1
        for child in children:
            total += count(child)
            if total > limit:
                break
        open_nodes.discard(id(node))
        sizes[id(node)] = total
        return total

    return count(root)


def parse_text(text: str, max_nodes: int) -> Any:
    """A pasted YAML or JSON document, read with the safe loader."""
    loader = yaml.SafeLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            raise InputError("the text is empty: paste or upload a scenario", place="body")
        if expanded_node_count(root, max_nodes) > max_nodes:
            raise TooLargeError(f"the document has more than {max_nodes} values", place="body")
        return loader.construct_document(root)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(f"not valid YAML: {problem}", place=place) from None
    except RecursionError:
        raise InputError("the document is nested too deeply", place="body") from None
    finally:
        loader.dispose()


def shipped_scenarios() -> dict[str, Path]:
    """The scenarios in ``models/scenarios/`` by name (file name without its suffix)."""
    folder = models_dir() / "scenarios"
    files = sorted(p for p in folder.iterdir() if p.suffix in SCENARIO_SUFFIXES)
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
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)

    @app.exception_handler(InputError)
    async def on_input_error(_: Request, exc: InputError) -> JSONResponse:
        return error_answer(input_error_status(exc), exc)

    @app.exception_handler(RequestValidationError)
    async def on_validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        return validation_error_answer(exc)

    @app.exception_handler(BodyTooLarge)
    async def on_body_too_large(_: Request, exc: BodyTooLarge) -> JSONResponse:
        return error_answer(413, InputError(exc.detail, place="body"))

    @app.post("/api/check", tags=["rules"], responses=ERROR_ANSWERS)
    def check(scenario: ScenarioBody) -> dict[str, Any]:
        """Check the scenario's allocation (any leading part of it): `cfalloc check --json`."""
        reject_server_paths(scenario)
        return service.check_json(scenario)

    @app.post("/api/explain", tags=["rules"], responses=ERROR_ANSWERS)
    def explain(scenario: ScenarioBody) -> Any:
        """Narrate the procedure step by step: `cfalloc explain --json`."""
        ensure_solvable(scenario, settings)
        return service.explain_json(scenario)

    @app.post("/api/solve", tags=["odds"], responses=ERROR_ANSWERS)
    def solve(request: SolveRequest) -> dict[str, Any]:
        """The best line of play for one side: `cfalloc solve --side S --objective O --json`."""
        ensure_solvable(request.scenario, settings)
        return service.solve_json(
            request.scenario,
            request.side,
            request.objective,
            time_limit=settings.solve_time_limit,
        )

    @app.post("/api/simulate", tags=["odds"], responses=ERROR_ANSWERS)
    def simulate(request: SimulateRequest) -> dict[str, Any]:
        """Roll the dice for a complete allocation: `cfalloc simulate --seed N --json`."""
        reject_server_paths(request.scenario)
        return service.simulate_json(request.scenario, request.seed)

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
        data = parse_text(text, settings.max_yaml_nodes)
        if not isinstance(data, dict):
            raise InputError("a scenario must be a mapping with `defender` and `attacker`")
        return data

    @app.post("/api/forces", tags=["scenarios"], responses=ERROR_ANSWERS)
    def forces(scenario: ScenarioBody) -> dict[str, Any]:
        """The building and both sides' stands (organisations expanded): what the page draws."""
        battle = load_checked_battle(scenario)
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
            data = read_data(path)
            listing.append({"name": name, "title": data.get("title"), "expect": data.get("expect")})
        return listing

    @app.get("/api/scenarios/{name}", tags=["scenarios"], responses={404: {"model": ErrorAnswer}})
    def scenario(name: str) -> dict[str, Any]:
        """One shipped scenario's data, as JSON."""
        path = shipped_scenarios().get(name)
        if path is None:
            raise ScenarioNotFound(f"no shipped scenario '{name}'", place="name")
        return read_data(path)

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
