"""A game of Pyramid: the position, the legal moves, play and undo, and the outcome.

The rules are RULES.md's and live only here: the web pages, the CLI, the statistics and the
solver's tests all ask this module what is legal and when a game is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations
from typing import NamedTuple

from .cards import KING, PAIR_SUM, Card
from .deal import COVERED_BY, PYRAMID_SIZE, Deal
from .moves import Move, Op
from .outcome import GameStatus, Outcome, Termination, game_over
from .refusals import Code, Refusal, Refused, refusal
from .variant import DEFAULT_PASSES, Goal, Variant, parse_goal, parse_passes

_UPPER = tuple((index, *covers) for index, covers in enumerate(COVERED_BY) if covers)
"""(position, the two positions covering it) for the six upper rows: what ``free_pyramid``
checks without a generator per card, since it runs several times per move."""
_BOTTOM = tuple(index for index, covers in enumerate(COVERED_BY) if not covers)


class IllegalMove(Refused):
    """A move the rules do not allow now: ``refusal`` says why (``Game.why_illegal``'s).
    ``number``: in ``Game.replay``, which move of the list it was (1-based), else None."""

    number: int | None = None


class Location(NamedTuple):
    """Where a card is: ``pile`` is pyramid, stock or waste; ``index`` is the pyramid position,
    or the depth in the stock or waste (0 = top)."""

    pile: str
    # The field hides tuple.index (a NamedTuple's method), which nothing here calls.
    index: int  # type: ignore[assignment]


class _Snapshot(NamedTuple):
    pyramid: tuple[Card | None, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    pass_number: int
    outcome: Outcome | None


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
        # Where each pyramid card was dealt: pyramid cards never move, so ``play`` finds a
        # card with one look-up instead of searching the piles.
        self._dealt_at = {card: index for index, card in enumerate(deal.pyramid)}
        self._outcome = self._compute_outcome()

    @classmethod
    def replay(cls, deal: Deal, goal: Goal | str, passes: int, moves: Iterable[Move]) -> Game:
        """Rebuild a game from its move list; an illegal move says which one it was."""
        game = cls(deal, goal, passes)
        for number, move in enumerate(moves, start=1):
            try:
                game.play(move)
            except IllegalMove as exc:
                refused = IllegalMove(exc.refusal, f"move {number} ({move}): {exc}")
                refused.number = number
                raise refused from None
        return game

    def copy(self) -> Game:
        """An independent game equal to this one, with the same moves to undo. (Equal to
        ``Game.replay`` of the same moves, without playing them again.)"""
        game = Game.__new__(Game)
        game.deal, game.goal, game.passes = self.deal, self.goal, self.passes
        game.pyramid = list(self.pyramid)
        game.stock, game.waste = list(self.stock), list(self.waste)
        game.pass_number = self.pass_number
        game.moves = list(self.moves)
        game._undo = list(self._undo)  # snapshots are immutable tuples: shared safely
        game._dealt_at = self._dealt_at  # never changed after __init__
        game._outcome = self._outcome
        return game

    # --- what is where ------------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        return Variant(self.goal, self.passes)

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
        """The free pyramid cards with their positions, apex first."""
        pyramid = self.pyramid
        free = [(i, card) for i, a, b in _UPPER
                if (card := pyramid[i]) is not None and pyramid[a] is None and pyramid[b] is None]
        free += [(i, card) for i in _BOTTOM if (card := pyramid[i]) is not None]
        return free

    def _free_pyramid_cards(self) -> list[Card]:
        pyramid = self.pyramid
        free = [card for i, a, b in _UPPER
                if (card := pyramid[i]) is not None and pyramid[a] is None and pyramid[b] is None]
        free += [card for i in _BOTTOM if (card := pyramid[i]) is not None]
        return free

    def free_cards(self) -> list[Card]:
        """Every card a move may use now: free pyramid cards, the stock top, the waste top."""
        cards = self._free_pyramid_cards()
        if self.stock:
            cards.append(self.stock[0])
        if self.waste:
            cards.append(self.waste[-1])
        return cards

    def location(self, card: Card) -> Location | None:
        """Where ``card`` is, or None once it is removed."""
        index = self._dealt_at.get(card)
        if index is not None:  # a pyramid card never moves: at its place, or removed
            return Location("pyramid", index) if self.pyramid[index] is not None else None
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
    def cards_cleared(self) -> int:
        """Cards gone towards the goal: pyramid cards (of 28) for standard, all (of 52) for
        whole deck. The board's counter and the statistics both count this."""
        if self.goal is Goal.WHOLE_DECK:
            return self.cards_removed
        return PYRAMID_SIZE - self.pyramid_left

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
            if card.rank == KING:
                yield Move(Op.REMOVE, (card,))
        for a, b in combinations(free, 2):
            if a.rank + b.rank == PAIR_SUM:
                yield Move(Op.REMOVE, (a, b))
        if self.stock:
            yield Move(Op.DRAW)
        elif self.waste and self.passes_left > 0:
            yield Move(Op.RECYCLE)

    def is_legal(self, move: Move) -> bool:
        return self._outcome is None and self.why_illegal(move) is None

    def why_illegal(self, move: Move) -> Refusal | None:
        """None when ``move`` is legal in this position, else why not (a ``Refusal``; an ended
        game's is ``game_over``'s, which ``play`` gives first)."""
        if move.op is Op.DRAW:
            if self.stock:
                return None
            if not self.waste:
                return refusal(Code.NOTHING_TO_DRAW)
            if self.passes_left > 0:
                return refusal(Code.RECYCLE_FIRST)
            return refusal(Code.STOCK_EXHAUSTED)
        if move.op is Op.RECYCLE:
            if self.stock:
                return refusal(Code.STOCK_NOT_EMPTY, count=len(self.stock))
            if not self.waste:
                return refusal(Code.WASTE_EMPTY)
            if self.passes_left <= 0:
                return refusal(Code.NO_PASSES_LEFT, passes=self.passes)
            return None
        for card in move.cards:
            problem = self.why_not_free(card)
            if problem:
                return problem
        if len(move.cards) == 1:
            card = move.cards[0]
            if not card.is_king:
                return refusal(Code.NOT_A_KING, card=card.name)
            return None
        a, b = move.cards
        total = a.rank + b.rank
        if total != PAIR_SUM:
            return refusal(Code.NOT_THIRTEEN, a=a.name, b=b.name, total=total)
        return None

    def why_not_free(self, card: Card) -> Refusal | None:
        """None when ``card`` may be used in a move now, else why not: ``already_removed``,
        ``covered`` (by the one or two cards on it) or ``not_free``."""
        where = self.location(card)
        if where is None:
            return refusal(Code.ALREADY_REMOVED, card=card.name)
        if where.pile == "pyramid":
            covers = [c for i in COVERED_BY[where.index] if (c := self.pyramid[i]) is not None]
            if covers:
                return refusal(Code.COVERED, card=card.name, by=[c.name for c in covers])
            return None
        if where.index > 0:
            # Say no more: where a face-down stock card lies is hidden from the player.
            return refusal(Code.NOT_FREE, card=card.name)
        return None

    def _free_places(self, cards: tuple[Card, ...]) -> list[int | str] | None:
        """Where each card of a removal is when all of them are free cards: a pyramid
        position, "stock" (its top) or "waste" (its top); None when any of them is not.

        The quick test ``play`` runs first: a card is looked up where it was dealt and on the
        two tops only. None sends ``play`` to ``why_illegal``, the one place that makes a
        refusal (and that decides, by searching every pile, whatever this leaves open)."""
        pyramid, stock, waste = self.pyramid, self.stock, self.waste
        places: list[int | str] = []
        for card in cards:
            index = self._dealt_at.get(card)
            if index is not None and pyramid[index] == card:
                for i in COVERED_BY[index]:
                    if pyramid[i] is not None:
                        return None
                places.append(index)
            elif index is None and stock and stock[0] == card:
                places.append("stock")
            elif index is None and waste and waste[-1] == card:
                places.append("waste")
            else:
                return None
        return places

    def play(self, move: Move) -> None:
        """Play ``move`` or raise ``IllegalMove`` and leave the game as it was."""
        if self._outcome is not None:
            raise IllegalMove(game_over(self._outcome.status, self._outcome))
        op = move.op
        places = self._free_places(move.cards) if op is Op.REMOVE else None
        # A King alone makes 13 too: one sum checks both kinds of removal.
        if places is None or sum(card.rank for card in move.cards) != PAIR_SUM:
            problem = self.why_illegal(move)
            if problem:
                raise IllegalMove(problem)
        self._undo.append(_Snapshot(tuple(self.pyramid), tuple(self.stock), tuple(self.waste),
                                    self.pass_number, self._outcome))
        if op is Op.DRAW:
            self.waste.append(self.stock.pop(0))
        elif op is Op.RECYCLE:
            # The waste turned over: the card drawn first is the stock's top again.
            self.stock = self.waste
            self.waste = []
            self.pass_number += 1
        else:
            if places is None:  # legal, though not found by the quick look-up
                places = []
                for card in move.cards:
                    where = self.location(card)
                    assert where is not None
                    places.append(where.index if where.pile == "pyramid" else where.pile)
            for place in places:
                if isinstance(place, int):
                    self.pyramid[place] = None
                elif place == "stock":
                    self.stock.pop(0)
                else:
                    self.waste.pop()
        self.moves.append(move)
        self._outcome = self._compute_outcome()

    def undo(self) -> Move:
        """Take back the last move (also after the game has ended) and return it."""
        if not self._undo:
            raise IllegalMove(Code.NOTHING_TO_UNDO)
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

    @property
    def status(self) -> GameStatus:
        """Playing, won or lost (abandoned is the store's: the engine never abandons)."""
        return GameStatus.PLAYING if self._outcome is None else self._outcome.status

    def _compute_outcome(self) -> Outcome | None:
        # By values: a King is removable, and two different cards pair exactly when their
        # values are v and 13 - v (never the same value, 13 being odd). It runs after every
        # move, replays included, so it looks at sets of values, not at pairs of cards.
        left = any(card is not None for card in self.pyramid)
        stock, waste = self.stock, self.waste
        if not left:
            if self.goal is Goal.STANDARD:
                return Outcome(Termination.PYRAMID_CLEARED)
            if not stock and not waste:
                return Outcome(Termination.DECK_CLEARED)
        free = {card.rank for card in self._free_pyramid_cards()}
        if not (stock or (waste and self.passes_left > 0)):
            # No draw and no recycle: a move needs a King or a pair among the free cards.
            tops = free | {waste[-1].rank} if waste else free
            if not _removable(tops):
                return Outcome(Termination.NO_MOVES)
        rest = {card.rank for card in stock} | {card.rank for card in waste}
        if left:
            if not (_removable(free) or any(PAIR_SUM - value in rest for value in free)):
                return Outcome(Termination.PYRAMID_STUCK)
        elif not _removable(rest):
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
                f"moves={len(self.moves)} status={self.status.value}>")


def _removable(values: set[int]) -> bool:
    """Whether cards of these values hold a King or a pair making 13."""
    return KING in values or any(PAIR_SUM - value in values for value in values)
