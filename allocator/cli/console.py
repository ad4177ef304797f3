"""The one Console pair and the error boundaries of every command.

Exit codes are a contract (also in ``cfalloc --help`` and the README):

* 0: success (for ``check``: the allocation is legal);
* 1: ``check`` only: rules are broken;
* 2: bad input, or an input over a limit (a bad option too);
* 3: no answer within the time limit;
* 4: an internal error (a defect in cfalloc; ``CFALLOC_DEBUG=1`` shows the traceback);
* 5: the output could not be written (a full disk);
* 130: interrupted (Ctrl+C);
* 141: the output's reader went away (``cfalloc ... | head``), as for a program that SIGPIPE
  ends.

Two boundaries turn exceptions into these codes. :func:`guarded` runs each command's body: bad
input, the time limit and defects. :class:`GuardedGroup` runs the whole command line: a usage
error (an unknown option, a bad value), Ctrl+C, and output that cannot be written. Every
problem is a line ``error: file: place: problem`` on stderr, the first few of them; with
``--json`` the :class:`~allocator.core.errors.ErrorAnswer` listing them all is printed on
stdout too.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import typer
from rich.console import Console
from typer.core import TyperGroup

from allocator.cli.render import safe
from allocator.core import budget
from allocator.core.budget import counting_from
from allocator.core.errors import (
    INTERNAL,
    TIME_LIMIT,
    USAGE,
    InputError,
    TimeLimitError,
    error_answer,
)
from allocator.core.text import INVISIBLE

OK, RULES_BROKEN, BAD_INPUT, NO_ANSWER, DEFECT, NOT_WRITTEN = 0, 1, 2, 3, 4, 5
INTERRUPTED, BROKEN_PIPE = 130, 141
EXIT_CODES_HELP = (
    "Exit codes: 0 success (check: legal), 1 rules broken (check only), 2 bad input or over a "
    "limit, 3 no answer within the time limit, 4 internal error, 5 the output could not be "
    "written (a full disk), 130 interrupted (Ctrl+C), 141 the output's reader went away "
    "(| head)."
)
#: The problems of one refusal that the command line shows; --json lists them all.
SHOWN = 3
#: The exceptions of the click that Typer runs on: click's own, or from Typer 0.22 on its copy.
_click = sys.modules[typer.BadParameter.__module__]
#: The errors of writing that mean the output cannot be written: no reader, or no room.
_UNWRITABLE = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


class _Console(Console):
    """A rich Console that leaves a broken pipe to the boundary (rich's own ends with exit 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, "the output's reader went away")


out = _Console(highlight=False, emoji=False)
err = _Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


#: What JSON leaves as it is but a terminal may obey or hide: DEL, C1 controls and invisibles.
_UNSAFE_IN_JSON = re.compile(f"[\x7f-\x9f{INVISIBLE}]")


def print_json(data: Any) -> None:
    """Machine-readable output: the same bytes for the same input, control characters escaped
    (json escapes C0 ones; DEL, the C1 ones, which some terminals obey, and the invisible
    format characters, line separators and direction controls are escaped here)."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    sys.stdout.write(_UNSAFE_IN_JSON.sub(lambda m: json.dumps(m.group())[1:-1], text) + "\n")


def report(message: str) -> None:
    """One line of a refusal or a failure, on stderr."""
    err.print(f"[bold red]error:[/] {safe(message)}")


def say(error: InputError, as_json: bool = False) -> None:
    """Every problem of ``error``: the first :data:`SHOWN` on stderr, and with ``as_json`` all
    of them in the error JSON on stdout."""
    if as_json:
        print_json(error_answer(error).model_dump(mode="json"))
    problems = error.problems()
    lines = [problem.line() for problem in problems[:SHOWN]]
    hidden = len(problems) - len(lines)
    if hidden:
        lines[-1] += f" (and {hidden} more: {'the JSON' if as_json else '--json'} lists them)"
    for line in lines:
        report(line)


def refuse(code: int, error: InputError, as_json: bool = False) -> NoReturn:
    """Say every problem of ``error`` (:func:`say`) and exit with ``code``."""
    say(error, as_json)
    raise typer.Exit(code)


def _defect(exc: BaseException) -> InputError:
    if os.environ.get("CFALLOC_DEBUG"):
        traceback.print_exception(exc)
    return InputError(
        f"internal error ({type(exc).__name__}): this is a defect in cfalloc; please report it "
        "to its maintainers with the file that caused it (CFALLOC_DEBUG=1 shows the details)",
        kind=INTERNAL,
    )


def unwritable(exc: OSError) -> bool:
    """Whether ``exc`` says that the output cannot be written (no reader, or no room)."""
    return exc.errno == errno.EPIPE or exc.errno in _UNWRITABLE


def guarded(action: Callable[[], int], as_json: bool = False, timed: bool = False) -> None:
    """Run a command body: every failure is its problems on stderr (and with ``as_json`` the
    error JSON on stdout) and its exit code. Output that cannot be written and Ctrl+C are left
    to :class:`GuardedGroup`. ``timed``: the body's answer is given ``--time-limit``, which
    counts from the process's start (:data:`allocator.core.budget.command_started`)."""
    try:
        with counting_from(budget.command_started if timed else None):
            code = action()
    except InputError as exc:
        refuse(BAD_INPUT, exc, as_json)
    except TimeLimitError as exc:
        refuse(NO_ANSWER, InputError(str(exc), kind=TIME_LIMIT), as_json)
    except (typer.Exit, typer.Abort, KeyboardInterrupt):
        raise
    except OSError as exc:
        if unwritable(exc):
            raise
        refuse(DEFECT, _defect(exc), as_json)
    except Exception as exc:  # the boundary: a defect must not look like a verdict
        refuse(DEFECT, _defect(exc), as_json)
    raise typer.Exit(code)


def usage_error(exc: Any) -> InputError:
    """A usage error of the command line in one line: ``--side: 'sideways' is not one of
    attacker, defender``; ``no such option: --sidee (did you mean --side?)``."""
    command = exc.ctx.command_path if exc.ctx is not None else "cfalloc"
    see = f"see {command} --help"
    if isinstance(exc, _click.NoSuchOption):
        near = f" (did you mean {' or '.join(exc.possibilities)}?)" if exc.possibilities else ""
        return InputError(f"no such option: {exc.option_name}{near}; {see}", kind=USAGE)
    if isinstance(exc, _click.BadParameter) and not isinstance(exc, _click.MissingParameter):
        problem = exc.message.removeprefix("Value error, ").rstrip(".")
        listed = re.search(r" is not one of (.*)$", problem)
        if listed:  # the choices as the help lists them, without quotes
            problem = problem[: listed.start(1)] + listed.group(1).replace("'", "")
        return InputError(problem, place=_parameter(exc.param), kind=USAGE)
    message = exc.format_message().rstrip(".")
    return InputError(f"{message[:1].lower()}{message[1:]}; {see}", kind=USAGE)


def _parameter(param: Any) -> str | None:
    """How the command line writes a parameter: its longest flag, or an argument's name."""
    if param is None:
        return None
    flags: list[str] = [*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ())]
    dashed = [flag for flag in flags if flag.startswith("-")]
    return max(dashed, key=len) if dashed else str(param.name).upper()


def _abandon_stdout() -> None:
    """Send whatever is left of the output to nowhere, so that leaving writes nothing more."""
    with contextlib.suppress(OSError, ValueError):  # no file behind it (a test's capture)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _not_written(exc: OSError) -> int:
    _abandon_stdout()
    if exc.errno == errno.EPIPE:
        return BROKEN_PIPE
    with contextlib.suppress(OSError):  # stderr may be full too
        report(f"the output could not be written: {exc.strerror or exc}")
    return NOT_WRITTEN


class GuardedGroup(TyperGroup):
    """The ``cfalloc`` group, run inside the outer boundary: a usage error is one line (exit
    2), Ctrl+C exit 130 without a word, and output that cannot be written exit 141 (its reader
    went away) or 5 (no room), with no traceback."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> int:
        given = sys.argv[1:] if args is None else list(args)
        try:
            code = self._invoke(given, prog_name or "cfalloc", extra)
            sys.stdout.flush()  # here, so that a full disk is found before leaving
        except OSError as exc:
            if not unwritable(exc):
                raise
            code = _not_written(exc)
        if standalone_mode:
            sys.exit(code)
        return code

    def _invoke(self, given: list[str], prog_name: str, extra: dict[str, Any]) -> int:
        try:
            with self.make_context(prog_name, given, **extra) as ctx:
                self.invoke(ctx)
        except typer.Exit as exc:
            code: int = exc.exit_code
            return code
        except _click.NoArgsIsHelpError as exc:
            exc.show()
            return int(exc.exit_code)
        except _click.UsageError as exc:
            say(usage_error(exc), "--json" in given)
            return BAD_INPUT
        except _click.ClickException as exc:
            say(InputError(exc.format_message()), "--json" in given)
            return int(exc.exit_code)
        except (KeyboardInterrupt, typer.Abort):
            return INTERRUPTED
        return OK
