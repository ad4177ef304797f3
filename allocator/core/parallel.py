"""Many independent tasks at once: joblib (loky) on this machine, or an existing Dask cluster.

cfalloc has no pool of its own. :func:`run_unordered` hands the tasks to joblib's loky backend
(a process per core; ``jobs=1`` runs them one after another in this process) or to the workers
of a running Dask cluster (``dask.distributed``'s ``Client.map`` and ``as_completed``), and
yields each result as soon as it is done, in whatever order they finish: a task's result must
say which task it was. Both libraries are the optional extra ``sweep``, imported when used.

>>> sorted(run_unordered(abs, [-2, 1, -3], jobs=1))
[1, 2, 3]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Literal, TypeVar

from allocator.core.errors import USAGE, InputError
from allocator.core.optional import optional_module
from allocator.core.reader import excerpt

T = TypeVar("T")
R = TypeVar("R")
Backend = Literal["loky", "dask"]
BACKENDS: tuple[Backend, ...] = ("loky", "dask")
#: The schemes of a Dask scheduler's address: on a network, or within this process (a
#: LocalCluster of threads); not ucx, which needs a library of its own.
SCHEMES = ("tcp", "tls", "ws", "wss", "inproc")
#: A host's name or address (an IPv6 one without its brackets, maybe with its zone).
HOST = re.compile(r"[A-Za-z0-9._\-:%]{1,253}")
#: Seconds to wait for a Dask scheduler to answer before saying that it cannot be reached.
CONNECT_SECONDS = 10


def require_backend(backend: Backend, scheduler: str | None = None) -> None:
    """Check ``backend`` and its ``scheduler`` and import their libraries now, so that a
    missing extra or a bad address is said before any work.

    Raises
    ------
    InputError
        When the extra ``sweep`` is not installed, or the Dask scheduler's address is missing,
        of no scheme of :data:`SCHEMES`, without a host and a port, or a TLS one without Dask's
        TLS settings.
    """
    if backend == "loky":
        optional_module("joblib", "cfalloc sweep", "sweep")
        return
    optional_module("dask.distributed", "--backend dask", "sweep")
    if scheduler is None:
        raise InputError(
            "--backend dask needs --scheduler, the address of a running Dask scheduler "
            "(tcp://HOST:8786)",
            place="--scheduler",
            kind=USAGE,
        )
    from distributed.comm.addressing import parse_address

    scheme, location = parse_address(scheduler)
    if scheme not in SCHEMES:
        raise InputError(
            f"{excerpt(scheduler, 60)} is not the address of a Dask scheduler: give "
            f"{' or '.join(f'{known}://...' for known in SCHEMES)}, such as tcp://HOST:8786",
            place="--scheduler",
            kind=USAGE,
        )
    # Said here, not by the client: a client that cannot start waits 20 s at exit to close and
    # then prints a traceback.
    problem = _address_problem(scheme, location)
    if problem:
        raise InputError(
            f"{excerpt(scheduler, 60)} is not the address of a Dask scheduler: {problem}",
            place="--scheduler",
            kind=USAGE,
        )


def _address_problem(scheme: str, location: str) -> str | None:
    """What is wrong with a scheduler's host and port (None: nothing seen before connecting)."""
    from distributed.comm.addressing import parse_host_port
    from distributed.comm.inproc import global_manager

    if scheme == "inproc":
        if global_manager.listeners.get(location) is None:
            return "no scheduler of this process has it; give a cluster's, such as tcp://HOST:8786"
        return None
    try:
        host, port = parse_host_port(location)
    except ValueError:
        return "give a host and a port, such as tcp://HOST:8786 (an IPv6 host in brackets)"
    if not HOST.fullmatch(host) or not 0 < int(port) < 65536:
        return "give a host and a port from 1 to 65535, such as tcp://HOST:8786"
    if scheme in ("tls", "wss") and _client_tls() is None:
        return (
            f"{scheme}:// needs Dask's TLS settings (distributed.comm.tls in its configuration), "
            "and none are set"
        )
    return None


def _client_tls() -> object:
    """The TLS context a Dask client would connect with (None: Dask's configuration has none)."""
    from distributed.security import Security

    security = Security()  # type: ignore[no-untyped-call]
    return security.get_connection_args("client")["ssl_context"]  # type: ignore[no-untyped-call]


def local_cores() -> int:
    """The cores this process may use (joblib's count: affinity and container limits too)."""
    joblib = optional_module("joblib", "cfalloc sweep", "sweep")
    cores: int = joblib.cpu_count()
    return cores


def run_unordered(
    task: Callable[[T], R],
    items: Sequence[T],
    *,
    backend: Backend = "loky",
    jobs: int | None = None,
    scheduler: str | None = None,
) -> Iterator[R]:
    """``task(item)`` for every item, each result yielded as soon as it is done.

    Parameters
    ----------
    task : callable
        A function of the module level (it is pickled to the workers).
    items : sequence
        One task each.
    backend : {"loky", "dask"}
        joblib's processes on this machine, or a Dask cluster's workers.
    jobs : int or None
        With ``loky``: the tasks run at once (None: one per core; 1: one after another in this
        process).
    scheduler : str or None
        With ``dask``: the address of the cluster's scheduler (``tcp://host:8786``).

    Yields
    ------
    The results, in the order the tasks finish.

    Raises
    ------
    InputError
        A missing extra, or a Dask scheduler that cannot be reached. An exception of a task
        is raised again here.
    """
    require_backend(backend, scheduler)
    if backend == "dask":
        assert scheduler is not None  # require_backend says so
        yield from _on_dask(task, items, scheduler)
        return
    joblib = optional_module("joblib", "cfalloc sweep", "sweep")
    parallel = joblib.Parallel(n_jobs=jobs or -1, backend="loky", return_as="generator_unordered")
    yield from parallel(joblib.delayed(task)(item) for item in items)


def _on_dask(task: Callable[[T], R], items: Sequence[T], scheduler: str) -> Iterator[R]:
    distributed = optional_module("dask.distributed", "--backend dask", "sweep")
    try:
        client = distributed.Client(scheduler, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, ValueError, TypeError) as exc:
        raise InputError(
            f"cannot reach the Dask scheduler at {excerpt(scheduler, 60)} ({exc}); start one with "
            "`dask scheduler` and give its address",
            place="--scheduler",
            kind=USAGE,
        ) from None
    futures = []
    try:
        futures = client.map(task, list(items), pure=False)
        for future in distributed.as_completed(futures, loop=client.loop):
            yield future.result()
    finally:
        client.cancel(futures)
        client.close()
