"""The solver's work for the web: hints, where a game went wrong, winning lines, off the event
loop and bounded, so that hints never stall the server.

The C search releases the GIL, so a search runs in a worker thread beside the requests. At most
``SEARCHES`` run at once (an anyio ``CapacityLimiter``: a request waiting for its turn holds no
thread, unlike a semaphore in FastAPI's thread pool, which would starve the other routes); each
player has one search at a time, and when ``QUEUE`` requests already wait the answer is "busy,
try again" rather than a longer queue. An ended game never changes, so its analysis is computed
once per process and kept (a cache, not state: any process recomputes the same answer).

Each function takes the position the route already holds and searches it once: a hint on a
lost position reuses its own solve to count the moves back to a winnable one.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.from_thread

from app.engine import Game, Move
from app.engine.analysis import Analysis, analyse, winnable_until
from app.engine.solver import HINT_NODE_LIMIT, Hint, hint, solve
from app.store import LoadedGame
from app.web.threads import in_thread

SEARCHES = 2
"""Searches at once: one a core on the machines we run on."""
QUEUE = 32
"""Requests that may wait for a search before the answer is "busy"."""
LINE_NODE_LIMIT = HINT_NODE_LIMIT
ENDED_KEPT = 512
"""Analyses of ended games kept per process."""

T = TypeVar("T")


class SolverBusy(RuntimeError):
    """Too many searches at once: the player's own, or the server's."""


class SolverPool:
    """Runs searches in worker threads, ``size`` at a time, one per player."""

    def __init__(self, size: int = SEARCHES, queue: int = QUEUE) -> None:
        self.size = size
        self.queue = queue
        # One limiter per event loop (a server process has one; tests start several).
        self._limiters: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop,
                                                  anyio.CapacityLimiter] = (
            weakref.WeakKeyDictionary())
        self._players: set[str] = set()
        self._waiting = 0

    def _limiter(self) -> anyio.CapacityLimiter:
        loop = asyncio.get_running_loop()
        if loop not in self._limiters:
            self._limiters[loop] = anyio.CapacityLimiter(self.size)
        return self._limiters[loop]

    async def run(self, player_id: str, work: Callable[..., T], *args: Any) -> T:
        limiter = self._limiter()
        if player_id in self._players:
            raise SolverBusy("Your last request to the solver is still being worked out: "
                             "wait for it.")
        if self._waiting >= self.queue:
            raise SolverBusy("The solver is busy right now: try again in a moment.")
        self._players.add(player_id)
        self._waiting += 1
        try:
            return await in_thread(work, *args, limiter=limiter)
        finally:
            self._waiting -= 1
            self._players.discard(player_id)

    def run_from_thread(self, player_id: str, work: Callable[..., T], *args: Any) -> T:
        """``run`` for a plain ``def`` route (which FastAPI runs in a worker thread)."""
        return anyio.from_thread.run(self.run, player_id, work, *args)


POOL = SolverPool()


def _advice(game: Game) -> tuple[Hint, int | None]:
    solution = solve(game, node_limit=HINT_NODE_LIMIT)
    advice = hint(game, solution=solution)
    until = winnable_until(game, known=solution) if advice.winnable is False else None
    return advice, until


async def advise(loaded: LoadedGame, player_id: str) -> tuple[Hint, int | None]:
    """The next move of a winning line (``solver.hint``) and, when no win is left, how many
    moves back the game was still winnable."""
    return await POOL.run(player_id, _advice, loaded.game.copy())


async def where_it_went_wrong(loaded: LoadedGame, player_id: str) -> Analysis:
    return await POOL.run(player_id, analysis_of, loaded)


class _Kept:
    """The analyses of ended games, by game id and stored moves (an ended game's moves never
    change, so an entry can never be stale), at most ``size`` of them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[tuple[str, str], Analysis] = OrderedDict()
        self.lock = threading.Lock()  # the pool's threads share it

    def get(self, key: tuple[str, str]) -> Analysis | None:
        with self.lock:
            found = self.entries.get(key)
            if found is not None:
                self.entries.move_to_end(key)
            return found

    def put(self, key: tuple[str, str], analysis: Analysis) -> None:
        with self.lock:
            self.entries[key] = analysis
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)


_ended = _Kept(ENDED_KEPT)


def analysis_of(loaded: LoadedGame) -> Analysis:
    """Where the game went wrong (call it in the pool); an ended game's is computed once per
    process."""
    record = loaded.record
    if not record.game_status.ended:
        return analyse(loaded.game)
    key = (record.id, record.moves)
    found = _ended.get(key)
    if found is None:
        found = analyse(loaded.game)
        _ended.put(key, found)
    return found


def winning_line(position: Game) -> tuple[Move, ...] | None:
    """A winning line from ``position``, or None (call it in the pool)."""
    found = solve(position, node_limit=LINE_NODE_LIMIT)
    return found.moves if found.winnable else None
