"""The solver's work for the web: hints, where a game went wrong, winning lines, off the event
loop and bounded, so that hints never stall the server.

The C search releases the GIL, so a search runs in a worker thread beside the requests. At most
``SEARCHES`` run at once (an anyio ``CapacityLimiter``: a request waiting for its turn holds no
thread, unlike a semaphore in FastAPI's thread pool, which would starve the other routes); each
player has one search at a time, and when ``QUEUE`` requests already wait the answer is "busy,
try again" rather than a longer queue. An ended game never changes, so its analysis is computed
once per process and kept (a cache, not state: any process recomputes the same answer).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

import anyio
import anyio.from_thread
import anyio.to_thread

from app.engine import Deal, Game, Goal, Move
from app.engine.analysis import Analysis, analyse, winnable_until
from app.engine.solver import HINT_NODE_LIMIT, Hint, hint, solve
from app.store import GameRecord, LoadedGame, deal_of, moves_of

SEARCHES = 2
"""Searches at once: one a core on the machines we run on."""
QUEUE = 32
"""Requests that may wait for a search before the answer is "busy"."""
LINE_NODE_LIMIT = HINT_NODE_LIMIT

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
            return await anyio.to_thread.run_sync(work, *args, limiter=limiter)
        finally:
            self._waiting -= 1
            self._players.discard(player_id)

    def run_from_thread(self, player_id: str, work: Callable[..., T], *args: Any) -> T:
        """``run`` for a plain ``def`` route (which FastAPI runs in a worker thread)."""
        return anyio.from_thread.run(self.run, player_id, work, *args)


POOL = SolverPool()


def _advice(game: Game) -> tuple[Hint, int | None]:
    advice = hint(game)
    until = None
    if advice.winnable is False:
        until = winnable_until(game.deal, game.goal, game.passes, list(game.moves))
    return advice, until


async def advise(loaded: LoadedGame, player_id: str) -> tuple[Hint, int | None]:
    """The next move of a winning line (``solver.hint``) and, when no win is left, how many
    moves back the game was still winnable."""
    return await POOL.run(player_id, _advice, loaded.game.copy())


async def where_it_went_wrong(loaded: LoadedGame, player_id: str) -> Analysis:
    record = loaded.record
    if record.game_status.ended:
        return await POOL.run(player_id, analysis_of_ended, record)
    game = loaded.game
    return await POOL.run(player_id, analyse, game.deal, game.goal, game.passes,
                          list(game.moves))


def analysis_of_ended(record: GameRecord) -> Analysis:
    """The analysis of an ended game, computed once per process (call it in the pool)."""
    return _ended(record.id, deal_of(record), record.goal, record.passes,
                  tuple(moves_of(record)))


@lru_cache(maxsize=512)
def _ended(_game_id: str, deal: Deal, goal: str, passes: int,
           moves: tuple[Move, ...]) -> Analysis:
    return analyse(deal, goal, passes, list(moves))


def winning_line(deal: Deal, goal: Goal | str, passes: int,
                 moves: list[Move]) -> tuple[Move, ...] | None:
    """A winning line from the position after ``moves``, or None (call it in the pool)."""
    position = Game.replay(deal, goal, passes, moves)
    found = solve(position, node_limit=LINE_NODE_LIMIT)
    return found.moves if found.winnable else None
