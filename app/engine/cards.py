"""Cards: ranks, suits, values and two-character names such as ``TD``.

A card is an immutable value. Each of the 52 cards also has an ``index`` (0..51) so the
solver can keep sets of cards as bitmasks.
"""

from __future__ import annotations

from dataclasses import dataclass

from .refusals import Code, Refused

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RANK_WORDS = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
KING = 13
PAIR_SUM = 13


class CardError(Refused):
    """A card name that does not name a card."""


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``rank`` is its value in the game: A=1 .. K=13."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13 or self.suit not in SUITS:
            raise CardError(Code.NO_SUCH_CARD, rank=self.rank, suit=self.suit)

    @classmethod
    def parse(cls, name: str) -> Card:
        """Read a name like ``TD`` or ``ks`` (``10D`` is accepted for ``TD``)."""
        if not isinstance(name, str):
            raise CardError(Code.CARD_NOT_TEXT, value=name)
        text = name.strip().upper()
        if text.startswith("10"):
            text = "T" + text[2:]
        if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
            raise CardError(Code.NOT_A_CARD, text=name)
        return cls(RANKS.index(text[0]) + 1, text[1])

    @property
    def name(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    @property
    def value(self) -> int:
        return self.rank

    @property
    def index(self) -> int:
        """0..51, suit by suit (clubs, diamonds, hearts, spades), Ace to King."""
        return SUITS.index(self.suit) * 13 + self.rank - 1

    @property
    def is_king(self) -> bool:
        return self.rank == KING

    @property
    def is_red(self) -> bool:
        return self.suit in "DH"

    @property
    def symbol(self) -> str:
        """Rank and suit symbol for display, e.g. ``10♦``."""
        rank = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return rank + SUIT_SYMBOLS[self.suit]

    @property
    def long_name(self) -> str:
        """The accessible name, e.g. ``Queen of hearts``."""
        return f"{RANK_WORDS[self.rank - 1]} of {SUIT_WORDS[self.suit]}"

    def pairs_with(self, other: Card) -> bool:
        return self.rank + other.rank == PAIR_SUM

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card.parse({self.name!r})"


FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
"""All 52 cards in ``index`` order."""
