"""The home page's new-game form (also the board's New game button): read and checked, the
choices it carries remembered, and the deal it asks for picked.

No deal = a random one; with "Winnable deals only", a random deal the solver has proven
winnable, of the chosen difficulty. The form remembers both, and a form without a difficulty
uses the last. Only winnable deals have a difficulty: choosing one other than "any" asks for a
winnable deal of it, box ticked or not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Form
from sqlalchemy.orm import Session

from app import odds
from app.engine import DEFAULT_VARIANT, Deal, DealError, GameSetupError, Variant
from app.settings import Settings
from app.store import remember_winnable_only
from app.web.core.i18n import gettext as _
from app.web.core.names import variant_label
from app.web.core.preferences import DIFFICULTY_CHOICES, Preferences
from app.web.core.refusals import say
from app.web.services import actions, preferences, starting


@dataclass(frozen=True, slots=True)
class Sent:
    """The form's fields as posted."""

    goal: str | None = None
    passes: str | None = None
    deal: str | None = None
    winnable_only: str | None = None
    difficulty: str | None = None
    confirm: str | None = None


def sent_form(goal: starting.GoalField = None, passes: starting.PassesField = None,
              deal: Annotated[str | None, Form(max_length=200)] = None,
              winnable_only: Annotated[str | None, Form(max_length=5)] = None,
              difficulty: Annotated[str | None, Form(max_length=20)] = None,
              confirm: starting.ConfirmField = None) -> Sent:
    return Sent(goal, passes, deal, winnable_only, difficulty, confirm)


SentDep = Annotated[Sent, Depends(sent_form)]


class Refused(Exception):
    """The form asks for something that is not (400): why, and the form to draw again."""

    def __init__(self, message: str, form: dict[str, str]) -> None:
        super().__init__(message)
        self.message, self.form = message, form


@dataclass(frozen=True, slots=True)
class Asked:
    """What the form asks for: its rules, a deal number or none, and whether winnable only."""

    form: dict[str, str]
    """The form's fields as the page draws them again (the difficulty filled in)."""
    variant: Variant
    number: int | None
    wants_winnable: bool
    """The box as remembered: ticked, or a difficulty chosen."""

    @property
    def only_winnable(self) -> bool:
        """A random deal from the proven-winnable ones (a deal number wins over the box)."""
        return self.wants_winnable and self.number is None


def read(sent: Sent, last_difficulty: str) -> Asked:
    """The form read and checked; raises Refused."""
    difficulty = sent.difficulty if sent.difficulty is not None else last_difficulty
    form = {"goal": sent.goal or DEFAULT_VARIANT.goal.value,
            "passes": sent.passes or str(DEFAULT_VARIANT.passes),
            "deal": sent.deal or "", "winnable_only": "1" if sent.winnable_only else "",
            "difficulty": difficulty}
    try:
        variant = Variant(form["goal"], form["passes"])
        number = Deal.parse_number(sent.deal) if sent.deal and sent.deal.strip() else None
    except (GameSetupError, DealError) as exc:
        raise Refused(say(exc.refusal), form) from None
    if difficulty not in DIFFICULTY_CHOICES:
        # TRANSLATORS: %(names)s lists the form's values as sent (any, easy, medium, ...),
        # %(value)s is what was sent instead, quoted.
        raise Refused(_("Difficulty must be one of %(names)s, not %(value)s.",
                        names=", ".join(DIFFICULTY_CHOICES), value=repr(sent.difficulty)),
                      {**form, "difficulty": last_difficulty})
    # A difficulty chosen on the form (the board's New game sends none) means a winnable deal.
    wants = bool(sent.winnable_only) or (sent.difficulty is not None
                                         and sent.difficulty != "any" and number is None)
    return Asked({**form, "winnable_only": "1" if wants else ""}, variant, number, wants)


def remember(session: Session, player_id: str, chosen: Preferences, asked: Asked) -> None:
    """The box and the difficulty, for the next form; committed."""
    remember_winnable_only(session, player_id, asked.wants_winnable)
    if asked.form["difficulty"] != chosen.difficulty:
        preferences.save(session, player_id, chosen.changed(
            {"difficulty": asked.form["difficulty"]}, ("difficulty",)))
    session.commit()


def pick_deal(settings: Settings, asked: Asked) -> tuple[int, str]:
    """The deal to start, and how the question before abandoning a game names it."""
    variant, difficulty = asked.variant, asked.form["difficulty"]
    if asked.number is not None:
        return asked.number, starting.deal_phrase(asked.number, variant)
    if asked.only_winnable and difficulty != "any":
        return (odds.random_winnable(variant, difficulty=difficulty),
                starting.winnable_phrase(difficulty, variant))
    if asked.only_winnable:
        return odds.winnable_deal(variant), starting.winnable_phrase("any", variant)
    # TRANSLATORS: what the player would start ("Abandon it and start ..."): the object
    # of "start"; %(rules)s is the rule set, as in "standard goal, 3 passes".
    return (actions.random_deal_number(settings),
            _("a new deal (%(rules)s)", rules=variant_label(variant)))
