"""Deals: the 28 pyramid cards and the 24 stock cards, and PySolFC's deal numbers.

Deal numbers follow PySolFC's "Pyramid" exactly (docs/engine.md says how): the
shuffle comes from ``pysol_cards``, PySolFC's own published generators, so deal N here is
game N there, on every machine and Python version.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pysol_cards.cards import ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from .cards import FULL_DECK, RANKS, SUITS, Card, CardError
from .refusals import Code, Refused

PYRAMID_ROWS = 7
PYRAMID_SIZE = 28
STOCK_SIZE = 24
MIN_DEAL_NUMBER = 1
MAX_DEAL_NUMBER = 10**20 - 1
DEAL_NUMBER_PATTERN = r"[1-9][0-9]{0,19}"
"""A deal number as links, the API and the stored games write it: plain ASCII digits with no
sign, separator or leading zero. With at most 20 digits it is always in range (the last deal
is twenty nines)."""
_CANONICAL = re.compile(DEAL_NUMBER_PATTERN, re.ASCII)
TYPED_NUMBER_MAX_LENGTH = 64
"""Longer typed text is refused before any conversion."""
SHOWN_TEXT_MAX_LENGTH = 30
"""A longer text that is not a deal number is not repeated in the refusal."""
RANGE = {"first": MIN_DEAL_NUMBER, "last": MAX_DEAL_NUMBER}
"""The fields every refusal of a deal number carries: the range of deal numbers."""
MS_DEALS_BELOW = 32000
"""PySolFC deals numbers below this with the Microsoft FreeCell generator."""


class DealError(Refused):
    """A deal number, JSON or text that does not describe a valid deal."""


def row_col(index: int) -> tuple[int, int]:
    """Pyramid position ``index`` (0..27, apex first) as (row, column)."""
    row = 0
    while index > row:
        index -= row + 1
        row += 1
    return row, index


def position(row: int, col: int) -> int:
    """The pyramid index of (row, column)."""
    return row * (row + 1) // 2 + col


def covering(index: int) -> tuple[int, ...]:
    """The pyramid positions that cover ``index`` (none for the bottom row)."""
    row, col = row_col(index)
    if row == PYRAMID_ROWS - 1:
        return ()
    return (position(row + 1, col), position(row + 1, col + 1))


COVERED_BY: tuple[tuple[int, ...], ...] = tuple(covering(i) for i in range(PYRAMID_SIZE))


def _in_range(number: int) -> int:
    if not MIN_DEAL_NUMBER <= number <= MAX_DEAL_NUMBER:
        # A huge int is not written out: past 4,300 digits str() itself raises.
        if abs(number) >= 10**40:
            raise DealError(Code.DEAL_NUMBER_TOO_LONG, **RANGE)
        raise DealError(Code.DEAL_OUT_OF_RANGE, number=number, **RANGE)
    return number


def _pysol_order() -> list[Card]:
    """PySolFC's unshuffled pack: clubs, spades, hearts, diamonds, each Ace to King."""
    return [Card(rank, suit) for suit in "CSHD" for rank in range(1, 14)]


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal: ``pyramid`` row by row from the apex, ``stock`` top card first.

    ``number`` is the PySolFC deal number when the deal came from one, else None (a custom deal).
    Two deals are equal when their cards are: the number is a label, not part of the deal.
    """

    pyramid: tuple[Card, ...]
    stock: tuple[Card, ...]
    number: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if len(self.pyramid) != PYRAMID_SIZE:
            raise DealError(Code.DEAL_PART_SIZE, part="pyramid", size=PYRAMID_SIZE,
                            count=len(self.pyramid))
        if len(self.stock) != STOCK_SIZE:
            raise DealError(Code.DEAL_PART_SIZE, part="stock", size=STOCK_SIZE,
                            count=len(self.stock))
        seen: set[Card] = set()
        for card in self.pyramid + self.stock:
            if card in seen:
                raise DealError(Code.CARD_TWICE, card=card.name)
            seen.add(card)
        # 52 distinct cards out of 52 means every card is there exactly once.

    # --- deal numbers ------------------------------------------------------------------
    @classmethod
    def from_number(cls, number: int) -> Deal:
        """PySolFC's Pyramid deal ``number`` (1 .. 10**20 - 1)."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise DealError(Code.DEAL_NUMBER_NOT_INT, value=number)
        deal = _dealt(_in_range(number))
        return deal if cls is Deal else cls(deal.pyramid, deal.stock, number)

    @staticmethod
    def parse_number(text: str | int) -> int:
        """Read a deal number as a person types it: spaces, thousands separators (``1,234``,
        ``1_234``) and a leading ``#`` are fine. Errors give the range."""
        if isinstance(text, int) and not isinstance(text, bool):
            return _in_range(text)
        if not isinstance(text, str):
            raise DealError(Code.NOT_A_DEAL_NUMBER, text=text, **RANGE)
        # Length first: int() of thousands of digits is slow, and past 4,300 digits it
        # raises a ValueError of its own. The widest deal, with separators, is 26 chars.
        if len(text) > TYPED_NUMBER_MAX_LENGTH:
            raise DealError(Code.DEAL_TEXT_TOO_LONG, length=len(text), **RANGE)
        cleaned = text.strip().replace(",", "").replace("_", "").lstrip("#")
        if not (cleaned.isascii() and cleaned.isdigit()):
            raise DealError(Code.NOT_A_DEAL_NUMBER, text=text, **RANGE)
        return _in_range(int(cleaned))

    @staticmethod
    def parse_canonical_number(text: str) -> int:
        """Read a deal number written the one way links and the API write it
        (``DEAL_NUMBER_PATTERN``), so that each deal has one link."""
        if not isinstance(text, str) or not _CANONICAL.fullmatch(text):
            if isinstance(text, str) and len(text) > SHOWN_TEXT_MAX_LENGTH:
                raise DealError(Code.NOT_PLAIN_DIGITS_LONG, **RANGE)
            raise DealError(Code.NOT_PLAIN_DIGITS, text=text, **RANGE)
        return int(text)  # 20 digits at most: always in range

    # --- JSON form (RULES.md) -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "pyramid": [card.name for card in self.pyramid],
            "stock": [card.name for card in self.stock],
        }
        if self.number is not None:
            data["deal"] = self.number
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> Deal:
        if not isinstance(data, dict):
            raise DealError(Code.DEAL_NOT_OBJECT)
        missing = [key for key in ("pyramid", "stock") if key not in data]
        if missing:
            raise DealError(Code.DEAL_MISSING, parts=missing)
        parts = []
        for key, size in (("pyramid", PYRAMID_SIZE), ("stock", STOCK_SIZE)):
            names = data[key]
            if not isinstance(names, list):
                raise DealError(Code.DEAL_PART_NOT_LIST, part=key, size=size)
            if len(names) != size:
                raise DealError(Code.DEAL_PART_SIZE, part=key, size=size, count=len(names))
            cards = []
            for i, name in enumerate(names):
                try:
                    cards.append(Card.parse(name))
                except CardError as exc:
                    raise DealError(Code.DEAL_NOT_A_CARD, f"{key}[{i}]: {exc}", part=key,
                                    index=i, value=name) from None
            parts.append(tuple(cards))
        number = data.get("deal")
        if number is not None:
            number = cls.parse_number(number)
        deal = cls._checked(parts[0], parts[1], None)
        if number is not None and cls.from_number(number) != deal:
            raise DealError(Code.NOT_THAT_DEAL, number=number)
        return cls(deal.pyramid, deal.stock, number)

    @classmethod
    def from_json(cls, text: str) -> Deal:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DealError(Code.DEAL_NOT_JSON, f"the deal is not valid JSON: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def _checked(
        cls, pyramid: tuple[Card, ...], stock: tuple[Card, ...], number: int | None
    ) -> Deal:
        """Build a deal, naming missing and doubled cards rather than just counting them."""
        counts: dict[Card, int] = {}
        for card in pyramid + stock:
            counts[card] = counts.get(card, 0) + 1
        doubled = [c.name for c in FULL_DECK if counts.get(c, 0) > 1]
        absent = [c.name for c in FULL_DECK if c not in counts]
        if doubled or absent:
            raise DealError(Code.DEAL_CARDS_WRONG, doubled=doubled, missing=absent)
        return cls(pyramid, stock, number)

    # --- one-line text form ---------------------------------------------------------------
    def to_text(self) -> str:
        """``JD2D9H…QH/4HAC…6H``: the 28 pyramid cards, a slash, the 24 stock cards."""
        return "".join(c.name for c in self.pyramid) + "/" + "".join(c.name for c in self.stock)

    @classmethod
    def from_text(cls, text: str) -> Deal:
        """Read ``to_text``'s form; spaces and commas between cards are allowed."""
        if not isinstance(text, str) or text.count("/") != 1:
            raise DealError(Code.DEAL_TEXT_SHAPE)
        parts = []
        for label, chunk, size in zip(
            ("pyramid", "stock"), text.split("/"), (PYRAMID_SIZE, STOCK_SIZE), strict=True
        ):
            compact = re.sub(r"[\s,]+", "", chunk).upper().replace("10", "T")
            if len(compact) % 2 or not re.fullmatch(f"([{RANKS}][{SUITS}])*", compact):
                at = next((i for i in range(0, len(compact), 2)
                           if not re.fullmatch(f"[{RANKS}][{SUITS}]", compact[i : i + 2])),
                          len(compact) - 1)
                bad = compact[at : at + 2]
                raise DealError(Code.DEAL_NOT_A_CARD, f"{label}: {bad!r} is not a card",
                                part=label, index=at // 2, value=bad)
            cards = tuple(Card.parse(compact[i : i + 2]) for i in range(0, len(compact), 2))
            if len(cards) != size:
                raise DealError(Code.DEAL_PART_SIZE, part=label, size=size, count=len(cards))
            parts.append(cards)
        return cls._checked(parts[0], parts[1], None)

    def __str__(self) -> str:
        return self.to_text()


DEALS_KEPT = 1024
"""Numbered deals kept dealt (about 3 kB each): the server deals the same few numbers again
and again (every request about a game rebuilds it from its deal), and a shuffle costs about
0.1 ms."""


@lru_cache(maxsize=DEALS_KEPT)
def _dealt(number: int) -> Deal:
    """PySolFC's deal ``number`` (already checked); a Deal is immutable, so one is shared."""
    cards = _pysol_order()
    if number < MS_DEALS_BELOW:
        rng: LCRandom31 | MTRandom = LCRandom31(number)
        cards = ms_rearrange(cards)
    else:
        rng = MTRandom(number)
    rng.shuffle(cards)
    # PySolFC deals from the end of the shuffled list.
    pyramid = tuple(cards[51 - k] for k in range(PYRAMID_SIZE))
    stock = tuple(cards[STOCK_SIZE - 1 - k] for k in range(STOCK_SIZE))
    return Deal(pyramid, stock, number)
