"""A ``cfalloc`` command in a process of its own, measured by the operating system.

The peak resident size that ``wait4`` reports for a child is never less than what its parent
held when the child was started: Linux carries the parent's size over the fork, and at the exec
keeps the larger of it and the new program's own. A test run that has grown to a gibibyte would
so see every command it starts "take" a gibibyte. A small launcher (``python -I -S``, a few MB)
therefore starts the command, waits for it and reports the command's own figures; the command's
peak then counts the launcher's few MB at most.

>>> import subprocess, sys
>>> done = measured([sys.executable, "-c", "print('hi')"], stdout=subprocess.DEVNULL)
>>> done.code, 0 < done.seconds < 60, 0 < done.peak < 2**30
(0, True, True)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO

#: Starts argv[2:], waits for it and writes its exit code, wall seconds, CPU seconds and peak
#: kibibytes to the file argv[1].
_LAUNCHER = """
import os, sys, time
start = time.perf_counter()
child = os.fork()
if child == 0:
    try:
        os.execv(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(child, 0)
seconds = time.perf_counter() - start
with open(sys.argv[1], "w") as report:
    report.write(f"{os.waitstatus_to_exitcode(status)} {seconds} "
                 f"{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}")
"""


@dataclass(frozen=True)
class Measured:
    """A finished process: its exit code, wall and CPU seconds, and peak resident bytes."""

    code: int
    seconds: float
    cpu: float
    peak: int


def measured(
    command: list[str],
    stdout: IO[bytes] | int | None = None,
    stderr: IO[bytes] | int | None = None,
    hang_after: float = 600.0,
    env: dict[str, str] | None = None,
) -> Measured:
    """Run ``command`` to its end and measure it.

    Parameters
    ----------
    command
        The program and its arguments.
    stdout, stderr
        Where its output goes, as for :class:`subprocess.Popen`.
    hang_after
        Seconds after which it is killed: a guard against a hang, not a goal.
    env
        Its environment (default: this process's).

    Returns
    -------
    Measured
        Its exit code, wall and CPU seconds, and peak resident bytes.

    Raises
    ------
    RuntimeError
        When it was killed for hanging.
    """
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report"
        launcher = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _LAUNCHER, str(report), *command],
            stdout=stdout,
            stderr=stderr,
            env=env,
            start_new_session=True,
        )
        guard = threading.Timer(hang_after, os.killpg, (launcher.pid, signal.SIGKILL))
        guard.start()
        try:
            launcher.wait()
        finally:
            guard.cancel()
        if not report.exists():
            raise RuntimeError(f"{command} was killed after {hang_after} s")
        code, seconds, cpu, kib = report.read_text().split()
    return Measured(int(code), float(seconds), float(cpu), int(kib) * 1024)


def cfalloc(arguments: list[str]) -> list[str]:
    """The command line that runs ``cfalloc`` with ``arguments`` in this Python."""
    return [sys.executable, "-m", "allocator.cli", *arguments]
