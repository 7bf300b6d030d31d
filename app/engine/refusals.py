"""Refusals as values: why the engine says no, as a code and its fields, never as prose to parse.

Every "no" of the engine (a move the rules do not allow now, a card, move, deal, deal number
or rule set that is not one) is a ``Refusal``: a stable snake_case ``Code`` and the fields that
say which (``covered(card="AD", by=["3S", "5S"])``, ``not_thirteen(a="7D", b="AD", total=8)``).
The exceptions (``IllegalMove``, ``MoveError``, ``DealError``, ``CardError``,
``GameSetupError``) stay ``ValueError``s and carry theirs as ``.refusal``. Their ``str`` is an
English sentence (``ENGLISH``) for logs, the CLI and tests: nothing may parse it. The words a
player reads come from the catalogs, by code (``app/web/core/refusals.py`` on the server, the
page's words table in ``static/js/board/words.js``). The JS engine (static/js/engine/
refusals.js) has the same codes with the same fields; tests/engine/test_js_conformance.py
compares them.

Fields are plain JSON values: card names (``"TD"``), numbers, lists of names, and, for input
that is not what it should be, the value as it was given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Code(StrEnum):
    """Every refusal of the engine. The comment says its fields."""

    # A move the rules do not allow now (IllegalMove).
    NOTHING_TO_DRAW = "nothing_to_draw"
    RECYCLE_FIRST = "recycle_first"
    STOCK_EXHAUSTED = "stock_exhausted"
    STOCK_NOT_EMPTY = "stock_not_empty"  # count
    WASTE_EMPTY = "waste_empty"
    NO_PASSES_LEFT = "no_passes_left"  # passes
    ALREADY_REMOVED = "already_removed"  # card
    COVERED = "covered"  # card, by: the one or two cards on it
    NOT_FREE = "not_free"  # card: a stock or waste card under the top
    NOT_A_KING = "not_a_king"  # card
    NOT_THIRTEEN = "not_thirteen"  # a, b, total
    NOTHING_TO_UNDO = "nothing_to_undo"
    GAME_OVER = "game_over"  # status, termination (None: not known, or abandoned)
    # A card name (CardError).
    NO_SUCH_CARD = "no_such_card"  # rank, suit
    CARD_NOT_TEXT = "card_not_text"  # value
    NOT_A_CARD = "not_a_card"  # text
    # A move's text or JSON (MoveError).
    REMOVAL_CARDS = "removal_cards"
    SAME_CARD_TWICE = "same_card_twice"  # card
    TAKES_NO_CARDS = "takes_no_cards"  # op
    MOVE_NOT_TEXT = "move_not_text"  # value
    NOT_A_MOVE = "not_a_move"  # text
    MOVE_NOT_OBJECT = "move_not_object"
    UNKNOWN_OP = "unknown_op"  # op
    UNEXPECTED_FIELDS = "unexpected_fields"  # fields
    MOVE_NOT_JSON = "move_not_json"
    # A deal number (DealError). first, last: the range of deal numbers.
    DEAL_OUT_OF_RANGE = "deal_out_of_range"  # number, first, last
    DEAL_NUMBER_TOO_LONG = "deal_number_too_long"  # first, last: more than 40 digits
    DEAL_TEXT_TOO_LONG = "deal_text_too_long"  # length, first, last
    NOT_A_DEAL_NUMBER = "not_a_deal_number"  # text, first, last
    NOT_PLAIN_DIGITS = "not_plain_digits"  # text, first, last
    NOT_PLAIN_DIGITS_LONG = "not_plain_digits_long"  # first, last: a text too long to show
    DEAL_NUMBER_NOT_INT = "deal_number_not_int"  # value
    INEXACT_NUMBER = "inexact_number"  # number: JS only, a JS number past 2**53
    # A deal's cards (DealError).
    DEAL_PART_SIZE = "deal_part_size"  # part ("pyramid" or "stock"), size, count
    CARD_TWICE = "card_twice"  # card
    DEAL_NOT_OBJECT = "deal_not_object"
    DEAL_MISSING = "deal_missing"  # parts
    DEAL_PART_NOT_LIST = "deal_part_not_list"  # part, size
    DEAL_NOT_A_CARD = "deal_not_a_card"  # part, index, value
    NOT_THAT_DEAL = "not_that_deal"  # number
    DEAL_NOT_JSON = "deal_not_json"
    DEAL_CARDS_WRONG = "deal_cards_wrong"  # doubled, missing: card names
    DEAL_TEXT_SHAPE = "deal_text_shape"
    # A rule set (GameSetupError).
    UNKNOWN_GOAL = "unknown_goal"  # value
    UNKNOWN_PASSES = "unknown_passes"  # value, most
    NOT_A_RULE_SET_KEY = "not_a_rule_set_key"  # key


def _and(names: list[str]) -> str:
    return " and ".join(names)


ENDED = {
    "pyramid_cleared": "The pyramid is cleared.",
    "deck_cleared": "All 52 cards are cleared.",
    "no_moves": "No move is left.",
    "pyramid_stuck": ("No free pyramid card can ever be removed: none is a King, no two make "
                      "13, and no card in the stock or waste makes 13 with one."),
    "deck_stuck": ("The pyramid is cleared, but no card left in the stock and waste is a King "
                   "and no two of them make 13."),
    "abandoned": "The player left this game for another one, so it counts as abandoned.",
    "time_up": "The race's time limit passed before this game ended, so it counts as lost.",
}
"""Why a game ended, in English, by its termination (or ``abandoned``; ``time_up``: a race's
game its race's time limit ended, app/web/services/racing.py): ``outcome``'s reasons."""


def _game_over(status: str, termination: str | None) -> str:
    if status == "abandoned":
        why = ENDED["abandoned"]
    else:
        why = ENDED[termination] if termination else f"It was {status}."
    return f"The game is over: {why} Its result is final."


def _cards_wrong(doubled: list[str], missing: list[str]) -> str:
    problems = []
    if doubled:
        problems.append("appears twice: " + " ".join(doubled))
    if missing:
        problems.append("missing: " + " ".join(missing))
    return "a deal uses each of the 52 cards once; " + "; ".join(problems)


NUMBERED = "deals are numbered from {first} to {last:,}"
English = str | Callable[..., str]

ENGLISH: dict[str, English] = {
    Code.NOTHING_TO_DRAW: "The stock and the waste are both empty: there is nothing to draw.",
    Code.RECYCLE_FIRST: "The stock is empty: recycle the waste to start the next pass.",
    Code.STOCK_EXHAUSTED: "The stock is empty and no passes are left.",
    Code.STOCK_NOT_EMPTY: "The stock still has {count} cards: recycle only when it is empty.",
    Code.WASTE_EMPTY: "The waste is empty: there is nothing to recycle.",
    Code.NO_PASSES_LEFT: lambda passes: (
        f"No passes left: this game allows {passes} pass{'es' if passes != 1 else ''}."),
    Code.ALREADY_REMOVED: "{card} has already been removed.",
    Code.COVERED: lambda card, by: f"{card} is covered by {_and(by)}.",
    Code.NOT_FREE: ("{card} is not a free card: only the top cards of the stock and the waste "
                    "can be played."),
    Code.NOT_A_KING: "{card} is not a King: only a King is removed on its own.",
    Code.NOT_THIRTEEN: "{a} and {b} make {total}, not 13.",
    Code.NOTHING_TO_UNDO: "There is no move to undo.",
    Code.GAME_OVER: _game_over,
    Code.NO_SUCH_CARD: "no such card: rank {rank!r}, suit {suit!r}",
    Code.CARD_NOT_TEXT: "a card name must be a string like 'TD', not {value!r}",
    Code.NOT_A_CARD: ("{text!r} is not a card: use a rank from A23456789TJQK then a suit from "
                      "CDHS, e.g. 'TD' or 'KS'"),
    Code.REMOVAL_CARDS: ("a removal names one King or two cards, e.g. [\"KS\"] or "
                         "[\"5H\", \"8C\"]"),
    Code.SAME_CARD_TWICE: "a pair needs two different cards, not {card} twice",
    Code.TAKES_NO_CARDS: "{op} names no cards",
    Code.MOVE_NOT_TEXT: "a move is text like '5H+8C', 'KS', 'draw' or 'recycle', not {value!r}",
    Code.NOT_A_MOVE: "{text!r} is not a move: write 'KS', '5H+8C', 'draw' or 'recycle'",
    Code.MOVE_NOT_OBJECT: 'a move is a JSON object with an "op": remove, draw or recycle',
    Code.UNKNOWN_OP: '"op" must be "remove", "draw" or "recycle", not {op!r}',
    Code.UNEXPECTED_FIELDS: lambda fields: (
        f"unexpected field(s) in a move: {', '.join(fields)}"),
    Code.MOVE_NOT_JSON: "the move is not valid JSON",
    Code.DEAL_OUT_OF_RANGE: "deal number {number} is out of range: " + NUMBERED,
    Code.DEAL_NUMBER_TOO_LONG: "deal number of more than 40 digits is out of range: " + NUMBERED,
    Code.DEAL_TEXT_TOO_LONG: "a text of {length:,} characters is not a deal number: " + NUMBERED,
    Code.NOT_A_DEAL_NUMBER: "{text!r} is not a deal number: " + NUMBERED,
    Code.NOT_PLAIN_DIGITS: ("{text!r} is not a deal number written in plain digits with no "
                            "leading zero, like 1000: " + NUMBERED),
    Code.NOT_PLAIN_DIGITS_LONG: ("this is not a deal number written in plain digits with no "
                                 "leading zero, like 1000: " + NUMBERED),
    Code.DEAL_NUMBER_NOT_INT: "a deal number is a whole number, not {value!r}",
    Code.INEXACT_NUMBER: ("{number} is past 2**53 and so not exact: give the deal number as a "
                          "string or a BigInt"),
    Code.DEAL_PART_SIZE: "the {part} must have {size} cards, not {count}",
    Code.CARD_TWICE: "{card} appears twice in the deal",
    Code.DEAL_NOT_OBJECT: 'a deal is a JSON object: {{"pyramid": [28 cards], "stock": [24 cards]}}',
    Code.DEAL_MISSING: lambda parts: (
        f"the deal has no {' and no '.join(repr(part) for part in parts)} list"),
    Code.DEAL_PART_NOT_LIST: "{part!r} must be a list of {size} card names",
    Code.DEAL_NOT_A_CARD: "{part}[{index}]: {value!r} is not a card",
    Code.NOT_THAT_DEAL: "these cards are not deal {number}",
    Code.DEAL_NOT_JSON: "the deal is not valid JSON",
    Code.DEAL_CARDS_WRONG: _cards_wrong,
    Code.DEAL_TEXT_SHAPE: ("a deal in text is the 28 pyramid cards, a '/', then the 24 stock "
                           "cards, e.g. 'JD2D9H…/4HAC…'"),
    Code.UNKNOWN_GOAL: "goal must be 'standard' or 'wholedeck', not {value!r}",
    Code.UNKNOWN_PASSES: "passes must be a whole number from 1 to {most}, not {value!r}",
    Code.NOT_A_RULE_SET_KEY: "a rule set is written like 'standard-3', not {key!r}",
}
"""Each code's English: a ``str.format`` template of its fields, or a function of them."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the engine says no: a ``Code`` and its fields (plain JSON values). The store makes
    its few refusals the same way, with codes of its own (``app.store.refusals``)."""

    code: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        english = ENGLISH.get(self.code)
        if english is None:  # a store refusal: its exception carries its English
            return f"{self.code} {dict(self.fields)}"
        if callable(english):
            return english(**self.fields)
        return english.format(**self.fields)

    def to_dict(self) -> dict[str, Any]:
        """``{"code": "covered", "fields": {"card": "AD", "by": ["3S", "5S"]}}``: plain data,
        for JSON and for another process."""
        return {"code": str(self.code), "fields": dict(self.fields)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Refusal:
        """``to_dict``'s form read back (an engine code as its ``Code``)."""
        code = str(data["code"])
        return cls(Code(code) if code in CODES else code, dict(data.get("fields") or {}))


CODES = frozenset(code.value for code in Code)


def refusal(code: Code, **fields: Any) -> Refusal:
    """``refusal(Code.COVERED, card="AD", by=["3S"])``."""
    return Refusal(code, fields)


class Refused(ValueError):
    """What the engine raises when it says no: ``refusal`` says why, as a value; ``str`` is
    its English (or ``message``, a longer English for logs), never to be parsed."""

    def __init__(self, why: Refusal | str, message: str | None = None, /,
                 **fields: Any) -> None:
        self.refusal = why if isinstance(why, Refusal) else Refusal(why, fields)
        super().__init__(message if message is not None else str(self.refusal))

    @property
    def code(self) -> str:
        return self.refusal.code
