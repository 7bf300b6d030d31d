"""The pages that start games, and the links to them: home, the new-game form, deal links,
restarting a deal (or trying again from a move), and the rules page. The deal of the day is
``daily``; what the pages share in starting a game is ``starting``; the board itself, and what
a player does on it, is ``board``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response
from markdown_it import MarkdownIt
from sqlalchemy.orm import Session

from app import odds
from app.engine import (
    DEFAULT_VARIANT,
    MAX_DEAL_NUMBER,
    Deal,
    Move,
    Variant,
)
from app.settings import PROJECT_DIR
from app.store import (
    LoadedGame,
    latest_unfinished,
    preview,
    wants_winnable_only,
)
from app.web.core import i18n, rulestext
from app.web.core.csrf import require_csrf
from app.web.core.deps import OwnedGame, PlayerDep, SessionDep, SettingsDep
from app.web.core.errors import PageError
from app.web.core.htmx import NO_STORE, see_other
from app.web.core.i18n import gettext as _
from app.web.core.links import BoardUrls, path_for, rules_query
from app.web.core.names import variant_label
from app.web.core.notice import Notice
from app.web.core.params import DealNumber
from app.web.core.preferences import DIFFICULTY_CHOICES
from app.web.core.threads import in_one_hop, in_thread
from app.web.services import (
    actions,
    board,
    homeform,
    preferences,
    results,
    solving,
    spoilers,
    starting,
    witness,
)
from app.web.services.board import BoardInputDep
from app.web.services.results import ChallengeQuery
from app.web.services.starting import (
    ConfirmField,
    DealPageGame,
    GoalField,
    GoalQuery,
    PassesField,
    PassesQuery,
    read_variant,
)
from app.web.views.boardpage import (
    answer,
    ask_to_abandon,
    deal_page,
    put_notice,
    started,
)
from app.web.views.templating import templates
from app.web.views.view import back_before

router = APIRouter(include_in_schema=False, dependencies=[Depends(require_csrf)])
# --- home ----------------------------------------------------------------------------------
def render_home(request: Request, session: Session, player_id: str, *,
                form: dict[str, str] | None = None, error: str | None = None,
                status_code: int = 200) -> Response:
    winnable_only = wants_winnable_only(session, player_id)
    difficulty = preferences.current(request, session, player_id).difficulty
    context = {
        # The worker's copy for offline use names nobody's game (routes/offline.py).
        "continue_game": None if request.headers.get("x-pyramid-kept")
        else latest_unfinished(session, player_id),
        "form": form or {"goal": DEFAULT_VARIANT.goal.value,
                         "passes": str(DEFAULT_VARIANT.passes), "deal": "",
                         "winnable_only": "1" if winnable_only else "",
                         "difficulty": difficulty},
        "difficulties": DIFFICULTY_CHOICES,
        "error": error,
        "max_deal": MAX_DEAL_NUMBER,
        "odds": odds.winnable_shares(),
    }
    return templates.TemplateResponse(request, "home.html", context, status_code=status_code,
                                      headers=NO_STORE)


@router.get("/", response_class=HTMLResponse, name="home")
def home(request: Request, session: SessionDep, player_id: PlayerDep) -> Response:
    return render_home(request, session, player_id)


@router.post("/games", name="new_game")
def new_game(request: Request, session: SessionDep, settings: SettingsDep,
             player_id: PlayerDep, sent: homeform.SentDep) -> Response:
    """Start a game from the home form (or the board's New game button), as ``homeform``
    reads it; the player is asked first before a game in progress is abandoned."""
    chosen = preferences.current(request, session, player_id)
    try:
        asked = homeform.read(sent, chosen.difficulty)
    except homeform.Refused as exc:
        return render_home(request, session, player_id, form=exc.form, error=exc.message,
                           status_code=400)
    homeform.remember(session, player_id, chosen, asked)
    number, label = homeform.pick_deal(settings, asked)
    outcome = starting.start(session, player_id, Deal.from_number(number), asked.variant,
                          confirmed=bool(sent.confirm), winnable_only=asked.only_winnable)
    return started(request, outcome, action=path_for(request, "new_game"), fields=asked.form,
                   starting=label)


# --- deal links ------------------------------------------------------------------------------
@router.get("/deal/{number}", name="deal_link")
def deal_link(request: Request, session: SessionDep, player_id: PlayerDep, number: DealNumber,
              goal: GoalQuery = None, passes: PassesQuery = None,
              challenge: ChallengeQuery = None) -> Response:
    """The share link: deal ``number`` with these rules, ready to play; with ``challenge``,
    the result to beat (``results``); and how everyone did on the deal."""
    variant = read_variant(goal, passes)
    deal = Deal.from_number(number)
    if moved := results.moved_challenge(request, session, challenge, deal, variant):
        return see_other(moved)  # a link shared before the key: to the form that hides the game
    query = {**rules_query(variant), "challenge": challenge or None}
    extras = results.deal_page_extras(request, session, player_id, deal, variant, challenge)
    shown = starting.deal_page(session, player_id, preview(player_id, deal, variant.goal,
                                                        variant.passes), challenged=bool(
        extras.get("challenge_from")))
    return deal_page(request, player_id, shown, urls=BoardUrls(
        play=path_for(request, "deal_play", query=query, number=number),
        hint=path_for(request, "deal_hint", query=query, number=number)),
        start=path_for(request, "deal_start", number=number), extras=extras,
        fields={k: v for k, v in query.items() if v is not None},
        starting=starting.deal_phrase(number, variant))


def challenged(request: Request, session: Session, token: str | None, number: int,
               variant: Variant) -> str | None:
    """The id of the sender's game a challenge link names (checked again: a POST is its own
    request). A game started from the link keeps it; no page shows it."""
    if not token:
        return None
    return results.challenge_game(request, session, token, Deal.from_number(number),
                                  variant).id


def deal_page_game(request: Request, session: SessionDep, player_id: PlayerDep,
                   number: DealNumber, goal: GoalQuery = None, passes: PassesQuery = None,
                   challenge: ChallengeQuery = None) -> DealPageGame:
    """A deal link's game, not stored before its first input (with the challenge it answers),
    and the deal link, which asks before that input abandons a game in progress."""
    variant = read_variant(goal, passes)
    return DealPageGame(
        preview(player_id, Deal.from_number(number), variant.goal, variant.passes,
                challenge=challenged(request, session, challenge, number, variant)),
        ask_at=path_for(request, "deal_link", number=number,
                        query={**rules_query(variant), "challenge": challenge}))


DealPageDep = Annotated[DealPageGame, Depends(deal_page_game)]


@router.post("/deal/{number}/play", name="deal_play")
def deal_play(request: Request, session: SessionDep, player_id: PlayerDep, page: DealPageDep,
              sent: BoardInputDep) -> Response:
    """A deal page's first input: it starts the game, then counts as the game's own."""
    return answer(request, player_id, board.first_input(
        request, session, player_id, page.game, sent), ask_at=page.ask_at)


@router.post("/deal/{number}/hint", name="deal_hint")
async def deal_hint(request: Request, session: SessionDep, player_id: PlayerDep,
                    page: DealPageDep) -> Response:
    """A hint asked on a deal page: it starts the game, as any first input."""
    return answer(request, player_id, await board.first_hint(session, player_id, page.game),
                  ask_at=page.ask_at)


@router.post("/deal/{number}", name="deal_start")
def deal_start(request: Request, session: SessionDep, player_id: PlayerDep, number: DealNumber,
               goal: GoalField = None, passes: PassesField = None,
               challenge: Annotated[str | None, Form(max_length=results.TOKEN_MAX)] = None,
               ) -> Response:
    """Start the deal of a deal link, the player having agreed to leave their game."""
    variant = read_variant(goal, passes)
    record = actions.reusable_start(
        session, player_id, Deal.from_number(number), variant,
        challenge=challenged(request, session, challenge, number, variant))
    return see_other(path_for(request, "board", game_id=record.id))


@router.get("/games", include_in_schema=False)
@router.get("/games/", include_in_schema=False, name="games_index_slash")
def games_index(request: Request) -> Response:
    """There is no list of games to show: the home page is where games start."""
    return see_other(path_for(request, "home"))


@router.post("/games/{game_id}/restart", name="restart")
def restart(request: Request, session: SessionDep, player_id: PlayerDep, loaded: OwnedGame,
            confirm: ConfirmField = None) -> Response:
    """Play this deal again from the start, as a new game (asking first if this abandons it)."""
    current = actions.in_progress(session, player_id)
    if current is not None and not confirm:
        return ask_to_abandon(
            request, current, action=path_for(request, "restart", game_id=loaded.record.id),
            fields={},
            # TRANSLATORS: what the player would start ("Abandon it and start ..."): the object
            # of "start"; %(rules)s is the rule set, as in "standard goal, 3 passes".
            starting=_("this deal again from the start (%(rules)s)",
                       rules=variant_label(loaded.game.variant)))
    fresh = actions.restart(session, loaded, player_id, starting.today().date())
    return see_other(path_for(request, "board", game_id=fresh.id))


@router.post("/games/{game_id}/retry", name="retry")
async def retry(request: Request, session: SessionDep, player_id: PlayerDep, loaded: OwnedGame,
                before: Annotated[int, Form(ge=1, le=10_000)],
                confirm: ConfirmField = None) -> Response:
    """Try again from move ``before`` of an ended game: a new game, not counted, at the position
    before that move (the move that lost it, say). From the move that lost it, the board marks
    the move that would have kept the win (the solver's analysis, kept once the lost game's
    banner asked for it)."""
    if not loaded.record.status.ended:
        raise PageError(409, _("Not finished yet"),
                        _("Undo takes moves back in a game in progress."),
                        link=(path_for(request, "board", game_id=loaded.record.id),
                              _("Go to the game")))
    before = min(before, len(loaded.game.moves) + 1)
    better = await better_move(session, loaded, player_id, before)
    return await in_one_hop(session, lambda: start_retry(request, session, player_id, loaded,
                                                         before, bool(confirm), better))


async def better_move(session: Session, loaded: LoadedGame, player_id: str,
                      before: int) -> Move | None:
    """The move that would have kept the win, when move ``before`` is the one that lost it
    (none while the deal can still be played for a day's result: ``spoilers``)."""
    if await in_thread(spoilers.kept_private, session, loaded.game):
        return None
    try:
        found = await solving.where_it_went_wrong(session, loaded, player_id)
    except solving.SolverBusy:
        return None
    return found.better_move if found.lost_at == before else None


def start_retry(request: Request, session: Session, player_id: str, loaded: LoadedGame,
                before: int,
                confirmed: bool, better: Move | None) -> Response:
    current = actions.in_progress(session, player_id)
    if current is not None and not confirmed:
        return ask_to_abandon(request, current,
                              action=path_for(request, "retry", game_id=loaded.record.id),
                              fields={"before": before},
                              # TRANSLATORS: what the player would start ("Abandon it and
                              # start ..."): the object of "start".
                              starting=_("this deal again from move %(number)s, not counted",
                                         number=before))
    fresh = actions.retry(session, loaded, player_id, before)
    board = path_for(request, "board", game_id=fresh.id)
    response = see_other(board)
    if better is not None:  # shown: written down (``witness``)
        witness.note_better_move(session, player_id, loaded, before, better)
        put_notice(request, response, fresh.id, board, Notice(
            back_before(better, before),
            hinted=tuple(card.name for card in better.cards),
            hinted_action=None if better.cards else better.op.value))
    return response


# --- rules ---------------------------------------------------------------------------------
DOCS = PROJECT_DIR / "docs"
KEY = re.compile(r"<code>(Tab|Enter|Space|Esc|[A-Z])</code>")
"""A key named in the rules (`D`): drawn as a key."""


def rules_html() -> str:
    """docs/RULES.md, the project's own copy of the rules, as HTML in the request's language
    (``app.web.core.rulestext``: each piece through the catalogs)."""
    return _rules_html(i18n.current())


@lru_cache(maxsize=len(i18n.LANGUAGES))
def _rules_html(language: str) -> str:
    text = (DOCS / "RULES.md").read_text(encoding="utf-8")
    with i18n.speaking(language):
        html = _markdown(rulestext.translated(text, i18n.gettext))
    # Each section an anchor (/rules#difficulty): its English title in lower case, words
    # joined by -, so a link to a section finds it in every language.
    anchors = iter(re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
                   for title in re.findall(r"<h2>(.*?)</h2>", _markdown(text)))
    html = re.sub(r"<h2>(.*?)</h2>",
                  lambda m: f'<h2 id="{next(anchors)}">{m.group(1)}</h2>', html)
    # A table column's alignment as a class: the Content-Security-Policy allows no style="…".
    html = re.sub(r' style="text-align:(left|right|center)"', r' class="align-\1"', html)
    with i18n.speaking(language):
        return drawings(KEY.sub(r"<kbd>\1</kbd>", html))


def _markdown(text: str) -> str:
    return MarkdownIt("commonmark", {"html": False}).enable("table").render(text)


def drawings(html: str) -> str:
    """A drawing of docs/ the rules show as an image (the pyramid, docs/pyramid.svg) goes in
    the page itself, captioned with its text: styled by the page (themes), read by a screen
    reader from its title and description, and no request of its own."""

    def inline(match: re.Match[str]) -> str:
        svg = rulestext.translated_drawing(
            (DOCS / match.group(1)).read_text(encoding="utf-8").strip(), i18n.gettext)
        return (f'<figure class="pyramid-drawing" data-pyramid-drawing>{svg}'
                f"<figcaption>{match.group(2)}</figcaption></figure>")

    return re.sub(r'<p><img src="([a-z-]+\.svg)" alt="([^"]*)" */?></p>', inline, html)


@router.get("/rules", response_class=HTMLResponse, name="rules")
def rules(request: Request) -> Response:
    return templates.TemplateResponse(request, "rules.html", {"rules_html": rules_html()})
