"""The game's things by name in the player's language: cards, goals, rule sets, passes,
difficulties, a game's status.

The engine and the odds name them in English for logs, files and the API (``Goal.label``,
``Variant.title``, ``Card.long_name``, ``Difficulty.label``); a page never shows those, it
shows these (the templates' filters of the same names, wired in ``app.web.views.templating``).
A card's face keeps its index (``Q♥``), as printed cards do everywhere; its spoken name is
translated whole (``Queen of hearts``, ``Herz-Dame``, ``ハートのクイーン``), since languages
order and inflect rank and suit differently.
"""

from __future__ import annotations

from app.engine import Card, GameStatus, Goal, Variant
from app.odds import Difficulty
from app.web.core.i18n import _l, ngettext, pgettext
from app.web.core.i18n import gettext as _

RANK_WORDS = {1: _l("Ace"), 11: _l("Jack"), 12: _l("Queen"), 13: _l("King")}
"""The ranks said as words (the others are their numbers). As names on their own, as in
"Ace + Queen" and in a card's name."""
SUIT_TEMPLATES = {
    # TRANSLATORS: a card's spoken name; %(rank)s is Ace, 2..10, Jack, Queen or King.
    "C": _l("%(rank)s of clubs"),
    "D": _l("%(rank)s of diamonds"),
    "H": _l("%(rank)s of hearts"),
    "S": _l("%(rank)s of spades"),
}


def rank_word(rank: int) -> str:
    return str(RANK_WORDS[rank]) if rank in RANK_WORDS else str(rank)


def card_name(card: Card) -> str:
    """What a screen reader says for ``card``: ``Queen of hearts``."""
    return str(SUIT_TEMPLATES[card.suit]) % {"rank": rank_word(card.rank)}


def goal_label(goal: Goal | str) -> str:
    """``Standard``, ``Whole deck``: the goal as a name."""
    return _("Standard") if Goal(goal) is Goal.STANDARD else _("Whole deck")


def goal_won_when(goal: Goal | str) -> str:
    """What winning takes, to follow the goal's name."""
    if Goal(goal) is Goal.STANDARD:
        return _("won when the 28 pyramid cards are gone")
    return _("won only when all 52 cards are gone")


def passes_text(passes: int) -> str:
    """``1 pass``, ``3 passes``."""
    return ngettext("%(num)s pass", "%(num)s passes", passes)


def variant_label(variant: Variant) -> str:
    """``standard goal, 3 passes``: a rule set in the middle of a sentence."""
    if variant.goal is Goal.STANDARD:
        return ngettext("standard goal, %(num)s pass", "standard goal, %(num)s passes",
                        variant.passes)
    return ngettext("whole-deck goal, %(num)s pass", "whole-deck goal, %(num)s passes",
                    variant.passes)


def variant_title(variant: Variant) -> str:
    """``Standard goal, 3 passes``: a rule set as a heading."""
    if variant.goal is Goal.STANDARD:
        return ngettext("Standard goal, %(num)s pass", "Standard goal, %(num)s passes",
                        variant.passes)
    return ngettext("Whole-deck goal, %(num)s pass", "Whole-deck goal, %(num)s passes",
                    variant.passes)


def difficulty_label(difficulty: Difficulty | str) -> str:
    """``Easy`` ... ``Expert``."""
    return {
        Difficulty.EASY: pgettext("difficulty", "Easy"),
        Difficulty.MEDIUM: pgettext("difficulty", "Medium"),
        Difficulty.HARD: pgettext("difficulty", "Hard"),
        Difficulty.EXPERT: pgettext("difficulty", "Expert"),
    }[Difficulty(difficulty)]


def status_label(status: GameStatus | str) -> str:
    """A game's status as a word: ``Playing``, ``Won``, ``Lost``, ``Abandoned``. Given as the
    enum or its value (a template's ``"won"|status_label``); anything else is an error."""
    return {
        GameStatus.PLAYING: pgettext("game status", "Playing"),
        GameStatus.WON: pgettext("game status", "Won"),
        GameStatus.LOST: pgettext("game status", "Lost"),
        GameStatus.ABANDONED: pgettext("game status", "Abandoned"),
    }[GameStatus(status)]
