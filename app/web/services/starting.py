"""Starting games, shared by the pages that start them (home, deal links, the deal of the day,
restarts): the rules read from a form, the question before abandoning a game in progress, and
a deal page that stores nothing until its first input.

Starting a game abandons a game in progress with moves (a loss): the pages ask first, on a page
of its own (``confirm.html``), so no link, reload or stray click costs a player a game.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any

from fastapi import Form, Query, Request
from fastapi.responses import Response
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy.orm import Session

from app.engine import (
    DEFAULT_VARIANT,
    Deal,
    GameSetupError,
    Move,
    MoveError,
    Variant,
)
from app.store import (
    GameRecord,
    LoadedGame,
    latest_unfinished,
    load_game,
    preview,
)
from app.web.core import utcday
from app.web.core.errors import PageError
from app.web.core.htmx import is_htmx, see_other, wants_json
from app.web.core.i18n import gettext as _
from app.web.core.links import path_for
from app.web.core.names import variant_label
from app.web.core.notice import Notice
from app.web.core.refusals import say
from app.web.services import actions
from app.web.services.boardinput import BoardInput, read_steps, refused_batch, said_of
from app.web.services.boardpage import NO_STORE, BoardUrls, render_board
from app.web.views.templating import templates

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


def ask_to_abandon(request: Request, current: GameRecord, *, action: str, fields: dict[str, Any],
                   starting: str) -> Response:
    """Starting ``starting`` would abandon ``current`` (a loss): ask first. The page offers
    to go on with the current game, or to post ``fields`` to ``action`` again, confirmed."""
    context = {"current": current, "action": action, "fields": fields, "starting": starting}
    return templates.TemplateResponse(request, "confirm.html", context, headers=NO_STORE)


def started(request: Request, session: Session, player_id: str, *, deal: Deal, variant: Variant,
            confirmed: bool, action: str, fields: dict[str, Any], starting: str,
            winnable_only: bool = False) -> Response:
    """Start a game, once the player has agreed to abandon the one in progress, if any."""
    current = actions.in_progress(session, player_id)
    if current is not None and not confirmed:
        return ask_to_abandon(request, current, action=action, fields=fields, starting=starting)
    record = actions.start(session, player_id, deal, variant, winnable_only=winnable_only)
    return see_other(path_for(request, "board", game_id=record.id))


# --- a deal's page: nothing stored before the first input ------------------------------------
def shown(request: Request, session: Session, player_id: str, *, deal: Deal, variant: Variant,
          urls: BoardUrls, start: str, fields: dict[str, Any], starting: str,
          daily: date | None = None, extras: dict[str, Any] | None = None) -> Response:
    """A deal link's (or the deal of the day's) page: the deal on a board to play, stored only
    with the first input; the player's untouched game of it if there is one (unless the link
    carries a challenge, which its page shows); or, when a game in progress with moves would
    be abandoned, the question first. A GET stores nothing: link previews, crawlers and
    prefetching leave no game behind. ``extras`` go to the page (a challenge, the deal's
    results)."""
    current = actions.in_progress(session, player_id)
    if current is not None:
        return ask_to_abandon(request, current, action=start, fields=fields, starting=starting)
    latest = latest_unfinished(session, player_id)
    if (latest is not None and actions.is_fresh_game_of(latest, deal, variant)
            and not (extras or {}).get("challenge_from")):
        return see_other(path_for(request, "board", game_id=latest.id))
    return render_board(request, preview(player_id, deal, variant.goal, variant.passes,
                                          daily=daily), player_id, urls=urls, extras=extras)


def first_input_starts(request: Request, session: Session, player_id: str, *, deal: Deal,
                       variant: Variant, ask_at: str, sent: BoardInput | None = None,
                       daily: date | None = None, challenge: str | None = None,
                       late_daily: date | None = None,
                       retry_from: str | None = None) -> Response | LoadedGame:
    """The game a deal page's first input starts; or, when it would abandon a game in progress
    (started in another tab since the page was drawn) that the page has not agreed to leave
    (``sent.abandon``), the way to the question instead.

    A first batch sent again (its answer was lost, or it waited on a device without network)
    finds the game it started and gets that game's board: it starts no second game, and is
    not played twice. ``retry_from``: the moves a try again begun on the device starts from
    (``first_batch``)."""
    def started_before() -> Response | None:
        if sent is None or sent.input_id is None:
            return None
        before = actions.started_by(session, player_id, sent.input_id)
        return went_on(request, render_board(request, before, player_id), before) if before \
            else None

    if (already := started_before()) is not None:
        return already
    if actions.in_progress(session, player_id) is not None and not (sent and sent.abandon):
        # A copy of this batch may have stored its game just now: that is no other game.
        if (already := started_before()) is not None:
            return already
        if is_htmx(request) or wants_json(request):
            return Response(status_code=204, headers={"HX-Redirect": ask_at})
        return see_other(ask_at)
    if sent is not None and sent.moves is not None and sent.input_id is not None:
        return first_batch(request, session, player_id, deal=deal, variant=variant, sent=sent,
                           daily=daily, challenge=challenge, late_daily=late_daily,
                           retry_from=retry_from)
    record = actions.reusable_start(session, player_id, deal, variant, daily=daily,
                                    challenge=challenge, late_daily=late_daily)
    return LoadedGame(record, load_game(record))


def first_batch(request: Request, session: Session, player_id: str, *, deal: Deal, variant: Variant,
                sent: BoardInput, daily: date | None, challenge: str | None,
                late_daily: date | None, retry_from: str | None = None) -> Response:
    """A deal page's first batch: the game started and the batch played at once, or neither
    (a refused step: 422 on the deal as it was). Copies of it arriving together store one
    game: the later ones get the board of the game the first stored.

    ``retry_from`` (moves, space-separated): a try again begun on the device, a game not
    counted from the position these moves reach (``actions.start_with_batch``). The server
    cannot tell them from moves a player made, and needs not: the game counts nowhere."""
    assert sent.moves is not None and sent.input_id is not None
    steps = read_steps(sent.moves)
    unstored = preview(player_id, deal, variant.goal, variant.passes, daily=daily)
    if isinstance(steps, Notice):
        return render_board(request, unstored, player_id, steps, status_code=422)
    before = read_moves(retry_from or "")
    if isinstance(before, Notice):
        return render_board(request, unstored, player_id, before, status_code=422)
    try:
        loaded, done = actions.start_with_batch(
            session, player_id, deal, variant, steps, sent.input_id,
            untimed_elapsed=sent.untimed_elapsed, daily=daily, challenge=challenge,
            late_daily=late_daily, retry_from=before)
    except actions.BatchRefused as exc:
        return render_board(request, unstored, player_id, refused_batch(exc, len(steps)),
                            status_code=422)
    except actions.AlreadyStarted:
        stored = actions.started_by(session, player_id, sent.input_id)
        if stored is None:  # pragma: no cover - the unique batch id names a stored game
            raise
        return went_on(request, render_board(request, stored, player_id), stored)
    return went_on(request, render_board(request, loaded, player_id, said_of(done, loaded.game)),
                   loaded)


def read_moves(text: str) -> list[Move] | Notice:
    """Moves in the engine's notation, space-separated (a try again's start)."""
    try:
        return [Move.from_text(word) for word in text.split()]
    except MoveError as exc:
        # TRANSLATORS: %(why)s is the engine's explanation, a sentence.
        return Notice(_("That is not a move: %(why)s", why=say(exc.refusal)), refused=True)


def went_on(request: Request, answered: Response, loaded: LoadedGame) -> Response:
    """The answer to a deal page's first input, with the page's address moved to the game's
    own (the board's script replaces the URL; without it, the redirect goes there)."""
    answered.headers["HX-Replace-Url"] = path_for(request, "board", game_id=loaded.record.id)
    return answered


def as_first_input(sent: BoardInput, started: LoadedGame) -> BoardInput:
    """The page was drawn before the game existed: its input is made on the game as started."""
    return replace(sent, version=started.version if sent.moves is not None else None)


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


