"""The contracts the hostile-input tests assert, in one place: the command line's (exit codes,
one line per problem, no traceback, no control or invisible characters) and the web API's (one
error form, a 4xx)."""

from __future__ import annotations

import json
import re
from typing import Any

from allocator.cli.console import SHOWN
from allocator.core.errors import ErrorAnswer
from allocator.core.text import INVISIBLE

#: C0 (but tab and newline), DEL and C1 characters: none may reach the terminal from an input.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: Characters a terminal shows as nothing or obeys: none may reach it from an input either.
INVISIBLE_CHARACTER = re.compile(f"[{INVISIBLE}]")
OK, RULES_BROKEN, BAD_INPUT, NO_ANSWER = 0, 1, 2, 3


def assert_clean(result: Any) -> None:
    """No traceback and no control or invisible character, on either stream."""
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream, stream
        assert not CONTROL.search(stream), repr(CONTROL.search(stream))
        assert not INVISIBLE_CHARACTER.search(stream), repr(INVISIBLE_CHARACTER.search(stream))


def refusal(result: Any, code: int = BAD_INPUT) -> str:
    """Assert a refusal with exit ``code``: its first few problems on stderr, one ``error:``
    line each, and nothing on stdout but, with ``--json``, the error JSON listing them all;
    return the first line."""
    assert result.exit_code == code, (result.exit_code, result.output)
    lines = result.stderr.strip().splitlines()
    assert 1 <= len(lines) <= SHOWN, result.stderr
    assert all(line.startswith("error: ") for line in lines), result.stderr
    if result.stdout:
        answer = json.loads(result.stdout)
        ErrorAnswer.model_validate(answer)
        assert answer["errors"][0] == answer["error"] and len(answer["errors"]) >= len(lines)
    assert_clean(result)
    line: str = lines[0]
    return line


def refused(result: Any, *needles: str) -> str:
    """Assert the one-line refusal with exit 2 holding every one of ``needles``."""
    line = refusal(result)
    for needle in needles:
        assert needle in line, line
    return line


def answered(result: Any, *, check: bool = False) -> None:
    """Assert an answer (exit 0, or 1 for ``check``), or one line saying there is none in time."""
    if result.exit_code == NO_ANSWER:
        assert "no answer within the time limit" in refusal(result, NO_ANSWER)
        return
    assert result.exit_code in ((OK, RULES_BROKEN) if check else (OK,)), result.output
    assert result.stdout and result.stderr == "", result.stderr
    assert_clean(result)


def assert_error(response: Any, status: int, place: str | None = None) -> dict[str, Any]:
    """A 4xx answer of the web API in its one form, ``{"error": {...}, "errors": [...]}``:
    return the first problem."""
    assert response.status_code == status, response.text
    answer = response.json()
    ErrorAnswer.model_validate(answer)
    error: dict[str, Any] = answer["error"]
    assert answer["errors"][0] == error and error["problem"]
    if place is not None:
        assert error["place"] == place
    return error
