"""The solver: can this position still be won, and how?

``solve`` runs an exhaustive depth-first search (in C: ``_core.h`` gives the position encoding
and lists the files; the header of each file argues for the pruning it does) from a game's
current position and answers winnable with a winning line that replays through ``Game.play``,
or not winnable, proven by having searched everything. A node limit turns "too long" into
"unknown"; with the default (no limit) every deal is decided. ``docs/solver.md`` is the
reference: the search, each pruning, par and how to measure.

``solve(shortest=True)`` and ``par`` answer with a shortest winning line instead (a move is
what ``Game.moves`` counts: a removal, a draw or a recycle): from the decision search's line,
depth-first searches with a move budget and an admissible bound ask for a line one move
shorter until none is found (``_par.c``), so its length is the position's par. The rule
options ``passes=None`` (unlimited passes) and ``overlap=True`` (overlap pairs) are the
solver's only: they answer "what if", for the odds of other rule sets; ``Game`` does not play
them.

``pruning`` switches prunings off: the flags (``KINGS`` .. ``CONE``, ``ALL_PRUNING``) and the op
codes of the lines are the C core's own, read from the module, never written again here.

``reference_solve`` is the plain search written again in Python over ``Game`` itself, with no
pruning at all: slow, but it shares no code with the C search, which is what makes it useful
for checking the C search's verdicts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum

from . import _solver
from ._solver import (  # the pruning flags and the op codes, defined in _core.h
    ALL_PRUNING,
    APEX,
    COMMUTE,
    CONE,
    DEAD_ENDS,
    DOMINANCE,
    FORCED_PAIRS,
    KINGS,
    NESTED,
    OP_DRAW,
    OP_KING,
    OP_PAIR,
    RELAXED,
    STACKED,
    STARTS,
    SUITS,
    WORD,
)
from .cards import Card
from .deal import COVERED_BY, PYRAMID_SIZE
from .game import Game
from .moves import Move, Op
from .outcome import game_over
from .refusals import Refusal
from .variant import MAX_PASSES, Goal

NO_PRUNING = 0

HINT_NODE_LIMIT = 2_000_000
"""About a second of search: a hint must come back while the player waits."""

GAME_PASSES = "game"
"""``solve(passes=GAME_PASSES)``, the default: the game's own pass limit."""


class Verdict(StrEnum):
    WINNABLE = "winnable"
    NOT_WINNABLE = "not_winnable"
    UNKNOWN = "unknown"


class SearchLimitReached(RuntimeError):
    """The node limit stopped a search before it knew the answer."""


@dataclass(frozen=True, slots=True)
class Solution:
    verdict: Verdict
    moves: tuple[Move, ...] | None
    """A winning line from the position solved, when it is winnable."""
    nodes: int
    seconds: float
    shortest: bool = False
    """``moves`` is proven to be a shortest winning line (``solve(shortest=True)``)."""

    @property
    def winnable(self) -> bool | None:
        """True or False once decided; None when the search stopped at its limit."""
        if self.verdict is Verdict.UNKNOWN:
            return None
        return self.verdict is Verdict.WINNABLE

    @property
    def par(self) -> int | None:
        """The fewest moves that win, when this solution is a proven shortest line."""
        return len(self.moves) if self.shortest and self.moves is not None else None


def _talon(game: Game) -> list[Card]:
    """Stock and waste in their one fixed order: waste bottom to top, then stock top down."""
    return game.waste + game.stock


def _pass_rule(game: Game, passes: int | str | None) -> tuple[int, int]:
    """(passes for the C core, 0 meaning unlimited; the pass now, counted from 0)."""
    if passes == GAME_PASSES:
        return game.passes, game.pass_number - 1
    if passes is None:
        return 0, 0
    if not isinstance(passes, int) or isinstance(passes, bool) or not 1 <= passes <= MAX_PASSES:
        raise ValueError(f"passes must be from 1 to {MAX_PASSES} or None (unlimited), "
                         f"not {passes!r}")
    if passes < game.pass_number:
        raise ValueError(f"the game is in pass {game.pass_number}, beyond {passes} passes")
    return passes, game.pass_number - 1


def solve(game: Game, node_limit: int | None = None, pruning: int = ALL_PRUNING, *,
          shortest: bool = False, passes: int | str | None = GAME_PASSES,
          overlap: bool = False) -> Solution:
    """Decide the game from its current position (see the module docstring).

    ``shortest``: the winning line is a shortest one, proven (its length is the par), at the
    cost of a longer search. ``passes``: the game's own limit by default; 1 to
    ``MAX_PASSES``; or None for unlimited passes. ``overlap``: also allow overlap pairs (a
    card with one cover left, paired with that cover). The last two are rules of the solver
    only: ``Game`` plays neither, so a line that uses them does not replay through
    ``Game.play``.
    """
    start = time.perf_counter()
    outcome = game.outcome()
    c_passes, pass_index = _pass_rule(game, passes)
    same_rules = c_passes == game.passes and not overlap
    if outcome is not None and (outcome.won or same_rules):
        # A win is a win under any rules; a loss under the game's own rules is final.
        verdict = Verdict.WINNABLE if outcome.won else Verdict.NOT_WINNABLE
        moves = () if outcome.won else None
        return Solution(verdict, moves, 0, time.perf_counter() - start, shortest=outcome.won)
    talon = _talon(game)
    pyramid_values = bytes(card.rank if card else 0 for card in game.pyramid)
    status, raw, nodes = _solver.solve(
        pyramid_values,
        bytes(card.rank for card in talon),
        len(game.waste),
        pass_index,
        c_passes,
        int(game.goal is Goal.WHOLE_DECK),
        pruning,
        node_limit or 0,
        overlap=overlap,
        shortest=shortest,
    )
    seconds = time.perf_counter() - start
    if status < 0:
        return Solution(Verdict.UNKNOWN, None, nodes, seconds)
    if status == 0:
        return Solution(Verdict.NOT_WINNABLE, None, nodes, seconds)
    return Solution(Verdict.WINNABLE, _decode(game, talon, raw), nodes, seconds, shortest)


def par(game: Game, node_limit: int | None = None, *, passes: int | str | None = GAME_PASSES,
        overlap: bool = False) -> int | None:
    """The fewest moves that win from here (0 once won), or None when no win is left.

    Raises ``SearchLimitReached`` when ``node_limit`` stops the search first.
    """
    solution = solve(game, node_limit, shortest=True, passes=passes, overlap=overlap)
    if solution.winnable is None:
        raise SearchLimitReached(f"no answer within {node_limit} nodes")
    return solution.par


def _decode(game: Game, talon: list[Card], raw: list[tuple[int, int, int]]) -> tuple[Move, ...]:
    """Turn the C search's (op, location, location) triples back into moves with card names."""

    def card_at(location: int) -> Card:
        if location < PYRAMID_SIZE:
            card = game.pyramid[location]
            assert card is not None
            return card
        return talon[location - PYRAMID_SIZE]

    moves = []
    for op, a, b in raw:
        if op == OP_KING:
            moves.append(Move(Op.REMOVE, (card_at(a),)))
        elif op == OP_PAIR:
            moves.append(Move(Op.REMOVE, (card_at(a), card_at(b))))
        elif op == OP_DRAW:
            moves.append(Move(Op.DRAW))
        else:
            moves.append(Move(Op.RECYCLE))
    return tuple(moves)


# --- hints ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hint:
    move: Move | None
    winnable: bool | None
    """True: ``move`` starts a winning line. False: no win is possible from here, and ``move``
    is the best-looking way on (see ``removable_cards``). None: the search ran out of time."""
    message: str
    refusal: Refusal | None = None
    """Why there is no hint at all (``game_over``: the game has ended); ``message`` is its
    English."""


def removable_cards(game: Game) -> int:
    """How many cards left could still be removed, judged card by card.

    A King can always go once it is free. Any other card can go only if some card of the
    complementary value is left that it could ever be free together with (a pyramid card is
    never free together with a card it covers, directly or not). This is the measure the
    hint maximises when no win is possible: keep the most cards alive.
    """
    left: list[tuple[Card, int | None]] = [
        (card, i) for i, card in enumerate(game.pyramid) if card is not None
    ]
    left += [(card, None) for card in game.stock + game.waste]
    count = 0
    for card, slot in left:
        if card.is_king:
            count += 1
            continue
        for other, other_slot in left:
            if other is card or not card.pairs_with(other):
                continue
            if slot is not None and other_slot is not None and (
                _covers(slot, other_slot) or _covers(other_slot, slot)
            ):
                continue
            count += 1
            break
    return count


def _covers(low: int, high: int) -> bool:
    """Does pyramid slot ``low`` cover slot ``high``, directly or through other cards?"""
    frontier = list(COVERED_BY[high])
    while frontier:
        slot = frontier.pop()
        if slot == low:
            return True
        frontier.extend(COVERED_BY[slot])
    return False


def salvage_score(game: Game) -> tuple[int, int]:
    """How good a lost position still is: the cards removed plus those that could still go,
    then the cards removed. Counting the removed cards too is why a free King is taken rather
    than a card drawn: removing it costs nothing that could still be removed."""
    return game.cards_removed + removable_cards(game), game.cards_removed


def hint(game: Game, node_limit: int | None = HINT_NODE_LIMIT,
         solution: Solution | None = None) -> Hint:
    """The first move of a winning line, or, when none exists, the move with the best
    ``salvage_score`` (ties go to the engine's move order).
    ``solution`` is the position's solve when the caller has made it already."""
    if game.is_over():
        over = game_over(game.status, game.outcome())
        return Hint(None, None, str(over), over)
    if solution is None:
        solution = solve(game, node_limit=node_limit)
    if solution.winnable and solution.moves:
        move = solution.moves[0]
        return Hint(move, True, f"{_say(move)}: this deal can still be won.")
    best: Move | None = None
    best_score = (-1, -1)
    for move in game.legal_moves:
        game.play(move)
        score = salvage_score(game)
        game.undo()
        if score > best_score:
            best, best_score = move, score
    if solution.winnable is None:
        return Hint(best, None,
                    f"{_say(best)}: the solver could not decide this position in time.")
    return Hint(best, False,
                f"No win is possible from here. {_say(best)}: that keeps the most cards in play.")


def _say(move: Move | None) -> str:
    """A move as a player would say it: ``Remove 5H and 8C``, ``Draw a card``."""
    if move is None:
        return "No move"
    if move.op is Op.DRAW:
        return "Draw a card"
    if move.op is Op.RECYCLE:
        return "Recycle the waste"
    return "Remove " + " and ".join(card.name for card in move.cards)


# --- the plain reference search ---------------------------------------------------------------


def reference_solve(game: Game) -> bool:
    """Plain exhaustive search over ``Game`` and its ``legal_moves``: no pruning, a memo of
    lost positions. Only for checking ``solve``; far too slow for play."""
    lost: set[tuple[object, ...]] = set()
    game = game.copy()

    def key() -> tuple[object, ...]:
        return (tuple(game.pyramid), tuple(game.stock), tuple(game.waste), game.pass_number)

    def search() -> bool:
        outcome = game.outcome()
        if outcome is not None:
            return outcome.won
        k = key()
        if k in lost:
            return False
        for move in game.legal_moves:
            game.play(move)
            try:
                if search():
                    return True
            finally:
                game.undo()
        lost.add(k)
        return False

    return search()


__all__ = [
    "ALL_PRUNING", "APEX", "COMMUTE", "CONE", "DEAD_ENDS", "DOMINANCE", "FORCED_PAIRS",
    "GAME_PASSES", "KINGS", "NESTED", "NO_PRUNING", "RELAXED", "STACKED", "STARTS", "SUITS",
    "WORD", "Hint", "SearchLimitReached", "Solution", "Verdict", "hint", "par",
    "reference_solve", "removable_cards", "solve",
]
