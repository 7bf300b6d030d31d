"""Where a game went wrong: the first move after which it could no longer be won.

A game is the positions P0 (the deal), P1 (after move 1), ..., Pn (after the last move).
Call a position *winnable* when some line of legal moves from it wins, *lost* otherwise.

**Once lost, always lost.** If Pk is lost, so is P(k+1): were there a winning line L from
P(k+1), then move k+1 followed by L would be a winning line from Pk. (The converse fails: a
winnable position may have lost successors, which is how a game gets lost.) So along a game the
verdicts run winnable, ..., winnable, lost, ..., lost, and a binary search over the move
numbers finds the first lost position with O(log n) solves rather than n.

Two things make it cheaper still. A winning line found from Pk that the game went on to follow
for m moves proves P(k+1) .. P(k+m) winnable too, with no more solving; and a game that has
ended lost needs no search to say its last position is lost.

Every answer comes from ``solve`` (``solver.py``), one node limit per solve. When a solve the
answer depends on stops at the limit, that answer is None and ``complete`` is False: None then
means "could not be decided", never a guess.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .game import Game
from .moves import Move
from .solver import HINT_NODE_LIMIT, Solution, solve

ANALYSIS_NODE_LIMIT = HINT_NODE_LIMIT
"""Per solve: about a second of search at most, as for a hint."""


@dataclass(frozen=True, slots=True)
class Analysis:
    """What ``analyse`` found about a game (see the module docstring)."""

    winnable_at_start: bool | None
    """Could the deal be won at all (with these rules)? None: undecided at the node limit."""
    lost_at: int | None
    """The number (1-based) of the first move after which no win was left; None when the
    game was won, is still winnable, was never winnable, or it could not be decided."""
    losing_move: Move | None
    """Move number ``lost_at`` itself."""
    better_move: Move | None
    """A move from the position before move ``lost_at`` that keeps a win: the first move of
    a winning line from there."""
    solution: tuple[Move, ...] | None
    """A winning line from the deal: the game's own moves when it was won, else the solver's;
    None when the deal cannot be won or that is undecided."""
    won: bool
    """The game ended in a win."""
    moves_played: int
    solves: int
    """How many positions were searched (a won game needs none)."""
    nodes: int
    """Positions the searches visited, all together."""
    seconds: float
    complete: bool
    """False when some solve stopped at the node limit: a None above may then mean
    "undecided" rather than "nothing to report"."""


class _Prefixes:
    """The game after any number of its moves, with each position's solve kept."""

    def __init__(self, game: Game, node_limit: int | None,
                 known: Solution | None = None) -> None:
        self.game = game.copy()  # walked back and forth by undo and play
        self.moves = tuple(self.game.moves)
        self.node_limit = node_limit
        self.solutions: dict[int, Solution] = {} if known is None else {len(self.moves): known}
        self.proven_winnable: dict[int, tuple[Move, ...]] = {}
        """Positions known winnable without a solve of their own, with a winning line."""
        self.nodes = 0

    def at(self, k: int) -> Game:
        """The game after its first ``k`` moves (moves this one game back or forth)."""
        while len(self.game.moves) > k:
            self.game.undo()
        while len(self.game.moves) < k:
            self.game.play(self.moves[len(self.game.moves)])
        return self.game

    def winnable(self, k: int) -> bool | None:
        """Is the position after ``k`` moves winnable? None: undecided at the node limit."""
        if k in self.proven_winnable:
            return True
        if k not in self.solutions:
            solution = solve(self.at(k), node_limit=self.node_limit)
            self.solutions[k] = solution
            self.nodes += solution.nodes
            if solution.moves:
                # As far as the game went on to play this very line, each position on the
                # way is winnable by the rest of it.
                for step, move in enumerate(solution.moves, start=1):
                    if k + step > len(self.moves) or self.moves[k + step - 1] != move:
                        break
                    self.proven_winnable[k + step] = solution.moves[step:]
        return self.solutions[k].winnable

    def line(self, k: int) -> tuple[Move, ...] | None:
        """A winning line from the position after ``k`` moves, once it is known winnable."""
        if k in self.proven_winnable:
            return self.proven_winnable[k]
        solution = self.solutions.get(k)
        return solution.moves if solution is not None else None


def _first_lost(prefixes: _Prefixes, low: int, high: int) -> int | None:
    """The first k in (low, high] whose position is lost, given that the position after
    ``low`` moves is winnable and the one after ``high`` is lost; None when a solve on the way
    stopped at the node limit."""
    while True:
        # Skip the positions a line already found proves winnable.
        while low + 1 < high and low + 1 in prefixes.proven_winnable:
            low += 1
        if high - low <= 1:
            return high
        middle = (low + high) // 2
        verdict = prefixes.winnable(middle)
        if verdict is None:
            return None
        if verdict:
            low = middle
        else:
            high = middle


def analyse(game: Game, node_limit: int | None = ANALYSIS_NODE_LIMIT) -> Analysis:
    """Find where ``game`` was lost; see ``Analysis``. The game itself is left as it is.

    ``node_limit`` applies to each solve (None: no limit, every answer decided).
    """
    began = time.perf_counter()
    prefixes = _Prefixes(game, node_limit)
    n = len(prefixes.moves)
    outcome = prefixes.game.outcome()
    won = outcome is not None and outcome.won
    start: bool | None = True
    lost_at: int | None = None
    if not won:
        start = prefixes.winnable(0)
        if start and prefixes.winnable(n) is False:
            lost_at = _first_lost(prefixes, 0, n)
    solution = prefixes.moves if won else prefixes.line(0) if start else None
    better_move = None
    if lost_at is not None:
        line = prefixes.line(lost_at - 1)
        better_move = line[0] if line else None
    return Analysis(
        winnable_at_start=start,
        lost_at=lost_at,
        losing_move=prefixes.moves[lost_at - 1] if lost_at is not None else None,
        better_move=better_move,
        solution=solution,
        won=won,
        moves_played=n,
        solves=len(prefixes.solutions),
        nodes=prefixes.nodes,
        seconds=time.perf_counter() - began,
        complete=all(s.winnable is not None for s in prefixes.solutions.values()),
    )


def winnable_until(game: Game, node_limit: int | None = ANALYSIS_NODE_LIMIT,
                   known: Solution | None = None) -> int | None:
    """How many moves must be undone to get back to a winnable position: 0 when the current
    position is winnable (or won); None when no position of the game is winnable (the deal
    never was) or that could not be decided at the node limit. ``known`` is the current
    position's solve when the caller has made it already (it is not searched again)."""
    prefixes = _Prefixes(game, node_limit, known)
    n = len(prefixes.moves)
    end = prefixes.winnable(n)
    if end is not False:
        return 0 if end else None
    if not prefixes.winnable(0):
        return None
    lost_at = _first_lost(prefixes, 0, n)
    return None if lost_at is None else n - lost_at + 1


__all__ = ["ANALYSIS_NODE_LIMIT", "Analysis", "analyse", "winnable_until"]
