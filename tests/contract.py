"""The contracts the hostile-input tests assert, in one place: the command line's (exit codes,
one line, no traceback, no control characters) and the web API's (one error form, a 4xx)."""

from __future__ import annotations

import re
from typing import Any

#: C0 (but tab and newline), DEL and C1 characters: none may reach the terminal from an input.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
OK, RULES_BROKEN, BAD_INPUT, NO_ANSWER = 0, 1, 2, 3


def assert_clean(result: Any) -> None:
    """No traceback and no control character, on either stream."""
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream, stream
        assert not CONTROL.search(stream), repr(CONTROL.search(stream))


def refusal(result: Any, code: int = BAD_INPUT) -> str:
    """Assert a refusal with exit ``code``: nothing on stdout, one ``error:`` line on stderr;
    return that line."""
    assert result.exit_code == code, (result.exit_code, result.output)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
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
    """A 4xx answer of the web API in its one form, ``{"error": {file, place, problem}}``."""
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert set(error) == {"file", "place", "problem"} and error["problem"]
    if place is not None:
        assert error["place"] == place
    return error
