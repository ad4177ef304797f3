"""The one Console pair and the one error boundary of every command.

Exit codes are a contract (also in ``cfalloc --help`` and the README):

* 0: success (for ``check``: the allocation is legal);
* 1: ``check`` only: rules are broken;
* 2: bad input, or an input over a limit;
* 3: no answer within the time limit;
* 4: an internal error (a defect in cfalloc; ``CFALLOC_DEBUG=1`` shows the traceback).
"""

from __future__ import annotations

import json
import os
import re
import sys
import traceback
from collections.abc import Callable
from typing import Any, NoReturn

import typer
from rich.console import Console

from allocator.cli.render import safe
from allocator.core.errors import InputError, TimeLimitError

OK, RULES_BROKEN, BAD_INPUT, NO_ANSWER, INTERNAL = 0, 1, 2, 3, 4
EXIT_CODES_HELP = (
    "Exit codes: 0 success (check: legal), 1 rules broken (check only), 2 bad input or over a "
    "limit, 3 no answer within the time limit, 4 internal error."
)

out = Console(highlight=False, emoji=False)
err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


_C1 = re.compile("[\x7f-\x9f]")


def print_json(data: Any) -> None:
    """Machine-readable output: the same bytes for the same input, control characters escaped
    (json escapes C0 ones; DEL and the C1 ones, which some terminals obey, are escaped here)."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    sys.stdout.write(_C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n")


def report(message: str) -> None:
    """The one line of a refusal or a failure, on stderr."""
    err.print(f"[bold red]error:[/] {safe(message)}")


def fail(code: int, message: str) -> NoReturn:
    report(message)
    raise typer.Exit(code)


def guarded(action: Callable[[], int]) -> None:
    """Run a command body: every failure is one line on stderr and its exit code."""
    try:
        code = action()
    except InputError as exc:
        fail(BAD_INPUT, str(exc))
    except TimeLimitError as exc:
        fail(NO_ANSWER, str(exc))
    except (typer.Exit, typer.Abort, KeyboardInterrupt):
        raise
    except Exception as exc:  # the boundary: a defect must not look like a verdict
        if os.environ.get("CFALLOC_DEBUG"):
            traceback.print_exc()
        fail(
            INTERNAL,
            f"internal error ({type(exc).__name__}): this is a defect in cfalloc; please report "
            "it to its maintainers with the file that caused it (CFALLOC_DEBUG=1 shows the "
            "details)",
        )
    raise typer.Exit(code)
