"""The heavy work of the endpoints, off the event loop: a bounded pool with a bounded queue.

Reading a body, validating a scenario and computing an answer are CPU-bound; they run in
``workers`` threads, with at most ``queue`` more jobs waiting. Beyond that a request is refused
at once with 429 and ``Retry-After``, so that the event loop, and with it the page and its files,
keeps answering however many heavy requests arrive.

A thread cannot be stopped from outside, so every job runs under a budget of its own that the
pool can cancel (:func:`~allocator.core.budget.nested_in`): the budgets of the work are nested
in it. The job ends at its time limit (its own budget's deadline, model building included), and
as soon as its client has gone: the endpoint's wait looks every ``DISCONNECT_POLL_SECONDS`` for
the disconnection, then cancels the budget (a search checks it every few milliseconds; a solver
search is stopped at once), drops a job still waiting and answers 499, which nobody receives.
A job still running ``OVERRUN_SECONDS`` past its time limit is cancelled as well.

A router of endpoints uses :class:`ApiRoute`, so that its JSON bodies are read by the shared
reader within the limits (and in the pool), and ``Work`` to reach the pool and the settings::

    router = APIRouter(prefix="/api", route_class=ApiRoute)

    @router.post("/thing")
    async def thing(body: ThingRequest, work: Work) -> ThingAnswer:
        return await work.run(lambda: compute(body))

>>> import asyncio
>>> pool = WorkPool(workers=1, queue=0, retry_after=1)
>>> asyncio.run(pool.run(lambda: 6 * 7))
42
>>> pool.close()
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from math import ceil
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from fastapi.routing import APIRoute
from starlette.responses import Response

from allocator.core.budget import Budget, nested_in
from allocator.core.errors import InputError, LimitError
from allocator.core.reader import read_bytes
from allocator.web.errors import CLIENT_GONE_STATUS, Refusal
from allocator.web.settings import WebSettings

T = TypeVar("T")

#: How often an endpoint waiting for its job looks whether its client has gone.
DISCONNECT_POLL_SECONDS = 0.1
#: How long past its time limit (from when a worker took it) a job may run before the pool
#: cancels it: its answer is built and checked once the search's deadline has passed.
OVERRUN_SECONDS = 0.5


class WorkPool:
    """``workers`` threads and at most ``queue`` jobs waiting for one; beyond, 429."""

    def __init__(self, workers: int, queue: int, retry_after: int) -> None:
        self.workers = workers
        self.capacity = workers + queue
        self.retry_after = retry_after
        self._lock = threading.Lock()
        self._admitted = 0
        self._running = 0
        self._executor: ThreadPoolExecutor | None = None

    @property
    def admitted(self) -> int:
        """Jobs running or waiting now."""
        return self._admitted

    @property
    def running(self) -> int:
        """Jobs a worker is busy with now (0: the pool is idle)."""
        return self._running

    def _release(self, _: Future[Any] | None = None) -> None:
        with self._lock:
            self._admitted -= 1

    def _admit(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._admitted >= self.capacity:
                raise Refusal(
                    429,
                    InputError(
                        f"the server is busy ({self._admitted} answers are being computed or "
                        f"wait for a worker); try again in {self.retry_after} s",
                        place="server",
                    ),
                    {"Retry-After": str(self.retry_after)},
                )
            self._admitted += 1
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="cfalloc")
            return self._executor

    def _working(self, job: Callable[[], T], budget: Budget, started: list[float]) -> T:
        started.append(time.monotonic())
        with self._lock:
            self._running += 1
        try:
            with nested_in(budget):
                return job()
        finally:
            with self._lock:
                self._running -= 1

    async def run(
        self,
        job: Callable[[], T],
        gone: Callable[[], Awaitable[bool]] | None = None,
        seconds: float | None = None,
    ) -> T:
        """``job()`` in a worker thread, under a budget of its own; 429 at once when the pool and
        its queue are full.

        While it runs, ``gone()`` (a request's ``is_disconnected``) is looked at every
        ``DISCONNECT_POLL_SECONDS``; once true, or when the wait itself is cancelled, the job's
        budget is cancelled, a job still waiting is dropped, and the wait ends (with a 499
        refusal when the client has gone). The budget is cancelled too once the job has run
        ``OVERRUN_SECONDS`` past its time limit ``seconds``, should some stage of it keep a
        budget of its own beyond the limit. A job counts against the queue until it has ended.
        """
        executor = self._admit()
        budget = Budget(None)
        started: list[float] = []
        try:
            future = executor.submit(self._working, job, budget, started)
        except BaseException:
            self._release()
            raise
        future.add_done_callback(self._release)
        answer = asyncio.wrap_future(future)
        try:
            while (gone is not None or seconds is not None) and not answer.done():
                await asyncio.wait([answer], timeout=DISCONNECT_POLL_SECONDS)
                if answer.done():
                    break
                if gone is not None and await gone():
                    raise Refusal(
                        CLIENT_GONE_STATUS,
                        InputError("the client went away before its answer", place="connection"),
                    )
                limit = None if seconds is None or not started else started[0] + seconds
                if limit is not None and time.monotonic() > limit + OVERRUN_SECONDS:
                    budget.cancel()
            return await answer
        except BaseException:
            budget.cancel()
            answer.cancel()  # drops a waiting job; a late result or error is then ignored
            raise

    def close(self) -> None:
        """Drop the waiting jobs; running ones end within their time limit."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


class Served:
    """What the endpoints share: the settings, and the pool their work runs in."""

    def __init__(self, settings: WebSettings) -> None:
        self.settings = settings
        self.pool = WorkPool(
            settings.workers, settings.queue, retry_after=ceil(settings.solve_time_limit)
        )


def served(request: Request) -> Served:
    state: Served = request.app.state.served
    return state


class Errand:
    """What one request's endpoint reaches: the settings, and :meth:`run` for its work."""

    def __init__(self, request: Request) -> None:
        self.request = request
        self.served = served(request)
        self.settings = self.served.settings

    async def run(self, job: Callable[[], T]) -> T:
        """``job()`` in the pool, stopped once this request's client has gone, or just past
        the server's time limit."""
        return await self.served.pool.run(
            job, gone=self.request.is_disconnected, seconds=self.settings.solve_time_limit
        )


#: The dependency of an endpoint that needs the pool or the settings.
Work = Annotated[Errand, Depends(Errand)]


def is_json(content_type: str | None) -> bool:
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


class ReaderRequest(Request):
    """A request whose JSON body is read by the shared reader, within the limits, in the pool
    (a duplicate key, a non-finite number, an unpaired surrogate or a deep nesting is refused)."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            work = served(self)
            read = partial(read_bytes, body, syntax="json", limits=work.settings.limits)
            try:
                self._json = await work.pool.run(read, gone=self.is_disconnected)
            except InputError as error:
                status = 413 if isinstance(error, LimitError) else 400
                raise Refusal(status, error.located(None, "body")) from None
        return self._json


class ApiRoute(APIRoute):
    """An endpoint whose JSON body must be ``application/json`` (415 otherwise) and is read by
    :class:`ReaderRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()
        takes_json = self.body_field is not None

        async def route(request: Request) -> Response:
            if takes_json and not is_json(request.headers.get("content-type")):
                problem = "send the body as JSON, with the header Content-Type: application/json"
                raise Refusal(415, InputError(problem, place="Content-Type header"))
            return await handle(ReaderRequest(request.scope, request.receive))

        return route
