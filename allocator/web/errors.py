"""Every refusal of the web API in one form: ``{"error": {...}, "errors": [{...}, ...]}``.

The body is an :class:`~allocator.core.errors.ErrorAnswer`, as ``cfalloc ... --json`` prints
it: ``error`` is the first problem, ``errors`` every problem found (the first one first), each
with its ``file``, ``place`` (the input's own keys), ``problem`` (words), ``kind`` (pydantic's
error type, or ``input``, ``limit``, ``time_limit``, ...) and, for an unknown key, the nearest
valid key as ``suggestion``. Bad input is a 4xx answer; only a defect in cfalloc is a 500
(logged by the server, and never reached by any client input: the tests send hostile requests
to show it).

| status | when |
|---|---|
| 400 | the body is not a readable JSON document; a Host header this server does not answer |
| 403 | a state-changing request from another site |
| 404 | no such page, endpoint or shipped scenario |
| 405 | a method the endpoint does not take |
| 408 | the body did not arrive within the server's time (a slow client) |
| 413 | the body or the scenario is over a limit (the limit is named) |
| 415 | a JSON endpoint sent something that is not ``application/json`` |
| 422 | the scenario or the request is not valid; or no answer within the time limit |
| 429 | every worker is busy and the queue is full, or the server or this client's network has |
|     | its most connections open (``Retry-After`` says when to try again) |
| 499 | the client went away before its answer: its work is stopped, and the answer, which |
|     | nobody receives, says so (never a 5xx, and nothing is logged) |

>>> error_status(LimitError("too many stands", limit="max_stands_per_side"))
413
>>> import json
>>> body = json.loads(error_response(422, InputError("bad \\udcff", place="title")).body)
>>> body["error"]["problem"], len(body["errors"])
('bad \\\\udcff', 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from allocator.core.errors import (
    INTERNAL,
    TIME_LIMIT,
    ErrorAnswer,
    InputError,
    LimitError,
    TimeLimitError,
    error_answer,
)
from allocator.core.validation import errors_to_input_error

#: The status of an answer that took longer than the server's time limit: the request was read
#: and understood, but this server does not answer it within its limit (as exit code 3).
TIME_LIMIT_STATUS = 422
#: The status of an answer whose client went away before it (nginx's "client closed request").
CLIENT_GONE_STATUS = 499


ERROR_ANSWERS: dict[int, dict[str, Any]] = {
    400: {
        "model": ErrorAnswer,
        "description": "The body is not a readable document, or the Host header names another "
        "server.",
    },
    403: {"model": ErrorAnswer, "description": "A request from another web site."},
    408: {"model": ErrorAnswer, "description": "The body came too slowly."},
    413: {"model": ErrorAnswer, "description": "The request or the scenario is over a limit."},
    415: {"model": ErrorAnswer, "description": "The body is not `application/json`."},
    422: {
        "model": ErrorAnswer,
        "description": "The scenario or the request is not valid, or no answer was found "
        "within the time limit.",
    },
    429: {
        "model": ErrorAnswer,
        "description": "Busy (the workers, or the connections of the server or of this "
        "client's network): try again after `Retry-After` seconds.",
    },
    404: {"model": ErrorAnswer, "description": "No shipped scenario of that name."},
}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of an endpoint."""
    return {status: ERROR_ANSWERS[status] for status in statuses}


#: What an endpoint that takes a JSON body may refuse.
JSON_REFUSALS = refusals(400, 403, 408, 413, 415, 422, 429)


class Refusal(HTTPException):
    """A request refused before its endpoint runs (raised in middleware, body reading, the pool)."""

    def __init__(self, status: int, error: InputError, headers: Mapping[str, str] | None = None):
        super().__init__(status, error.problem, headers)
        self.error = error


def _printable(text: str | None) -> str | None:
    """``text`` as UTF-8 can carry it (an unpaired surrogate becomes its escape)."""
    return None if text is None else text.encode("utf-8", "backslashreplace").decode("utf-8")


def error_response(
    status: int, error: InputError, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """The answer for ``error``: every problem's file, place and problem, always encodable."""
    answer = error_answer(error).model_dump(mode="json")
    for detail in (answer["error"], *answer["errors"]):
        for key in ("file", "place", "problem", "suggestion"):
            detail[key] = _printable(detail[key])
    return JSONResponse(answer, status_code=status, headers=headers)


class NotFound(InputError):
    """A name that is not among the shipped ones (404)."""


def error_status(error: InputError) -> int:
    if isinstance(error, LimitError):
        return 413
    return 404 if isinstance(error, NotFound) else 422


def validation_response(exc: RequestValidationError, body: type[BaseModel] | None) -> JSONResponse:
    """Every problem of a request that does not fit its model (the body's is ``body``, when it
    has one), in the one error form.

    The wrong values are quoted only as short excerpts, never echoed whole.
    """
    error = errors_to_input_error(list(exc.errors()), model=body, under=("body",))
    return error_response(422, error)


def body_model(request: Request) -> type[BaseModel] | None:
    """The model of the body the request's endpoint takes, if it takes one."""
    route = request.scope.get("route")
    field = route.body_field if isinstance(route, APIRoute) else None
    model = None if field is None else field.field_info.annotation
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def install_error_handlers(app: FastAPI) -> None:
    """Answer every refusal and every error of an endpoint in the one error form."""

    @app.exception_handler(InputError)
    async def on_input_error(_: Request, exc: InputError) -> JSONResponse:
        return error_response(error_status(exc), exc)

    @app.exception_handler(TimeLimitError)
    async def on_time_limit(_: Request, exc: TimeLimitError) -> JSONResponse:
        problem = (
            f"no answer within the time limit: {exc.what} was not found in {exc.seconds:g} s "
            "(this server's limit; `cfalloc serve --time-limit` sets it)"
        )
        error = InputError(problem, place="time limit", kind=TIME_LIMIT)
        return error_response(TIME_LIMIT_STATUS, error)

    @app.exception_handler(RequestValidationError)
    async def on_validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return validation_response(exc, body_model(request))

    @app.exception_handler(HTTPException)
    async def on_http_exception(request: Request, exc: HTTPException) -> JSONResponse:
        if isinstance(exc, Refusal):
            return error_response(exc.status_code, exc.error, exc.headers)
        if exc.status_code == 404:
            error = InputError(f"no such page or endpoint: {request.url.path[:200]}", place="path")
        elif exc.status_code == 405:
            error = InputError(f"{request.method[:20]} is not allowed here", place="method")
        else:
            error = InputError(str(exc.detail))
        return error_response(exc.status_code, error, exc.headers)

    @app.exception_handler(Exception)
    async def on_defect(_: Request, exc: Exception) -> JSONResponse:
        # Starlette raises the exception again once this answer is sent: the server logs it.
        problem = (
            f"internal error ({type(exc).__name__}): this is a defect in cfalloc; please report "
            "it to its maintainers with the request that caused it"
        )
        return error_response(500, InputError(problem, kind=INTERNAL))
