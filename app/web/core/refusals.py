"""The engine's and the store's refusals in the player's language: words by code, at the edge.

The engine and the store refuse with values (``app.engine.refusals.Refusal``: a code and its
fields, e.g. ``covered(card="AD", by=["3S", "5S"])``); nothing parses their English. Here each
code has its message in the catalogs (``MESSAGES``), and ``say`` fills it with the fields as
this request's language writes them (numbers, lists of cards, a part of the deal). The page
gets the same table in its words JSON (``page_table``, read by static/js/board/words.js), so a
refusal the browser's engine makes reads as the server's would. A code with no message fails
a test (tests/i18n), never shows in English.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from babel.lists import format_list

from app.engine import Code, GameStatus, Outcome, Refusal, Termination
from app.store import StoreCode
from app.web.core import i18n
from app.web.core.errors import CLEARER
from app.web.core.i18n import Counted, LazyProxy, _l, counted
from app.web.core.i18n import gettext as _
from app.web.core.numbers import format_number

Message = LazyProxy | Counted

MESSAGES: dict[str, Message] = {
    Code.NOTHING_TO_DRAW: _l("The stock and the waste are both empty: there is nothing to "
                             "draw."),
    Code.RECYCLE_FIRST: _l("The stock is empty: recycle the waste to start the next pass."),
    Code.STOCK_EXHAUSTED: _l("The stock is empty and no passes are left."),
    Code.STOCK_NOT_EMPTY: counted(
        "The stock still has %(count)s card: recycle only when it is empty.",
        "The stock still has %(count)s cards: recycle only when it is empty."),
    Code.WASTE_EMPTY: _l("The waste is empty: there is nothing to recycle."),
    Code.NO_PASSES_LEFT: counted("No passes left: this game allows %(count)s pass.",
                                 "No passes left: this game allows %(count)s passes."),
    Code.ALREADY_REMOVED: _l("%(card)s has already been removed."),
    # TRANSLATORS: %(by)s is one card, or two joined as the language joins a list ("3♠ and 5♠").
    Code.COVERED: _l("%(card)s is covered by %(by)s."),
    Code.NOT_FREE: _l("%(card)s is not a free card: only the top cards of the stock and the "
                      "waste can be played."),
    Code.NOT_A_KING: _l("%(card)s is not a King: only a King is removed on its own."),
    Code.NOT_THIRTEEN: _l("%(a)s and %(b)s make %(total)s, not 13."),
    Code.NOTHING_TO_UNDO: _l("There is no move to undo."),
    # TRANSLATORS: %(why)s is why the game ended, a sentence of its own.
    Code.GAME_OVER: _l("The game is over: %(why)s Its result is final."),
    # TRANSLATORS: a card given by its parts (in the API); %(rank)s and %(suit)s are what was
    # sent, as sent.
    Code.NO_SUCH_CARD: _l("There is no card of rank %(rank)s and suit %(suit)s."),
    # TRANSLATORS: %(value)s is what was sent instead of a card's name.
    Code.CARD_NOT_TEXT: _l("A card is named by text such as 'TD' or 'KS', not %(value)s."),
    # TRANSLATORS: %(text)s is what was sent, in quotes. Keep the card names TD and KS.
    Code.NOT_A_CARD: _l("%(text)s is not a card: write a rank (A, 2-9, T, J, Q, K) then a suit "
                        "(C, D, H, S), like 'TD' or 'KS'."),
    Code.REMOVAL_CARDS: _l("A removal names one King or two cards."),
    Code.SAME_CARD_TWICE: _l("A pair needs two different cards, not %(card)s twice."),
    # TRANSLATORS: %(op)s is the move's name as the API writes it: draw or recycle.
    Code.TAKES_NO_CARDS: _l("The move '%(op)s' names no cards."),
    # TRANSLATORS: %(value)s is what was sent. Keep 'KS', '5H+8C', 'draw' and 'recycle'.
    Code.MOVE_NOT_TEXT: _l("A move is text like 'KS', '5H+8C', 'draw' or 'recycle', not "
                           "%(value)s."),
    # TRANSLATORS: %(text)s is what was sent, in quotes. Keep 'KS', '5H+8C', 'draw', 'recycle'.
    Code.NOT_A_MOVE: _l("%(text)s is not a move: write 'KS', '5H+8C', 'draw' or 'recycle'."),
    # TRANSLATORS: keep "op", remove, draw and recycle as they are: the API's words.
    Code.MOVE_NOT_OBJECT: _l('A move is a JSON object with an "op": remove, draw or recycle.'),
    # TRANSLATORS: keep "op", remove, draw and recycle; %(op)s is what was sent.
    Code.UNKNOWN_OP: _l('"op" must be remove, draw or recycle, not %(op)s.'),
    # TRANSLATORS: %(fields)s lists the names of the fields a move does not have.
    Code.UNEXPECTED_FIELDS: _l("A move has no such field: %(fields)s."),
    Code.MOVE_NOT_JSON: _l("The move is not valid JSON."),
    Code.DEAL_OUT_OF_RANGE: _l("deal number %(number)s is out of range: deals are numbered "
                               "from %(first)s to %(last)s"),
    Code.DEAL_NUMBER_TOO_LONG: _l("deal number of more than 40 digits is out of range: deals "
                                  "are numbered from %(first)s to %(last)s"),
    Code.DEAL_TEXT_TOO_LONG: counted(
        "a text of %(count)s character is not a deal number: deals are numbered from "
        "%(first)s to %(last)s",
        "a text of %(count)s characters is not a deal number: deals are numbered from "
        "%(first)s to %(last)s"),
    # TRANSLATORS: %(text)s is what was typed, in quotes.
    Code.NOT_A_DEAL_NUMBER: _l("%(text)s is not a deal number: deals are numbered from "
                               "%(first)s to %(last)s"),
    # TRANSLATORS: %(text)s is what the address holds, in quotes.
    Code.NOT_PLAIN_DIGITS: _l("%(text)s is not a deal number written in plain digits with no "
                              "leading zero, like 1000: deals are numbered from %(first)s to "
                              "%(last)s"),
    Code.NOT_PLAIN_DIGITS_LONG: _l("this is not a deal number written in plain digits with no "
                                   "leading zero, like 1000: deals are numbered from %(first)s "
                                   "to %(last)s"),
    # TRANSLATORS: %(value)s is what was sent instead of a whole number.
    Code.DEAL_NUMBER_NOT_INT: _l("A deal number is a whole number, not %(value)s."),
    # TRANSLATORS: %(number)s is a number too large to be exact in the browser.
    Code.INEXACT_NUMBER: _l("%(number)s is too large to be exact here: give the deal number as "
                            "text."),
    # TRANSLATORS: %(part)s is "the pyramid" or "the stock".
    Code.DEAL_PART_SIZE: _l("%(part)s must have %(size)s cards, not %(count)s."),
    Code.CARD_TWICE: _l("%(card)s appears twice in the deal."),
    # TRANSLATORS: keep "pyramid" and "stock": the API's names.
    Code.DEAL_NOT_OBJECT: _l('A deal is a JSON object with a "pyramid" of 28 cards and a '
                             '"stock" of 24.'),
    # TRANSLATORS: %(parts)s is "the pyramid", "the stock" or both.
    Code.DEAL_MISSING: _l("The deal has no list of cards for %(parts)s."),
    # TRANSLATORS: %(part)s is "the pyramid" or "the stock".
    Code.DEAL_PART_NOT_LIST: _l("%(part)s must be a list of %(size)s card names."),
    # TRANSLATORS: %(part)s is "the pyramid" or "the stock"; %(index)s counts from 0.
    Code.DEAL_NOT_A_CARD: _l("%(part)s, card %(index)s: %(value)s is not a card."),
    Code.NOT_THAT_DEAL: _l("These cards are not deal %(number)s."),
    Code.DEAL_NOT_JSON: _l("The deal is not valid JSON."),
    # TRANSLATORS: %(doubled)s and %(missing)s list card names (a dash when none).
    Code.DEAL_CARDS_WRONG: _l("A deal uses each of the 52 cards once: twice: %(doubled)s; "
                              "missing: %(missing)s."),
    Code.DEAL_TEXT_SHAPE: _l("A deal in text is the 28 pyramid cards, a '/', then the 24 stock "
                             "cards."),
    # TRANSLATORS: 'standard' and 'wholedeck' are the values a form sends: keep them as they
    # are. %(value)s is what was sent, in quotes.
    Code.UNKNOWN_GOAL: _l("goal must be 'standard' or 'wholedeck', not %(value)s"),
    # TRANSLATORS: %(most)s is the most passes a game allows; %(value)s is what was sent.
    Code.UNKNOWN_PASSES: _l("passes must be a whole number from 1 to %(most)s, not %(value)s"),
    # TRANSLATORS: keep 'standard-3' as it is; %(key)s is what was sent.
    Code.NOT_A_RULE_SET_KEY: _l("A rule set is written like 'standard-3', not %(key)s."),
    StoreCode.CHANGED_RELOAD: _l("This game was changed elsewhere: reload to see it."),
    StoreCode.CHANGED_RETRY: _l("This game was changed elsewhere: try again."),
    # TRANSLATORS: an imported file's game; %(game)s is its id, in quotes; %(why)s what is
    # wrong with it.
    StoreCode.IMPORT_UNREADABLE: _l("Game %(game)s cannot be read: %(why)s"),
    # TRANSLATORS: an imported file's game; %(game)s is its id, in quotes.
    StoreCode.IMPORT_WRONG_END: _l("Game %(game)s does not end as the file says."),
}
"""Each refusal's message, by code: every code of the engine and the store has one."""

UNREADABLE_GAME = _l("Game %(game)s cannot be read.")
"""``import_unreadable`` when no engine refusal says why."""

COUNTS: dict[str, str] = {Code.STOCK_NOT_EMPTY: "count", Code.NO_PASSES_LEFT: "passes",
                          Code.DEAL_TEXT_TOO_LONG: "length"}
"""The field whose number chooses a counted message's form (its ``%(count)s``)."""

ENDINGS: dict[str, LazyProxy] = {
    Termination.PYRAMID_CLEARED.value: _l("The pyramid is cleared."),
    Termination.DECK_CLEARED.value: _l("All 52 cards are cleared."),
    Termination.NO_MOVES.value: _l("No move is left."),
    Termination.PYRAMID_STUCK.value: _l("No free pyramid card can ever be removed: none is a "
                                        "King, no two make 13, and no card in the stock or "
                                        "waste makes 13 with one."),
    Termination.DECK_STUCK.value: _l("The pyramid is cleared, but no card left in the stock "
                                     "and waste is a King and no two of them make 13."),
    GameStatus.ABANDONED.value: _l("The player left this game for another one, so it counts as "
                             "abandoned."),
    "time_up": _l("The race's time limit passed before this game ended, so it counts as "
                  "lost."),
}
"""Why a game ended, by its termination (or ``abandoned``)."""

WAS: dict[str, LazyProxy] = {
    GameStatus.PLAYING: _l("It was being played."),
    GameStatus.WON: _l("It was won."),
    GameStatus.LOST: _l("It was lost."),
    GameStatus.ABANDONED: _l("It was abandoned."),
}
"""An ended game's status when its ending is not known."""

PARTS: dict[str, LazyProxy] = {"pyramid": _l("the pyramid"), "stock": _l("the stock")}

CARDS = frozenset({"card", "a", "b"})
CARD_LISTS = frozenset({"by", "doubled", "missing"})
NUMBERS = frozenset({"count", "passes", "total", "length", "size", "first", "last", "most"})
DIGITS = frozenset({"number", "index"})


def ended(status: str, termination: str | None) -> str:
    """Why a game ended, in this request's language: its termination's sentence, that its
    player left it, or its status."""
    if status == GameStatus.ABANDONED:
        return str(ENDINGS[GameStatus.ABANDONED.value])
    if termination is not None:
        return str(ENDINGS[termination])
    return str(WAS.get(status, status))


def ending(status: GameStatus, outcome: Outcome | None) -> str | None:
    """Why a game ended, in this request's language (None while it is played or when its
    ending is not known)."""
    status = GameStatus(status)
    if status is not GameStatus.ABANDONED and outcome is None:
        return None
    return ended(status.value, outcome.termination.value if outcome is not None else None)


def _listed(items: list[str]) -> str:
    return format_list(items, locale=i18n.current_locale()) if items else "–"


def _quoted(value: object) -> str:
    if isinstance(value, str):
        return repr(value)
    return json.dumps(value, ensure_ascii=False, default=str)


def _shown(name: str, value: Any) -> str:
    """A field as a sentence shows it."""
    if name in CARDS:
        return str(value)
    if name in CARD_LISTS:
        return _listed([str(card) for card in value])
    if name in NUMBERS:
        return format_number(value)
    if name in DIGITS:
        return str(value)
    if name == "part":
        return str(PARTS.get(value, value))
    if name == "parts":
        return _listed([str(PARTS.get(part, part)) for part in value])
    if name == "fields":
        return ", ".join(_quoted(field) for field in value)
    return _quoted(value)


def say(refusal: Refusal | Mapping[str, Any]) -> str:
    """``refusal`` (or its ``to_dict``) in this request's language."""
    if not isinstance(refusal, Refusal):
        refusal = Refusal.from_dict(refusal)
    code, fields = refusal.code, refusal.fields
    if code == Code.GAME_OVER:
        why = ended(fields["status"], fields.get("termination"))
        return _("The game is over: %(why)s Its result is final.", why=why)
    values = {name: _shown(name, value) for name, value in fields.items()}
    if code == StoreCode.IMPORT_UNREADABLE:
        if not fields.get("why"):
            return str(UNREADABLE_GAME) % values
        values["why"] = say(fields["why"])
    message = MESSAGES[code]
    if isinstance(message, Counted):
        count = int(fields[COUNTS[code]])
        return message(count, **{**values, "count": format_number(count)})
    return str(message) % values


# --- validation problems -----------------------------------------------------------------------
VALUE_ERROR = "Value error, "
"""How pydantic begins the message of a ``ValueError`` raised by a validator (a deal number's
``DealError``)."""


def problem_sentence(problem: Mapping[str, Any]) -> str:
    """One of pydantic's validation problems (``RequestValidationError.errors()``) as a person
    reads it, in this request's language: an engine refusal raised by a validator (a deal
    number's) said by its code, ours (``CLEARER``) translated, pydantic's own as they are."""
    error = (problem.get("ctx") or {}).get("error")
    refusal = getattr(error, "refusal", None)
    if isinstance(refusal, Refusal):
        return VALUE_ERROR + say(refusal)
    kind = str(problem.get("type", ""))
    if kind in CLEARER:
        return _(CLEARER[kind])
    return str(problem.get("msg", ""))


# --- the page's table ----------------------------------------------------------------------------
def page_table(said: Any) -> dict[str, Any]:
    """The refusals' words for the page's JSON, in this request's language: each code's
    message (``said`` writes a message as the page reads it), the field that counts a counted
    one, why a game ends, and the deal's parts."""
    return {
        "messages": {str(code): said(message) for code, message in MESSAGES.items()},
        "counts": {str(code): field for code, field in COUNTS.items()},
        "endings": {str(key): said(message) for key, message in ENDINGS.items()},
        "was": {str(key): said(message) for key, message in WAS.items()},
        "parts": {key: said(message) for key, message in PARTS.items()},
    }
