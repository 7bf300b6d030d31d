"""A greedy player: how often does simple, never-look-ahead play win?

The policy, one move at a time, looking only at the cards that are free now:

1. A King, if one is free: the first in the engine's move order (free pyramid cards apex
   first, then the stock top, then the waste top).
2. Otherwise a pair that makes 13: the one that frees most pyramid cards (the cards it
   uncovers; a pair that takes no pyramid card, or uncovers nothing, frees none). Ties go to
   the first pair in the engine's move order (``Game.legal_moves``), which puts pairs of two
   pyramid cards before pairs with the stock or waste top.
3. Otherwise draw; when the stock is empty and passes are left, recycle.

It plays until the game ends. ``choose_move`` and ``play_greedy`` apply the policy to a
``Game``: plain, and checked by the engine at every move. ``greedy_wins`` plays the same
policy on a compact position of its own (pyramid as a bitmask, stock and waste as lists of
values), because the odds run it over hundreds of thousands of deals; the tests check that the
two agree move for move.
"""

from __future__ import annotations

from .cards import Card
from .deal import COVERED_BY, PYRAMID_SIZE, Deal
from .game import Game
from .moves import Move, Op
from .variant import Goal, parse_goal, parse_passes


def _freed(game: Game, move: Move) -> int:
    """How many pyramid cards ``move`` uncovers."""
    slots = {i for i, card in enumerate(game.pyramid) if card in move.cards}
    left = [card is not None and i not in slots for i, card in enumerate(game.pyramid)]
    return sum(
        1
        for i in range(PYRAMID_SIZE)
        if left[i]
        and COVERED_BY[i]
        and any(j in slots for j in COVERED_BY[i])
        and not any(left[j] for j in COVERED_BY[i])
    )


def choose_move(game: Game) -> Move | None:
    """The greedy player's move in this position (the module docstring's policy), or None
    when the game is over."""
    moves = game.legal_moves
    if not moves:
        return None
    pairs = []
    for move in moves:
        if move.op is Op.REMOVE and len(move.cards) == 1:
            return move  # Kings come first in the engine's order
        if move.op is Op.REMOVE:
            pairs.append(move)
    if pairs:
        # max() keeps the first of equal scores: ties go to the engine's order.
        return max(pairs, key=lambda move: _freed(game, move))
    return moves[-1]  # draw or recycle, the only other move


def play_greedy(game: Game) -> Game:
    """Play the greedy policy from the game's position until the game ends; returns the game
    (the same object, with the moves played on it)."""
    while (move := choose_move(game)) is not None:
        game.play(move)
    return game


# --- the fast version --------------------------------------------------------------------

# Bit i of a mask is pyramid slot i.
_BITS = tuple(1 << i for i in range(PYRAMID_SIZE))


def _free_mask(pyr: int) -> int:
    """The free pyramid slots: present, with both covering slots empty (``free_pyramid`` in C)."""
    covered = ((((pyr >> 1) | (pyr >> 2)) & 0x1)
               | (((pyr >> 2) | (pyr >> 3)) & 0x6)
               | (((pyr >> 3) | (pyr >> 4)) & 0x38)
               | (((pyr >> 4) | (pyr >> 5)) & 0x3C0)
               | (((pyr >> 5) | (pyr >> 6)) & 0x7C00)
               | (((pyr >> 6) | (pyr >> 7)) & 0x1F8000))
    return pyr & ~covered


def _simulate(deal: Deal, goal: Goal, passes: int, record: list[Move] | None = None) -> bool:
    """Play the policy on a compact position; True when it wins. With ``record``, the moves
    are appended to it (the game may go on past where ``Game`` would call it lost: a pyramid
    that can never be cleared stays uncleared, so the verdict is the same)."""
    values = [card.rank for card in deal.pyramid]
    stock = [card.rank for card in reversed(deal.stock)]  # top last: pop() draws
    waste: list[int] = []
    stock_cards = list(reversed(deal.stock))
    waste_cards: list[Card] = []
    pyr = (1 << PYRAMID_SIZE) - 1
    pass_number = 1
    wholedeck = goal is Goal.WHOLE_DECK
    while True:
        if pyr == 0 and (not wholedeck or not (stock or waste)):
            return True
        free_mask = _free_mask(pyr)
        free = []  # the free slots, apex first
        rest = free_mask
        while rest:
            low = rest & -rest
            free.append(low.bit_length() - 1)
            rest ^= low
        st = stock[-1] if stock else 0
        wt = waste[-1] if waste else 0
        # 1. Kings, in the engine's order: pyramid apex first, stock top, waste top.
        king = next((i for i in free if values[i] == 13), None)
        if king is not None:
            pyr &= ~_BITS[king]
            if record is not None:
                record.append(Move(Op.REMOVE, (deal.pyramid[king],)))
            continue
        if st == 13 or wt == 13:
            if st == 13:
                stock.pop()
                card = stock_cards.pop()
            else:
                waste.pop()
                card = waste_cards.pop()
            if record is not None:
                record.append(Move(Op.REMOVE, (card,)))
            continue
        # 2. The pair that uncovers most pyramid cards; the first of equals in the engine's
        # order (pyramid i with j > i, then pyramid i with the stock top, the waste top).
        best: tuple[int | str, int | str] | None = None  # pyramid indexes, "stock", "waste"
        best_score = -1
        for k, i in enumerate(free):
            want = 13 - values[i]
            for j in free[k + 1:]:
                if values[j] == want:
                    after = pyr & ~_BITS[i] & ~_BITS[j]
                    score = (_free_mask(after) & ~free_mask).bit_count()
                    if score > best_score:
                        best, best_score = (i, j), score
            if st == want or wt == want:
                score = (_free_mask(pyr & ~_BITS[i]) & ~free_mask).bit_count()
                if score > best_score:
                    best, best_score = ((i, "stock") if st == want else (i, "waste")), score
        if best is None and st and wt and st + wt == 13:
            best = ("stock", "waste")
        if best is not None:
            removed = []
            for where in best:
                if isinstance(where, int):
                    pyr &= ~_BITS[where]
                    removed.append(deal.pyramid[where])
                elif where == "stock":
                    stock.pop()
                    removed.append(stock_cards.pop())
                else:
                    waste.pop()
                    removed.append(waste_cards.pop())
            if record is not None:
                record.append(Move(Op.REMOVE, tuple(removed)))
            continue
        # 3. Draw, or recycle, or the game is over.
        if stock:
            waste.append(stock.pop())
            waste_cards.append(stock_cards.pop())
            if record is not None:
                record.append(Move(Op.DRAW))
        elif waste and pass_number < passes:
            stock, waste = waste[::-1], []
            stock_cards, waste_cards = waste_cards[::-1], []
            pass_number += 1
            if record is not None:
                record.append(Move(Op.RECYCLE))
        else:
            return False


def greedy_wins(deal: Deal, goal: Goal | str = Goal.STANDARD, passes: int = 3) -> bool:
    """Does the greedy player win this deal? The same play as ``play_greedy``, much faster."""
    return _simulate(deal, parse_goal(goal), parse_passes(passes))


__all__ = ["choose_move", "greedy_wins", "play_greedy"]
