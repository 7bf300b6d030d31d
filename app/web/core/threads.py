"""The one way off the event loop: work that blocks (the database, the solver) runs on a worker
thread through ``in_thread``, so the event loop only ever parses, routes and answers.

Each hop to a thread costs CPU (a hand-over and a wake-up), more than a move's own work: so a
route gathers its database work into one hop (``in_one_hop``) rather than letting FastAPI give
every plain ``def`` dependency a hop of its own.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from anyio import CapacityLimiter, to_thread
from anyio.lowlevel import RunVar
from sqlalchemy.orm import Session

T = TypeVar("T")

LOWEST_PRIORITY = 19
"""The nice value of work that must never take the web's cores (searches, transfers)."""

DATABASE_THREADS = 2
"""Worker threads that may run database work at once, per process. FastAPI's
pool allows 40; but the work is mostly Python holding the GIL, SQLite takes one writer at a
time, and a local PostgreSQL answers in well under a millisecond, so more threads only take
turns at the GIL (and at the connection pool). Measured with bench/load.py: 4 threads cost
10-28% less CPU per move than 16 or 40 (50 players without pauses, SQLite and PostgreSQL);
with PostgreSQL, two processes and 100 players, 2 threads gave a lower move p99 than 4 in
four of five paired runs (medians 34.6 against 49.0 ms; both arms measured before the bench
client's own collector pauses were taken out of its figures)."""

_database_threads: RunVar[CapacityLimiter] = RunVar("pyramid_database_threads")


def _loop_limiter(var: RunVar[CapacityLimiter], size: int) -> CapacityLimiter:
    """The limiter kept in ``var`` for this event loop (one per loop, as anyio's own)."""
    try:
        return var.get()
    except LookupError:
        limiter = CapacityLimiter(size)
        var.set(limiter)
        return limiter


def database_threads() -> CapacityLimiter:
    """This event loop's limiter for ``in_one_hop``."""
    return _loop_limiter(_database_threads, DATABASE_THREADS)


BURST_THREADS = 1
"""Worker threads, per process, for the work a budget's burst lets through by the dozen at
once: a new game (an address may start 200 at once: a school, or a flood's first second) and
a hint's own database work (its checks and its count). In the database's threads, a read
asked then waited behind every one of them (forty first games at once: a bystander's read
51-357 ms, bench/hostile.py --settle 0). On a lane of their own they take their turns among
themselves, and a read waits for at most one of them, at the GIL (docs/holding-up.md)."""

_burst_threads: RunVar[CapacityLimiter] = RunVar("pyramid_burst_threads")


def burst_threads() -> CapacityLimiter:
    """This event loop's limiter for the writes a burst piles up (``BURST_THREADS``)."""
    return _loop_limiter(_burst_threads, BURST_THREADS)


RELEASE_THREADS = 2
"""Worker threads that give pooled connections back (``release_threads``)."""

_release_threads: RunVar[CapacityLimiter] = RunVar("pyramid_release_threads")


def release_threads() -> CapacityLimiter:
    """This event loop's limiter for closing a session that still holds a connection. Nothing
    else runs under it, so a close never waits behind work that is itself waiting for a
    connection: with the database's threads, or anyio's default ones that plain ``def`` routes
    run on, a crowd whose threads all waited on a full pool would hold every thread a close
    could take, and nobody would get a connection until the pool's timeout answered 503."""
    return _loop_limiter(_release_threads, RELEASE_THREADS)


async def in_thread(work: Callable[..., T], *args: Any,
                    limiter: CapacityLimiter | None = None) -> T:
    """``work(*args)`` on a worker thread, at most ``limiter``'s size at once (default: the
    database's threads)."""
    return await to_thread.run_sync(work, *args, limiter=limiter or database_threads())


async def in_one_hop(session: Session, work: Callable[[], T],
                     limiter: CapacityLimiter | None = None) -> T:
    """Run a route's database work on a worker thread (``limiter``'s, by default the
    database's) and close its session there as well, so that ``get_session`` has no
    transaction left to end on a hop of its own."""

    def run() -> T:
        try:
            return work()
        finally:
            session.close()

    return await in_thread(run, limiter=limiter)


def lower_own_priority() -> None:
    """Give the calling thread the lowest CPU priority (Linux: both are per thread).

    ``SCHED_IDLE``: the thread runs only on a core nothing else wants, and a request's thread
    that wakes takes the core from it at once; nice 19 alone still lets a search finish its
    time slice first, a few milliseconds that showed in /healthz's p99 under a crowd
    (bench/crowd.py, docs/crowds.md). Nice 19 stays as the fallback where the policy is
    refused.
    """
    # Elsewhere than Linux the searches and transfers keep the normal priority.
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOWEST_PRIORITY)
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def at_lowest_priority(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` on a thread of its own at the lowest CPU priority
    (``lower_own_priority``), this thread waiting for it: for a worker process's CPU work (a
    transfer's parse, checks and replays, an export's writing), which then runs only on a
    core no request wants. What holds a lock others wait for (a SQLite write) stays on the
    caller's thread, at the normal priority, so no request ever waits on a starved writer."""
    outcome: list[Any] = []

    def run() -> None:
        lower_own_priority()
        try:
            outcome.append((True, work(*args)))
        except BaseException as exc:  # raised again in the caller
            outcome.append((False, exc))

    thread = threading.Thread(target=run, name="pyramid-lowest-priority")
    thread.start()
    thread.join()
    done, value = outcome[0]
    if not done:
        raise value
    return value
