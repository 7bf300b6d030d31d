"""The odds run: solve a range of numbered deals in parallel, counting the wins.

Each deal is solved on its own from its first position, so the counts are the same whatever
the number of worker processes or the order their chunks finish in.

The player is the solver (perfect play: a deal counts as a win when it can be won) or the
greedy player of ``app.engine.greedy`` (a deal counts as a win when that policy wins it).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import partial

from app.engine import Deal, Game, Goal, Variant
from app.engine.greedy import greedy_wins
from app.engine.solver import GAME_PASSES, Verdict, solve

from .interval import wilson_interval

PLAYERS = ("solver", "greedy")
"""Who plays each deal: perfect play, or the greedy policy."""

@dataclass
class Odds:
    """What ``solve_range`` found. ``unknown`` deals hit the node limit and count as neither."""

    goal: Goal
    passes: int
    start: int
    deals: int
    wins: int = 0
    losses: int = 0
    unknown: list[int] = field(default_factory=list)
    verdicts: dict[int, str] = field(default_factory=dict, repr=False)
    """Each deal's verdict (``Verdict`` values), for ``verdict_string``."""
    nodes: int = 0
    seconds: float = 0.0
    workers: int = 1
    player: str = "solver"
    letters: str | None = field(default=None, repr=False)
    """The verdicts as letters (``VERDICT_LETTERS``), when the run was read back from them."""
    unlimited: bool = False
    """Solved with the solver's rule option of unlimited passes (``passes`` then unused)."""
    overlap: bool = False
    """Solved with the solver's rule option of overlap pairs."""

    @classmethod
    def from_letters(cls, variant: Variant, start: int, letters: str, *, seconds: float = 0.0,
                     workers: int = 1, player: str = "solver") -> Odds:
        """The odds of deals start.. whose verdicts are ``letters``, one a deal."""
        return cls(variant.goal, variant.passes, start, len(letters), wins=letters.count("W"),
                   losses=letters.count("L"),
                   unknown=[start + i for i, letter in enumerate(letters) if letter == "?"],
                   seconds=seconds, workers=workers, player=player, letters=letters)

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.decided if self.decided else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.decided)

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds > 0 else 0.0

    def add(self, results: list[tuple[int, str, int]]) -> None:
        for number, verdict, nodes in results:
            self.nodes += nodes
            self.verdicts[number] = verdict
            if verdict == Verdict.WINNABLE:
                self.wins += 1
            elif verdict == Verdict.NOT_WINNABLE:
                self.losses += 1
            else:
                self.unknown.append(number)

    def to_dict(self) -> dict:
        low, high = self.interval
        return {
            "goal": self.goal.value,
            "passes": self.passes,
            "start": self.start,
            "deals": self.deals,
            "wins": self.wins,
            "losses": self.losses,
            "unknown": len(self.unknown),
            "unknown_deals": sorted(self.unknown),
            "win_rate": self.win_rate,
            "wilson_95": [low, high],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(self.deals_per_second, 1),
            "workers": self.workers,
            **({"unlimited_passes": True} if self.unlimited else {}),
            **({"overlap": True} if self.overlap else {}),
        }


VERDICT_LETTERS = {Verdict.WINNABLE: "W", Verdict.NOT_WINNABLE: "L", Verdict.UNKNOWN: "?"}
"""One letter a deal in a verdicts file: the first 100,000 deals of a variant fit in 100 kB
of text (about 20 kB gzipped), which the app reads to deal winnable deals at once."""


def verdict_string(odds: Odds) -> str:
    """The deals' verdicts in deal order, one letter each (``VERDICT_LETTERS``)."""
    if odds.letters is not None:
        return odds.letters
    return "".join(
        VERDICT_LETTERS[Verdict(odds.verdicts[number])]
        for number in range(odds.start, odds.start + odds.deals)
    )


def solve_chunk(
    goal: str, passes: int, first: int, stop: int, node_limit: int | None,
    unlimited: bool = False, overlap: bool = False,
) -> list[tuple[int, str, int]]:
    """Solve deals first..stop-1: (deal, verdict, nodes) each, under the game's rules or the
    solver's rule options (``unlimited`` passes, ``overlap`` pairs). Runs in a worker
    process."""
    results = []
    rule = None if unlimited else GAME_PASSES
    for number in range(first, stop):
        solution = solve(Game(Deal.from_number(number), goal, passes), node_limit=node_limit,
                         passes=rule, overlap=overlap)
        results.append((number, solution.verdict.value, solution.nodes))
    return results


def greedy_chunk(
    goal: str, passes: int, first: int, stop: int, node_limit: int | None = None
) -> list[tuple[int, str, int]]:
    """Play deals first..stop-1 with the greedy player: (deal, verdict, 0) each, the verdict
    ``winnable`` when it won and ``not_winnable`` when it lost (no search, so no nodes; the
    node limit does not apply). Runs in a worker process."""
    results = []
    for number in range(first, stop):
        won = greedy_wins(Deal.from_number(number), goal, passes)
        results.append((number, (Verdict.WINNABLE if won else Verdict.NOT_WINNABLE).value, 0))
    return results


def chunk_size(deals: int, workers: int) -> int:
    """Big enough to keep inter-process traffic small, small enough that the workers finish
    together and the progress bar moves: about 16 chunks per worker, at most 200 deals."""
    return max(1, min(200, math.ceil(deals / (workers * 16))))


def solve_range(
    goal: Goal,
    passes: int,
    start: int,
    deals: int,
    workers: int | None = None,
    node_limit: int | None = None,
    progress: Callable[[int], object] | None = None,
    player: str = "solver",
    unlimited: bool = False,
    overlap: bool = False,
) -> Odds:
    """Solve deals start..start+deals-1 (or play them, with ``player="greedy"``);
    ``progress(n)`` is called as n more are done. ``unlimited`` and ``overlap`` are the
    solver's rule options (not playable: the odds of rules others publish)."""
    if player not in PLAYERS:
        raise ValueError(f"player must be 'solver' or 'greedy', not {player!r}")
    if player != "solver" and (unlimited or overlap):
        raise ValueError("the rule options are the solver's: the greedy player plays the game")
    run_chunk = (partial(solve_chunk, unlimited=unlimited, overlap=overlap)
                 if player == "solver" else greedy_chunk)
    workers = max(1, workers or os.cpu_count() or 1)
    size = chunk_size(deals, workers)
    chunks = [(n, min(n + size, start + deals)) for n in range(start, start + deals, size)]
    workers = min(workers, len(chunks)) or 1
    odds = Odds(goal, passes, start, deals, workers=workers, player=player,
                unlimited=unlimited, overlap=overlap)
    began = time.perf_counter()
    if workers == 1:
        for first, stop in chunks:
            odds.add(run_chunk(goal.value, passes, first, stop, node_limit))
            if progress:
                progress(stop - first)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {
                pool.submit(run_chunk, goal.value, passes, first, stop, node_limit): stop - first
                for first, stop in chunks
            }
            try:
                for future in as_completed(futures):
                    odds.add(future.result())
                    if progress:
                        progress(futures[future])
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    odds.seconds = time.perf_counter() - began
    return odds
