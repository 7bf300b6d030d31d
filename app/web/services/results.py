"""What a finished game is worth beyond its own figures: its par, the challenge it sends or
answers, and how everyone did on its deal.

- **Par** (the fewest moves that win) is kept on a won game when it is known at the win: from a
  par kept with the deal's verdicts. Otherwise the win queues its search in the solver's queue
  (``remember_par``, off the request, at the solver's low priority), which keeps it on the game
  and with the deal; the end screen's results fragment searches it too if asked first.
- **Challenges.** A challenge link is the deal link plus ``challenge=<key>``: the random key the
  sender's game got when it ended (``games.challenge_key``), which names no game: the friend
  cannot learn the sender's game id, so cannot watch its replay before playing; and an edited
  key names no game. The sender's result is read from their game, which never changes once
  ended. A game started from the link remembers the sender's game (``games.challenge``, read
  by the server only): both results side by side at the end, and the sender sees the answers:
  games others played from the link to the end (``store.answers_to`` says which, and under
  which names). Links shared before the key carried the sender's game id, signed
  (itsdangerous): such a link still opens, and moves at once to the new form.
- **A deal's results**: counts and bests over every counted game of the deal; names only for
  players who chose to be listed (``store.results``).
"""

from __future__ import annotations

import contextlib
from concurrent.futures import Future
from typing import Annotated, Any

from fastapi import Query, Request
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy.orm import Session

from app.engine import Deal, Game, GameStatus, Variant
from app.store import (
    DealResults,
    GameRecord,
    LoadedGame,
    Result,
    answers_to,
    challenged_game,
    deal_results,
    get_game,
    rank_of,
    result_of,
    save_par,
    set_game_par,
)
from app.web.core.errors import PageError
from app.web.core.i18n import counted
from app.web.core.i18n import gettext as _
from app.web.core.links import challenge_path, deal_path
from app.web.core.numbers import format_number
from app.web.services import solving
from app.web.views.view import format_duration

SALT = "pyramid.challenge"
TOKEN_MAX = 200
ChallengeQuery = Annotated[str | None, Query(max_length=TOKEN_MAX)]


# --- challenges ----------------------------------------------------------------------------
def _old_signer(request: Request) -> URLSafeSerializer:
    """How links shared before the key were signed: read only, to move them to the key."""
    return URLSafeSerializer(request.app.state.settings.secret_key, salt=SALT)


def _is_old_token(token: str) -> bool:
    """A link shared before the key: itsdangerous's ``payload.signature`` (a key has no dot)."""
    return "." in token


def challenge_game(request: Request, session: Session, token: str, deal: Deal,
                   variant: Variant) -> GameRecord:
    """The sender's game a challenge link names (by its key, or a signed game id from before
    the key), for this deal and these rules; a clear 400 page when the link was edited, or
    names a game of another deal or one not ended."""
    if _is_old_token(token):
        try:
            game_id = _old_signer(request).loads(token)
        except BadSignature:
            game_id = None
        record = get_game(session, game_id) if isinstance(game_id, str) else None
    else:
        record = challenged_game(session, token)
    plain = deal_path(request, deal.number, variant)
    if (record is None or not record.status.ended or record.variant != variant
            or record.deal_number != str(deal.number) or not record.challenge_key):
        raise PageError(400, _("This challenge link is broken"),
                        _("The link was changed or cut short, so it no longer says whose result "
                          "to beat. The deal itself is fine."),
                        link=(plain, _("Play the deal")) if plain else None)
    return record


def moved_challenge(request: Request, session: Session, token: str | None, deal: Deal,
                    variant: Variant) -> str | None:
    """Where a link shared before the key moves to (the same deal and rules, with the sender's
    game's key); None for a link already in the new form."""
    if not token or not _is_old_token(token):
        return None
    record = challenge_game(request, session, token, deal, variant)
    if record.challenge_key is None or deal.number is None:  # pragma: no cover - refused
        return None  # by challenge_game (a game with no key), and a link's deal has a number
    return challenge_path(request, deal.number, variant, record.challenge_key)


TOOK = {
    # TRANSLATORS: what a game took, put in "won this deal in %(took)s" (%(time)s is a clock).
    (False, False): counted("%(num)s move", "%(num)s moves"),
    (True, False): counted("%(num)s move, %(time)s", "%(num)s moves, %(time)s"),
    (False, True): counted("%(num)s move (score %(score)s)", "%(num)s moves (score %(score)s)"),
    (True, True): counted("%(num)s move, %(time)s (score %(score)s)",
                          "%(num)s moves, %(time)s (score %(score)s)"),
}
"""What a challenger's game took, by whether its time and its score are known."""


def challenge_line(result: Result, to_clear: int, *, yours: bool = False) -> str:
    """"Sam won this deal in 48 moves, 2:31: beat it", with nothing that spoils the deal."""
    took = TOOK[result.seconds is not None, result.score is not None](
        result.moves, num=format_number(result.moves), score=format_number(result.score),
        time=format_duration(result.seconds or 0))
    if result.won:
        return (_("You won this deal in %(took)s: beat it.", took=took) if yours
                else _("%(who)s won this deal in %(took)s: beat it.",
                       who=result.name or _("A friend"), took=took))
    values = {"took": took, "cleared": format_number(result.cleared),
              "to_clear": format_number(to_clear)}
    if yours:
        return _("You cleared %(cleared)s of %(to_clear)s cards in %(took)s: can you win it?",
                 **values)
    return _("%(who)s cleared %(cleared)s of %(to_clear)s cards in %(took)s: can you win it?",
             who=result.name or _("A friend"), **values)


def beats(mine: Result, theirs: Result) -> bool | None:
    """Whether ``mine`` beats ``theirs``: a win beats no win; between wins, fewer moves, then
    less time; else more cards cleared. None for a tie."""
    if rank_of(mine) == rank_of(theirs):
        return None
    return rank_of(mine) > rank_of(theirs)


def deal_page_extras(request: Request, session: Session, player_id: str, deal: Deal,
                     variant: Variant, token: str | None) -> dict[str, Any]:
    """A deal link's page context beyond the board: the challenge it carries (if any) and how
    everyone did on the deal (folded under the board; again in an ended game's results)."""
    extras: dict[str, Any] = {}
    if token:
        record = challenge_game(request, session, token, deal, variant)
        extras["challenge_from"] = challenge_line(
            result_of(session, record), variant.to_clear, yours=record.player_id == player_id)
    if deal.number is not None:
        extras["deal_results"] = deal_results(session, deal.number, variant)
    return extras


# --- par -----------------------------------------------------------------------------------
def _search_par(game: Game, game_id: str, number: int | None, database: Any) -> int | None:
    """Search the par of ``game`` (its deal from the start) and keep it on the game and with
    the deal's verdicts (runs on a search thread)."""
    par = solving.par_of(game)
    if par is not None:
        with database.session() as session:
            set_game_par(session, game_id, par)
            if number is not None:
                save_par(session, number, game.goal, game.passes, par)
    return par


def remember_par(request: Request, loaded: LoadedGame) -> Future | None:
    """After a winning move: queue the par's search when the win did not already know it
    (from the committed data or a kept verdict: ``actions``, ``save_position``). Best effort:
    a busy solver leaves it to the results fragment."""
    record = loaded.record
    if record.status != GameStatus.WON or record.par is not None:
        return None
    deal = loaded.game.deal
    start = Game(deal, loaded.game.goal, loaded.game.passes)
    with contextlib.suppress(solving.SolverBusy):
        return solving.QUEUE_OF_SEARCHES.submit(
            f"par:{record.player_id}", _search_par, start, record.id, deal.number,
            request.app.state.db)
    return None


def results_of(session: Session, record: GameRecord) -> tuple[Result, Result | None, list[Result],
                                           DealResults | None]:
    """An ended game's result, the challenge's it answers, the answers to it, and how
    everyone did on its deal."""
    sender = get_game(session, record.challenge) if record.challenge else None
    everyone = (deal_results(session, int(record.deal_number), record.variant)
                if record.deal_number is not None else None)
    return (result_of(session, record), result_of(session, sender) if sender is not None
            else None, answers_to(session, record), everyone)


async def par_of(loaded: LoadedGame, player_id: str, facts) -> tuple[int | None, str | None]:
    """The deal's par: stored with the game, committed, or searched for a won game (the
    solver's queue; when it is busy, None and why)."""
    record, game = loaded.record, loaded.game
    par = record.par or (facts.par if facts else None)
    if par is not None or record.status is not GameStatus.WON:
        return par, None
    try:
        return await solving.QUEUE_OF_SEARCHES.run(
            player_id, solving.par_of, Game(game.deal, game.goal, game.passes)), None
    except solving.SolverBusy as exc:
        return None, str(exc)
