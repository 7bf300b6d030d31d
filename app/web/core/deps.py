"""FastAPI dependencies: the database session, the settings, the caller's player id, and the
game a request is about, loaded and checked once.

``GameDep`` is any game (anyone may look at one); ``OwnedGame`` is a game the caller may move
in: a route that changes a game takes ``OwnedGame`` and never checks ownership itself.

Only what talks to the database is a plain ``def`` (FastAPI runs it on a worker thread); the
rest are ``async def``, because FastAPI hands every plain dependency to the thread pool, and
each such hop costs more CPU than these functions themselves (measured: bench/load.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from sqlalchemy.orm import Session

from app.settings import Settings
from app.store import LoadedGame, load
from app.store.clock import as_utc
from app.store.models import utcnow
from app.web.core.errors import PageError
from app.web.core.i18n import gettext as _
from app.web.core.scope import is_api
from app.web.core.threads import in_thread, release_threads


async def get_session(request: Request) -> AsyncIterator[Session]:
    """A session per request; routes commit explicitly before they answer.

    Making a session touches no database, nor does closing one that holds no transaction
    (a route that committed): both happen here, on the event loop. Closing one that still
    holds a transaction rolls it back, on a worker thread of its own (``release_threads``): the
    close gives a pooled connection back, and every other thread may be waiting for one. A
    crowd opening deal links (a plain ``def`` page that reads, then leaves its session to be
    closed here) while others started games held the whole pool that way until its timeout
    answered 503."""
    session = request.app.state.db.sessions()
    try:
        yield session
    finally:
        if session.in_transaction():
            await in_thread(session.close, limiter=release_threads())
        else:
            session.close()


async def get_settings(request: Request) -> Settings:
    return request.app.state.settings


async def get_player_id(request: Request) -> str:
    return request.state.player_id


async def get_searcher(request: Request) -> str:
    """Whom a search is queued for, so the solver's queue serves each in turn: the player, or,
    without a player cookie, the client's address (a crowd without cookies is still one
    line per address, not one per request)."""
    if getattr(request.state, "new_player", False):
        client = request.client
        return f"address:{client.host if client else 'unknown'}"
    return request.state.player_id


SessionDep = Annotated[Session, Depends(get_session)]
SearcherDep = Annotated[str, Depends(get_searcher)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
PlayerDep = Annotated[str, Depends(get_player_id)]


LOADED_HOOKS: list[Callable[[Session, LoadedGame], None]] = []
"""Called on every game ``get_loaded_game`` reads, before anything is done with it: the races
(``racing.settle_game``) end a game whose race's time ran out, whoever reads it first."""


def when_loaded(hook: Callable[[Session, LoadedGame], None]
                ) -> Callable[[Session, LoadedGame], None]:
    """Register ``hook`` in ``LOADED_HOOKS`` (a decorator)."""
    LOADED_HOOKS.append(hook)
    return hook


def get_loaded_game(request: Request, game_id: str, session: SessionDep) -> LoadedGame:
    """The game ``game_id``, or 404 (the API's Problem, or a page)."""
    loaded = load(session, game_id)
    if loaded is None:
        if is_api(request.scope):
            # TRANSLATORS: the JSON API's answer; %(game)s is the game's id as asked, in quotes.
            raise HTTPException(404, _("no game %(game)s", game=repr(game_id)))
        raise PageError(404, _("No such game"),
                        _("This game does not exist. Start a new one from the home page."))
    started = loaded.record.started_at
    if started is not None and as_utc(started) > utcnow():  # a race's game, in its countdown
        message = _("This race has not started yet: its game opens when the countdown ends.")
        if is_api(request.scope):
            raise HTTPException(409, message)
        raise PageError(409, _("Not started yet"), message)
    for hook in LOADED_HOOKS:
        hook(session, loaded)
    return loaded


def loaded_game_dependency(request: Request, game_id: str, session: SessionDep) -> LoadedGame:
    """``get_loaded_game`` as a dependency, which ends its transaction once the game is read.

    A route may wait after it (for the solver, or for a worker thread) before it writes, and
    an open transaction would hold a pooled connection all that while: a crowd of waiting
    hints would take the whole pool, and everyone else's requests would wait for it (503).
    No write needs the read's transaction: a save is checked against the version read."""
    loaded = get_loaded_game(request, game_id, session)
    session.commit()  # objects stay loaded (expire_on_commit is off); the connection goes back
    return loaded


GameDep = Annotated[LoadedGame, Depends(loaded_game_dependency)]


def owned_game(request: Request, loaded: LoadedGame, player_id: str) -> LoadedGame:
    """``loaded``, when it is the caller's game; else 403."""
    if loaded.record.player_id != player_id:
        if is_api(request.scope):
            raise HTTPException(403, _("this game belongs to another player"))
        raise PageError(403, _("Not your game"),
                        _("This game belongs to another player. You can play the same deal "
                          "yourself from its deal link."))
    return loaded


async def get_owned_game(request: Request, loaded: GameDep, player_id: PlayerDep) -> LoadedGame:
    return owned_game(request, loaded, player_id)


OwnedGame = Annotated[LoadedGame, Depends(get_owned_game)]
