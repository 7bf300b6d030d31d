"""What the pages that start games share (home, deal links, the deal of the day, races,
restarts): the rules read from a form or a query, how the question before abandoning a game in
progress names what would start, a deal page's game (not stored before its first input), and
which day a deal of the day counts for.

Starting a game abandons a game in progress with moves (a loss): the pages ask first
(``AskFirst``, ``views.boardpage.ask_to_abandon``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated

from fastapi import Form, Query, Request
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy.orm import Session

from app.engine import DEFAULT_VARIANT, Deal, GameSetupError, Variant
from app.store import GameRecord, LoadedGame, latest_unfinished, load_game
from app.web.core import utcday
from app.web.core.errors import PageError
from app.web.core.i18n import gettext as _
from app.web.core.names import variant_label
from app.web.core.notice import AskFirst
from app.web.core.refusals import say
from app.web.services import actions

GoalField = Annotated[str | None, Form(max_length=20)]
PassesField = Annotated[str | None, Form(max_length=5)]
GoalQuery = Annotated[str | None, Query(max_length=20)]
PassesQuery = Annotated[str | None, Query(max_length=5)]
ConfirmField = Annotated[str | None, Form(max_length=5)]


def read_variant(goal: str | None, passes: str | None) -> Variant:
    """The rules from a form or a query string (the default for what is left out), with the
    engine's error messages."""
    try:
        return Variant(goal or DEFAULT_VARIANT.goal, passes or DEFAULT_VARIANT.passes)
    except GameSetupError as exc:
        raise PageError(400, _("These rules don't exist"), say(exc.refusal)) from None


@dataclass(frozen=True, slots=True)
class DealPageGame:
    """A deal page's game (a deal link's, the deal of the day's), not stored before its first
    input (``store.preview``), and the page that asks before that input abandons a game in
    progress."""

    game: LoadedGame
    ask_at: str


# --- a deal page's game, and the question first -------------------------------------------
def deal_page(session: Session, player_id: str, unstored: LoadedGame, *,
              challenged: bool = False) -> LoadedGame | AskFirst:
    """What a deal page (a deal link, the deal of the day) shows; a GET stores nothing, so
    link previews, crawlers and prefetching leave no game behind: the question first when a
    game in progress with moves would be abandoned; the player's untouched game of the deal
    if there is one (stored: the page moves there), unless the page carries a challenge,
    which it shows; else the deal, not stored (``unstored``) until its first input."""
    if (ask := ask_first(session, player_id)) is not None:
        return ask
    latest = latest_unfinished(session, player_id)
    if (latest is not None and not challenged
            and actions.is_fresh_game_of(latest, unstored.game.deal, unstored.record.variant)):
        return LoadedGame(latest, load_game(latest))
    return unstored


def start(session: Session, player_id: str, deal: Deal, variant: Variant, *, confirmed: bool,
          winnable_only: bool = False) -> GameRecord | AskFirst:
    """A new game, once the player has agreed to abandon the one in progress, if any."""
    if (ask := ask_first(session, player_id, agreed=confirmed)) is not None:
        return ask
    return actions.start(session, player_id, deal, variant, winnable_only=winnable_only)


def ask_first(session: Session, player_id: str, *, agreed: bool = False) -> AskFirst | None:
    """The game in progress a start would abandon, unless the player agreed to leave it."""
    current = actions.in_progress(session, player_id)
    return AskFirst(current) if current is not None and not agreed else None


def stored(session: Session, unstored: LoadedGame) -> LoadedGame:
    """A deal page's game stored (or the player's untouched game of its deal, reused)."""
    shown = unstored.record
    record = actions.reusable_start(session, shown.player_id, unstored.game.deal, shown.variant,
                                    daily=shown.daily, challenge=shown.challenge,
                                    late_daily=shown.late_daily)
    return LoadedGame(record, load_game(record))


# --- what a start would start -------------------------------------------------------------------
# The question before abandoning a game (confirm.html) names what the player would start, as
# the object of "start": "Abandon it and start deal #42 (standard goal, 3 passes)". Each is a
# whole phrase in the catalogs, its rule set (``names.variant_label``) a placeholder.
def deal_phrase(number: int | str, variant: Variant) -> str:
    """``deal #42 (standard goal, 3 passes)``."""
    # TRANSLATORS: what the player would start ("Abandon it and start ..."): the object of
    # "start"; %(rules)s is the rule set, as in "standard goal, 3 passes".
    return _("deal #%(number)s (%(rules)s)", number=number, rules=variant_label(variant))


def winnable_phrase(difficulty: str, variant: Variant) -> str:
    """``a winnable easy deal (standard goal, 3 passes)``: a random winnable deal of a
    difficulty (of ``DIFFICULTY_CHOICES``; "any" is any winnable deal)."""
    rules = variant_label(variant)
    if difficulty == "easy":
        # TRANSLATORS: what the player would start ("Abandon it and start ...").
        return _("a winnable easy deal (%(rules)s)", rules=rules)
    if difficulty == "medium":
        # TRANSLATORS: what the player would start ("Abandon it and start ...").
        return _("a winnable medium deal (%(rules)s)", rules=rules)
    if difficulty == "hard":
        # TRANSLATORS: what the player would start ("Abandon it and start ...").
        return _("a winnable hard deal (%(rules)s)", rules=rules)
    if difficulty == "expert":
        # TRANSLATORS: what the player would start ("Abandon it and start ...").
        return _("a winnable expert deal (%(rules)s)", rules=rules)
    # TRANSLATORS: what the player would start ("Abandon it and start ..."): the object of
    # "start"; %(rules)s is the rule set, as in "standard goal, 3 passes".
    return _("a winnable deal (%(rules)s)", rules=rules)


def today() -> datetime:
    """The daily calendar's moment (``utcday``, where tests pin it)."""
    return utcday.today()


OFFLINE_SYNC_HOURS = 12
"""A deal of the day begun without network counts for its day when its first batch reaches
the server within this many hours after the day ended (and from a page or pack drawn on or
before that day: ``drawn_stamp``); later, it is a late one (no crown, no streak)."""


def _drawn_signer(request: Request) -> URLSafeSerializer:
    return URLSafeSerializer(request.app.state.settings.secret_key, salt="pyramid.drawn")


def drawn_stamp(request: Request) -> str:
    """What a deal of the day's page, and the offline pack, carry to the first batch: the day
    (UTC) the server drew them, signed."""
    return _drawn_signer(request).dumps(today().date().isoformat())


def drawn_day(request: Request, stamp: str | None) -> date | None:
    """The day a ``drawn_stamp`` was made, or None for none, or one this server did not sign."""
    if not stamp:
        return None
    try:
        return date.fromisoformat(_drawn_signer(request).loads(stamp))
    except (BadSignature, ValueError, TypeError):
        return None


def counts_for_its_day(day: date, drawn: date | None) -> bool:
    """Whether a game of ``day``'s deal begun without network, reaching the server now (after
    its day), still counts as that day's: its page was drawn on or before the day, and it
    arrives within ``OFFLINE_SYNC_HOURS`` of the day's end. What the server can check: a
    page kept from the day and a solver's line posted within those hours passes."""
    if drawn is None or drawn > day:
        return False
    ended = datetime.combine(day + timedelta(days=1), time(), tzinfo=UTC)
    return today() < ended + timedelta(hours=OFFLINE_SYNC_HOURS)


