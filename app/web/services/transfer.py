"""Imports and exports of a player's games: seconds of work, done in a worker process.

An export of 8,000 games is seconds of Python, and an import file is whatever a client sent: run
on the event loop it froze every request of the process; run on a request thread it held the GIL
and one of the two database threads everyone's moves need. So ``app.web.services.gamesfile``'s
functions run in one worker process per web process (``Transfers``): the web process only waits
on a future, holding no thread, no GIL and no database connection meanwhile.

Who may wait for it is bounded before any work is done: one transfer at a time per player,
``PER_ADDRESS`` per client address (so fresh cookies buy nothing, while a shared address is
not punished for one player's export), and ``WAITING`` in all per process; past that the answer
is 429 with a ``Retry-After``.

An export is written whole to a temporary file before its answer starts (the connection was
released when the file was done), then sent from the file with its length, so a client that
stops reading holds a file descriptor and nothing else, until the send deadline
(``app.web.core.security.SendDeadline``) cuts it off.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from fastapi import Request

from app.web.core import metrics
from app.web.core.errors import PageError
from app.web.core.i18n import gettext as _

log = logging.getLogger("pyramid.transfer")
T = TypeVar("T")

WAITING = 8
"""Transfers queued or running per process before the answer is "busy"."""
PER_ADDRESS = 2
"""Transfers one client address may have queued or running at once."""
RETRY_AFTER = 5
"""Seconds a refused transfer is told to wait, for each transfer ahead of it."""
JOBS_PER_WORKER = 100
"""Jobs before the worker process is replaced: whatever a crafted file made it allocate is
given back to the system."""


class Transfers:
    """The worker process and who may queue for it (one per web process)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._players: set[str] = set()
        self._addresses: Counter[str] = Counter()
        self._jobs: set[asyncio.Task] = set()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fork of a process with threads (the web's) may inherit held locks.
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                max_tasks_per_child=JOBS_PER_WORKER)
        return self._pool

    def busy(self) -> int:
        return len(self._players)

    @contextlib.contextmanager
    def admitted(self, player_id: str, address: str):
        """A place in the queue for this player and address, or 429."""
        queued = self.busy()
        if player_id in self._players:
            raise PageError(429, _("Still working on your last one"),
                            _("Your previous import or export is still being made: wait for "
                              "it, then try again."),
                            headers={"Retry-After": str(RETRY_AFTER)})
        if self._addresses[address] >= PER_ADDRESS or queued >= WAITING:
            raise PageError(429, _("Busy right now"),
                            _("Many imports and exports are being made right now: please try "
                              "again in a few seconds."),
                            headers={"Retry-After": str(RETRY_AFTER * (queued + 1))})
        self._players.add(player_id)
        self._addresses[address] += 1
        try:
            yield
        finally:
            self._players.discard(player_id)
            self._addresses[address] -= 1
            if self._addresses[address] <= 0:
                del self._addresses[address]

    def admit(self, request: Request, player_id: str, kind: str) -> contextlib.ExitStack:
        """A place in the queue (or 429), held until the returned stack is closed."""
        address = request.client.host if request.client else "unknown"
        admission = contextlib.ExitStack()
        try:
            admission.enter_context(self.admitted(player_id, address))
        except PageError:
            metrics.transfers.labels(kind, "refused").inc()
            raise
        return admission

    async def run(self, request: Request, player_id: str, work: Callable[..., T],
                  *args: Any) -> T:
        """``work(*args)`` in the worker process, once admitted (counted in the metrics by
        kind: ``import`` or ``export``, from the work's name)."""
        kind = "import" if "import" in work.__name__ else "export"
        with self.admit(request, player_id, kind):
            return await self._work(kind, work, *args)

    def launch(self, admission: contextlib.ExitStack, work: Callable[..., T], *args: Any,
               done: Callable[[T | None], Awaitable[None]]) -> None:
        """``work(*args)`` in the worker process in the background, its place in the queue
        (``admit``) held until it ends; then ``done(result)`` (None when it failed). An
        import answers at once this way: a slow one never outlasts a proxy's timeout."""
        kind = "import" if "import" in work.__name__ else "export"

        async def job() -> None:
            result: T | None = None
            with admission:
                try:
                    result = await self._work(kind, work, *args)
                except Exception:
                    log.exception("A %s in the background failed", kind)
            await done(result)

        task = asyncio.get_running_loop().create_task(job())
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    async def _work(self, kind: str, work: Callable[..., T], *args: Any) -> T:
        outcome, began = "failed", time.perf_counter()
        metrics.transfers_in_progress.inc()
        try:
            done = await asyncio.get_running_loop().run_in_executor(
                self._executor(), work, *args)
            outcome = "done"
            return done
        except BrokenProcessPool:
            log.error("The transfer worker process died; starting a new one")
            self.close()
            raise PageError(503, _("Not available right now"),
                            _("That could not be finished: please try again."),
                            headers={"Retry-After": str(RETRY_AFTER)}) from None
        finally:
            metrics.transfers_in_progress.dec()
            metrics.transfers.labels(kind, outcome).inc()
            metrics.transfer_duration.labels(kind).observe(time.perf_counter() - began)

    async def settled(self) -> None:
        """Wait for the transfers running in the background (the tests, a clean stop)."""
        while self._jobs:
            await asyncio.gather(*list(self._jobs), return_exceptions=True)

    def close(self) -> None:
        """Stop the worker process with the web process. ``shutdown(wait=False)`` alone left
        it behind: the pool's own thread, which tells it to stop, dies with the web process
        first, and the worker went on with its job, then waited for the next one for ever
        (bench/hostile.py found such orphans minutes after their server had stopped, one
        still importing). A transfer cut off here is one whose client is gone with the
        server: an import stores in pieces, each whole or not at all."""
        pool, self._pool = self._pool, None
        if pool is not None:
            workers = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.join(timeout=5)
