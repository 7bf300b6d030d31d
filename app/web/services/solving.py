"""The solver's work for the web: one scheduled queue for every search (hints, analyses, winning
lines, deal verdicts), so that searches never starve the site.

- **Never the web's cores.** Searches run on their own threads, ``cores - 1`` of them (at
  least one), each at the lowest CPU priority (``SCHED_IDLE`` and nice 19, per thread on
  Linux): the C search releases the GIL, and the kernel gives a request, a page or a move the
  CPU before any search.
- **A bounded, fair queue.** A player has one search queued or running at a time; players are
  served in turn (round robin); beyond ``capacity`` waiting searches the answer is "busy" with
  a ``Retry-After`` worked out from the queue and the searches' recent durations. One address
  holds at most ``per_address`` of the queue (three quarters), so however many cookies it
  brings, another address's player still gets in; and a client without a cookie (a new player
  at each request) queues as its address, one line for all its requests (``budget``).
- **Each search once.** A position's solve is kept (``SolvedPositions``, bounded), so everyone
  playing the deal of the day asks about its early positions for the price of one search; an
  ended game's analysis too.
- **A budget.** Each search stops at a node limit (about a second here): past it the answer is
  "can't tell yet" (``winnable`` null), never a longer wait.

No database connection is held while a search waits or runs: the routes read what a search
needs, end their transaction, and write (a hint's count) in a fresh one after the answer.
"""

from __future__ import annotations

import asyncio
import math
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from app.engine import Game, Move
from app.engine.analysis import Analysis, analyse, winnable_until
from app.engine.solver import HINT_NODE_LIMIT, Hint, Solution, hint, solve
from app.store import LoadedGame
from app.web.core import metrics
from app.web.core.i18n import gettext as _
from app.web.core.scope import current_client
from app.web.core.threads import in_thread, lower_own_priority

QUEUE_PER_THREAD = 8
"""Searches that may wait for each search thread before the answer is "busy": with searches of
about a second at most, nobody waits much longer than this many seconds for an answer."""
SEARCH_NODE_LIMIT = HINT_NODE_LIMIT
"""Every search's budget, in positions: about a second of search on this project's machines."""
LOOK_BACK_AFTER = 0.25
"""Seconds: a hint whose own search took longer does not also look back for a winnable
position (its answer says so: ``winnable_until`` null)."""
POSITIONS_KEPT = 20_000
"""Solved positions kept per process (a key and a verdict, with a line when winnable)."""
ENDED_KEPT = 512
"""Analyses of ended games kept per process."""

T = TypeVar("T")


def default_workers() -> int:
    """One search thread a core, leaving one core to the web (at least one thread)."""
    return max(1, (os.cpu_count() or 1) - 1)


class SolverBusy(RuntimeError):
    """Too many searches at once: the player's own, or the server's. ``retry_after`` is in
    seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class _Job:
    __slots__ = ("address", "args", "future", "player_id", "work")

    def __init__(self, player_id: str, work: Callable[..., Any], args: tuple,
                 address: str | None) -> None:
        self.player_id, self.work, self.args, self.address = player_id, work, args, address
        self.future: Future = Future()


class SolverQueue:
    """Searches for many players on a few low-priority threads, in turn, one per player."""

    def __init__(self, workers: int | None = None, capacity: int | None = None) -> None:
        self.workers = workers or default_workers()
        self.capacity = capacity or QUEUE_PER_THREAD * self.workers
        self.per_address = max(1, self.capacity * 3 // 4)
        """Searches one address may have waiting or running: room is left for others."""
        self._by_address: dict[str, int] = {}
        self._lock = threading.Condition()
        self._queues: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._busy_players: set[str] = set()  # queued or running
        self._waiting = 0
        self._threads: list[threading.Thread] = []
        self._durations: deque[float] = deque(maxlen=64)

    # --- asking ---------------------------------------------------------------------------
    def submit(self, player_id: str, work: Callable[..., T], *args: Any) -> Future:
        """Queue ``work(*args)`` for ``player_id``, from the current request's address (none
        outside a request); a client without a cookie is queued as its address."""
        client = current_client.get()
        address = client.address if client is not None else None
        if client is not None and client.new_player and player_id == client.player_id:
            player_id = f"address:{address}"
        with self._lock:
            if player_id in self._busy_players:
                metrics.solver_refused.labels("player").inc()
                raise SolverBusy(_("Your last request to the solver is still being worked "
                                   "out: wait for it."), self._retry_after())
            if self._waiting >= self.capacity:
                metrics.solver_refused.labels("full").inc()
                raise SolverBusy(_("The solver is busy right now: try again in a moment."),
                                 self._retry_after())
            if address is not None and self._by_address.get(address, 0) >= self.per_address:
                metrics.solver_refused.labels("address").inc()
                raise SolverBusy(_("The solver is busy right now: try again in a moment."),
                                 self._retry_after())
            job = _Job(player_id, work, args, address)
            if address is not None:
                self._by_address[address] = self._by_address.get(address, 0) + 1
            self._queues.setdefault(player_id, deque()).append(job)
            self._busy_players.add(player_id)
            self._waiting += 1
            metrics.solver_queue_depth.inc()
            self._start_threads()
            self._lock.notify()
        return job.future

    async def run(self, player_id: str, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` on a search thread, awaited without holding any thread."""
        return await asyncio.wrap_future(self.submit(player_id, work, *args))

    def run_from_thread(self, player_id: str, work: Callable[..., T], *args: Any) -> T:
        """``run`` for a plain ``def`` route (which FastAPI runs in a worker thread)."""
        return self.submit(player_id, work, *args).result()

    def _retry_after(self) -> int:
        """Seconds until a new search would likely get a thread: the queue ahead of it, at the
        recent mean search time (caller holds the lock)."""
        mean = sum(self._durations) / len(self._durations) if self._durations else 0.5
        return max(1, math.ceil((self._waiting + 1) * mean / self.workers))

    # --- the search threads -----------------------------------------------------------------
    def _start_threads(self) -> None:
        while len(self._threads) < self.workers:
            thread = threading.Thread(target=self._serve, name="solver", daemon=True)
            self._threads.append(thread)
            thread.start()

    def _next(self) -> _Job:
        """The next player's first search, players taken in turn (caller holds the lock)."""
        player_id, queue = next(iter(self._queues.items()))
        job = queue.popleft()
        del self._queues[player_id]
        if queue:
            self._queues[player_id] = queue  # to the back of the line
        self._waiting -= 1
        metrics.solver_queue_depth.dec()
        return job

    def _serve(self) -> None:
        lower_own_priority()
        while True:
            with self._lock:
                while not self._queues:
                    self._lock.wait()
                job = self._next()
            began = time.perf_counter()
            result: Any = None
            error: BaseException | None = None
            running = job.future.set_running_or_notify_cancel()
            if running:
                metrics.solver_running.inc()
                try:
                    result = job.work(*job.args)
                except BaseException as exc:  # the search's error is the asker's to see
                    error = exc
                finally:
                    metrics.solver_running.dec()
                counted(job.work, time.perf_counter() - began, error)
            with self._lock:
                self._durations.append(time.perf_counter() - began)
                if job.player_id not in self._queues:
                    # Free before answering: the player's next request may follow at once.
                    self._busy_players.discard(job.player_id)
                if job.address is not None:
                    left = self._by_address.pop(job.address) - 1
                    if left:
                        self._by_address[job.address] = left
            if running:
                if error is None:
                    job.future.set_result(result)
                else:
                    job.future.set_exception(error)


SEARCH_KINDS = {"_advice": "hint", "analysis_of": "analysis", "par_of": "par",
                "_search_par": "par", "solve_variants": "verdict", "winning_line": "winning_line"}
"""The metrics' name for each search the web asks for, by its function's name."""


def counted(work: Callable[..., Any], seconds: float, error: BaseException | None) -> None:
    """A search run, in the metrics: by kind, done or failed, and how long it took."""
    name = getattr(work, "__name__", "search")
    kind = SEARCH_KINDS.get(name, name.strip("_"))
    metrics.solver_searches.labels(kind, "done" if error is None else "error").inc()
    metrics.solver_search_duration.labels(kind).observe(seconds)


QUEUE_OF_SEARCHES = SolverQueue()


# --- each position searched once ------------------------------------------------------------
class SolvedPositions:
    """Solves kept by position: the rules, the piles and the pass, whichever game, player or
    move list led there (a position's verdict is a function of these alone). Bounded, least
    recently used first out; shared by the search threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[tuple, Solution] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(game: Game, node_limit: int | None, shortest: bool = False) -> tuple:
        return (game.goal, game.passes, game.pass_number, tuple(game.pyramid),
                tuple(game.stock), tuple(game.waste), node_limit, shortest)

    def solve(self, game: Game, node_limit: int | None = SEARCH_NODE_LIMIT, *,
              shortest: bool = False) -> Solution:
        """``solver.solve``, kept; ``shortest`` asks for a proven shortest line (the par)."""
        key = self.key(game, node_limit, shortest)
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        found = solve(game, node_limit=node_limit, shortest=shortest)
        if found.winnable is None:
            metrics.solver_node_limit_hits.labels("solve").inc()
        with self._lock:
            self._kept[key] = found
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return found


SOLVED = SolvedPositions(POSITIONS_KEPT)


# --- the searches the web asks for ------------------------------------------------------------
def _advice(game: Game) -> tuple[Hint, int | None]:
    """A hint, and when no win is left how many moves back one was: within one search's
    budget in all (the look back gets a quarter budget a position, and only when the hint's
    own search left time for it)."""
    began = time.perf_counter()
    solution = SOLVED.solve(game)
    advice = hint(game, solution=solution)
    until = None
    if advice.winnable is False and time.perf_counter() - began < LOOK_BACK_AFTER:
        until = winnable_until(game, node_limit=SEARCH_NODE_LIMIT // 4, known=solution)
    return advice, until


async def where_it_went_wrong(session: Session, loaded: LoadedGame,
                              player_id: str) -> Analysis:
    """The analysis of an ended game (an analysis in progress would hand its player a winning
    line: the routes refuse it). No connection is held while it is searched."""
    if session.in_transaction():
        await in_thread(session.rollback)
    return await QUEUE_OF_SEARCHES.run(player_id, analysis_of, loaded)


class _Kept:
    """The analyses of ended games, by game id and stored moves (an ended game's moves never
    change, so an entry can never be stale), at most ``size`` of them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[tuple[str, str], Analysis] = OrderedDict()
        self.lock = threading.Lock()  # the search threads share it

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
    """Where the game went wrong (call it in the queue); an ended game's is computed once per
    process."""
    record = loaded.record
    if not record.status.ended:
        return _analysed(loaded.game)
    key = (record.id, record.moves)
    found = _ended.get(key)
    if found is None:
        found = _analysed(loaded.game)
        _ended.put(key, found)
    return found


def _analysed(game: Game) -> Analysis:
    """``analyse``, counting in the metrics an analysis that some search left undecided."""
    found = analyse(game, node_limit=SEARCH_NODE_LIMIT)
    if not found.complete:
        metrics.solver_node_limit_hits.labels("analysis").inc()
    return found


def par_of(game: Game) -> int | None:
    """The par (fewest moves that win) from ``game``'s position, or None when no win is left
    or the search ran past its budget (call it in the queue). Kept like any solve."""
    found = SOLVED.solve(game, shortest=True)
    return found.par if found.winnable else None


def winning_line(position: Game) -> tuple[Move, ...] | None:
    """A shortest winning line from ``position`` (a par line), or when that search runs past
    its budget any winning line; None when no win is left (call it in the queue)."""
    shortest = SOLVED.solve(position, shortest=True)
    if shortest.winnable:
        return shortest.moves
    found = SOLVED.solve(position)
    return found.moves if found.winnable else None
