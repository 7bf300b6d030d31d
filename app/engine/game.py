"""A game of Pyramid: the position, the legal moves, play and undo, and the outcome.

The rules are RULES.md's and live only here: the web pages, the CLI, the statistics and the
solver's tests all ask this module what is legal and when a game is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum, StrEnum
from itertools import combinations
from typing import NamedTuple

from .cards import Card
from .deal import COVERED_BY, PYRAMID_SIZE, Deal
from .moves import Move, Op

PASS_CHOICES = (1, 2, 3)
DEFAULT_PASSES = 3


class Goal(StrEnum):
    """What it takes to win: the 28 pyramid cards, or all 52 cards."""

    STANDARD = "standard"
    WHOLE_DECK = "wholedeck"

    @property
    def label(self) -> str:
        return "Standard" if self is Goal.STANDARD else "Whole deck"

    @property
    def cards_to_clear(self) -> int:
        return PYRAMID_SIZE if self is Goal.STANDARD else 52


class Termination(Enum):
    """Why a game ended; the first two are wins."""

    PYRAMID_CLEARED = "pyramid_cleared"
    DECK_CLEARED = "deck_cleared"
    NO_MOVES = "no_moves"
    PYRAMID_STUCK = "pyramid_stuck"
    DECK_STUCK = "deck_stuck"


REASONS = {
    Termination.PYRAMID_CLEARED: "The pyramid is cleared.",
    Termination.DECK_CLEARED: "All 52 cards are cleared.",
    Termination.NO_MOVES: "No move is left.",
    Termination.PYRAMID_STUCK: (
        "No free pyramid card can ever be removed: none is a King, no two make 13, "
        "and no card in the stock or waste makes 13 with one."
    ),
    Termination.DECK_STUCK: (
        "The pyramid is cleared, but no card left in the stock and waste is a King "
        "and no two of them make 13."
    ),
}


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination

    @property
    def won(self) -> bool:
        return self.termination in (Termination.PYRAMID_CLEARED, Termination.DECK_CLEARED)

    @property
    def result(self) -> str:
        """``won`` or ``lost``."""
        return "won" if self.won else "lost"

    @property
    def reason(self) -> str:
        return REASONS[self.termination]


class IllegalMove(ValueError):
    """A move the rules do not allow now; the message is written for the player."""


class GameSetupError(ValueError):
    """A goal or pass count that is not one of the game's choices."""


class Location(NamedTuple):
    """Where a card is: ``pile`` is pyramid, stock or waste; ``index`` is the pyramid position,
    or the depth in the stock or waste (0 = top)."""

    pile: str
    index: int


class _Snapshot(NamedTuple):
    pyramid: tuple[Card | None, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    pass_number: int
    outcome: Outcome | None


def parse_goal(goal: Goal | str) -> Goal:
    try:
        return Goal(goal)
    except ValueError:
        raise GameSetupError(
            f"goal must be 'standard' or 'wholedeck', not {goal!r}"
        ) from None


def parse_passes(passes: int | str) -> int:
    try:
        value = int(passes)
    except (TypeError, ValueError):
        value = 0
    if isinstance(passes, bool) or value not in PASS_CHOICES or str(passes).strip() != str(value):
        raise GameSetupError(f"passes must be 1, 2 or 3, not {passes!r}")
    return value


class Game:
    """One game: a deal, a goal, a number of passes, and the moves played so far.

    ``pyramid`` holds 28 slots (None where a card is gone), ``stock`` is top card first,
    ``waste`` has its top card last. A game is fully determined by (deal, goal, passes, moves),
    which is what ``replay`` rebuilds it from and what equality compares.
    """

    def __init__(self, deal: Deal, goal: Goal | str = Goal.STANDARD,
                 passes: int = DEFAULT_PASSES) -> None:
        self.deal = deal
        self.goal = parse_goal(goal)
        self.passes = parse_passes(passes)
        self.pyramid: list[Card | None] = list(deal.pyramid)
        self.stock: list[Card] = list(deal.stock)
        self.waste: list[Card] = []
        self.pass_number = 1
        self.moves: list[Move] = []
        self._undo: list[_Snapshot] = []
        self._outcome = self._compute_outcome()

    @classmethod
    def replay(cls, deal: Deal, goal: Goal | str, passes: int, moves: Iterable[Move]) -> Game:
        """Rebuild a game from its move list; an illegal move says which one it was."""
        game = cls(deal, goal, passes)
        for number, move in enumerate(moves, start=1):
            try:
                game.play(move)
            except IllegalMove as exc:
                raise IllegalMove(f"move {number} ({move}): {exc}") from None
        return game

    def copy(self) -> Game:
        return Game.replay(self.deal, self.goal, self.passes, self.moves)

    # --- what is where ------------------------------------------------------------------
    @property
    def stock_top(self) -> Card | None:
        return self.stock[0] if self.stock else None

    @property
    def waste_top(self) -> Card | None:
        return self.waste[-1] if self.waste else None

    def is_free_position(self, index: int) -> bool:
        """A pyramid card is free when both cards covering it are gone."""
        return all(self.pyramid[i] is None for i in COVERED_BY[index])

    def free_pyramid(self) -> list[tuple[int, Card]]:
        return [(i, card) for i, card in enumerate(self.pyramid)
                if card is not None and self.is_free_position(i)]

    def free_cards(self) -> list[Card]:
        """Every card a move may use now: free pyramid cards, the stock top, the waste top."""
        cards = [card for _, card in self.free_pyramid()]
        cards += [c for c in (self.stock_top, self.waste_top) if c is not None]
        return cards

    def location(self, card: Card) -> Location | None:
        """Where ``card`` is, or None once it is removed."""
        if card in self.pyramid:
            return Location("pyramid", self.pyramid.index(card))
        if card in self.stock:
            return Location("stock", self.stock.index(card))
        if card in self.waste:
            return Location("waste", len(self.waste) - 1 - self.waste.index(card))
        return None

    @property
    def pyramid_left(self) -> int:
        return sum(card is not None for card in self.pyramid)

    @property
    def cards_removed(self) -> int:
        return 52 - self.pyramid_left - len(self.stock) - len(self.waste)

    @property
    def passes_left(self) -> int:
        """Passes not yet started, i.e. recycles still allowed."""
        return self.passes - self.pass_number

    # --- moves --------------------------------------------------------------------------
    @property
    def legal_moves(self) -> list[Move]:
        """Kings first, then pairs, then draw and recycle. Empty once the game is over."""
        if self._outcome is not None:
            return []
        return list(self._generate_moves())

    def _generate_moves(self) -> Iterator[Move]:
        free = self.free_cards()
        for card in free:
            if card.is_king:
                yield Move(Op.REMOVE, (card,))
        for a, b in combinations(free, 2):
            if a.pairs_with(b):
                yield Move(Op.REMOVE, (a, b))
        if self.stock:
            yield Move(Op.DRAW)
        elif self.waste and self.passes_left > 0:
            yield Move(Op.RECYCLE)

    def is_legal(self, move: Move) -> bool:
        return self._outcome is None and self._why_illegal(move) is None

    def _why_illegal(self, move: Move) -> str | None:
        if move.op is Op.DRAW:
            if self.stock:
                return None
            if not self.waste:
                return "The stock and the waste are both empty: there is nothing to draw."
            if self.passes_left > 0:
                return "The stock is empty: recycle the waste to start the next pass."
            return "The stock is empty and no passes are left."
        if move.op is Op.RECYCLE:
            if self.stock:
                return (f"The stock still has {len(self.stock)} cards: "
                        "recycle only when it is empty.")
            if not self.waste:
                return "The waste is empty: there is nothing to recycle."
            if self.passes_left <= 0:
                return f"No passes left: this game allows {self.passes} pass" + (
                    "es." if self.passes > 1 else ".")
            return None
        for card in move.cards:
            problem = self._why_not_free(card)
            if problem:
                return problem
        if len(move.cards) == 1:
            card = move.cards[0]
            if not card.is_king:
                return f"{card} is not a King: only a King is removed on its own."
            return None
        a, b = move.cards
        total = a.rank + b.rank
        if total != 13:
            return f"{a} and {b} make {total}, not 13."
        return None

    def _why_not_free(self, card: Card) -> str | None:
        where = self.location(card)
        if where is None:
            return f"{card} has already been removed."
        if where.pile == "pyramid":
            covers = [c for i in COVERED_BY[where.index] if (c := self.pyramid[i]) is not None]
            if covers:
                return f"{card} is covered by {' and '.join(c.name for c in covers)}."
            return None
        if where.index > 0:
            # Say no more: where a face-down stock card lies is hidden from the player.
            return (f"{card} is not a free card: only the top cards of the stock and the "
                    "waste can be played.")
        return None

    def play(self, move: Move) -> None:
        """Play ``move`` or raise ``IllegalMove`` and leave the game as it was."""
        if self._outcome is not None:
            raise IllegalMove(f"The game is over: {self._outcome.reason}")
        problem = self._why_illegal(move)
        if problem:
            raise IllegalMove(problem)
        self._undo.append(_Snapshot(tuple(self.pyramid), tuple(self.stock), tuple(self.waste),
                                    self.pass_number, self._outcome))
        if move.op is Op.DRAW:
            self.waste.append(self.stock.pop(0))
        elif move.op is Op.RECYCLE:
            # The waste turned over: the card drawn first is the stock's top again.
            self.stock = self.waste
            self.waste = []
            self.pass_number += 1
        else:
            for card in move.cards:
                where = self.location(card)
                assert where is not None
                if where.pile == "pyramid":
                    self.pyramid[where.index] = None
                elif where.pile == "stock":
                    self.stock.pop(0)
                else:
                    self.waste.pop()
        self.moves.append(move)
        self._outcome = self._compute_outcome()

    def undo(self) -> Move:
        """Take back the last move (also after the game has ended) and return it."""
        if not self._undo:
            raise IllegalMove("There is no move to undo.")
        snap = self._undo.pop()
        self.pyramid = list(snap.pyramid)
        self.stock = list(snap.stock)
        self.waste = list(snap.waste)
        self.pass_number = snap.pass_number
        self._outcome = snap.outcome
        return self.moves.pop()

    # --- the end ------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """None while the game goes on, else won or lost with RULES.md's reason."""
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    def _compute_outcome(self) -> Outcome | None:
        left = [card for card in self.pyramid if card is not None]
        rest = self.stock + self.waste
        if not left:
            if self.goal is Goal.STANDARD:
                return Outcome(Termination.PYRAMID_CLEARED)
            if not rest:
                return Outcome(Termination.DECK_CLEARED)
        if next(self._generate_moves(), None) is None:
            return Outcome(Termination.NO_MOVES)
        if left:
            free = [card for _, card in self.free_pyramid()]
            removable = (
                any(card.is_king for card in free)
                or any(a.pairs_with(b) for a, b in combinations(free, 2))
                or any(a.pairs_with(b) for a in free for b in rest)
            )
            if not removable:
                return Outcome(Termination.PYRAMID_STUCK)
        elif not (any(card.is_king for card in rest)
                  or any(a.pairs_with(b) for a, b in combinations(rest, 2))):
            return Outcome(Termination.DECK_STUCK)
        return None

    # --- identity -----------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self.deal, self.goal, self.passes, self.moves) == (
            other.deal, other.goal, other.passes, other.moves)

    def __hash__(self) -> int:  # pragma: no cover - games are mutable; hash by identity
        return id(self)

    def __repr__(self) -> str:
        label = f"deal {self.deal.number}" if self.deal.number is not None else "custom deal"
        return (f"<Game {label} {self.goal.value} passes={self.passes} "
                f"moves={len(self.moves)} outcome={self._outcome and self._outcome.result}>")
