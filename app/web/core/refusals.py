"""The engine's and the store's refusals in the player's language.

The engine (a deal number, a rule set: app/engine/deal.py, variant.py) and the store (a game
saved meanwhile, an imported game: app/store/games.py, imports.py) refuse in English, for
logs, files and tests; where the web layer shows one to a player (a form's error, an error
page, the API's ``detail``), it says it through ``refusal_sentence``, as it says the engine's
sentences about moves through ``app.web.core.words.engine_sentence``. Neither the engine nor the
store changes: each sentence here is a pattern of their English and the message it becomes.
"""

from __future__ import annotations

import re
from functools import cache

from app.engine.deal import MAX_DEAL_NUMBER, MIN_DEAL_NUMBER, NUMBERED
from app.web.core.errors import CLEARER
from app.web.core.i18n import Counted, LazyProxy, _l, counted
from app.web.core.i18n import gettext as _
from app.web.core.numbers import format_number

VALUE_ERROR = "Value error, "
"""How pydantic begins the message of a ``ValueError`` raised by a validator (a deal number's
``DealError``)."""


def problem_sentence(msg: str) -> str:
    """One validation problem's message in this request's language, for a sentence a person
    reads (the API's ``detail``, an error page): ours (``CLEARER``, the engine's refusals of a
    deal number) translated, pydantic's own as they are."""
    if msg.startswith(VALUE_ERROR):
        return VALUE_ERROR + refusal_sentence(msg.removeprefix(VALUE_ERROR))
    return _(msg) if msg in CLEARER.values() else refusal_sentence(msg)


_DEALS = re.escape(NUMBERED)
_QUOTED = r"(?:'.*'|\".*\")"
"""A value as ``repr`` writes a string."""

REFUSALS: tuple[tuple[str, LazyProxy | Counted], ...] = (
    (rf"deal number (?P<number>-?\d+) is out of range: {_DEALS}",
     _l("deal number %(number)s is out of range: deals are numbered from %(first)s to "
        "%(last)s")),
    (rf"deal number of more than 40 digits is out of range: {_DEALS}",
     _l("deal number of more than 40 digits is out of range: deals are numbered from "
        "%(first)s to %(last)s")),
    (rf"a text of (?P<count>[\d,]+) characters is not a deal number: {_DEALS}",
     counted("a text of %(count)s character is not a deal number: deals are numbered from "
             "%(first)s to %(last)s",
             "a text of %(count)s characters is not a deal number: deals are numbered from "
             "%(first)s to %(last)s")),
    (rf"(?P<text>{_QUOTED}) is not a deal number: {_DEALS}",
     # TRANSLATORS: %(text)s is what was typed, in quotes.
     _l("%(text)s is not a deal number: deals are numbered from %(first)s to %(last)s")),
    (rf"this is not a deal number written in plain digits with no leading zero, like 1000: "
     rf"{_DEALS}",
     _l("this is not a deal number written in plain digits with no leading zero, like 1000: "
        "deals are numbered from %(first)s to %(last)s")),
    (rf"(?P<text>{_QUOTED}) is not a deal number written in plain digits with no leading "
     rf"zero, like 1000: {_DEALS}",
     # TRANSLATORS: %(text)s is what the address holds, in quotes.
     _l("%(text)s is not a deal number written in plain digits with no leading zero, like "
        "1000: deals are numbered from %(first)s to %(last)s")),
    (r"passes must be 1, 2 or 3, not (?P<value>.+)",
     # TRANSLATORS: %(value)s is what was sent, in quotes.
     _l("passes must be 1, 2 or 3, not %(value)s")),
    (r"goal must be 'standard' or 'wholedeck', not (?P<value>.+)",
     # TRANSLATORS: 'standard' and 'wholedeck' are the values a form sends: keep them as they
     # are. %(value)s is what was sent, in quotes.
     _l("goal must be 'standard' or 'wholedeck', not %(value)s")),
    (r"This game was changed elsewhere: reload to see it\.",
     _l("This game was changed elsewhere: reload to see it.")),
    (r"This game was changed elsewhere: try again\.",
     _l("This game was changed elsewhere: try again.")),
    (rf"Game (?P<game>{_QUOTED}) cannot be read: (?P<why>.*)",
     # TRANSLATORS: an imported file's game; %(game)s is its id, in quotes; %(why)s what is
     # wrong with it.
     _l("Game %(game)s cannot be read: %(why)s")),
    (rf"Game (?P<game>{_QUOTED}) does not end as the file says\.",
     # TRANSLATORS: an imported file's game; %(game)s is its id, in quotes.
     _l("Game %(game)s does not end as the file says.")),
)
"""Each refusal a player can meet, as a pattern of the English (its named groups are the
message's placeholders) and the message it becomes."""


@cache
def _refusals() -> tuple[tuple[re.Pattern[str], LazyProxy | Counted], ...]:
    return tuple((re.compile(pattern, re.S), message) for pattern, message in REFUSALS)


def refusal_sentence(text: str) -> str:
    """A refusal of the engine's setup or of the store (``REFUSALS``) in this request's
    language; as it is when no pattern knows it (a new sentence shows in English rather than
    not at all)."""
    for pattern, message in _refusals():
        match = pattern.fullmatch(text)
        if match is None:
            continue
        values: dict[str, object] = {"first": format_number(MIN_DEAL_NUMBER),
                                     "last": format_number(MAX_DEAL_NUMBER),
                                     **match.groupdict()}
        if "why" in values:
            values["why"] = refusal_sentence(str(values["why"]))
        if isinstance(message, Counted):
            count = int(str(values["count"]).replace(",", ""))
            return message(count, **{**values, "count": format_number(count)})
        return str(message) % values
    return text
