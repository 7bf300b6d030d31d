"""A hint asked of the server's solver, as the board and the JSON API ask it: refused in a game
that has ended, in a race without hints, or where it would give away a line kept private
(``spoilers``); searched in the solver's queue (``solving``) with no database connection held;
then counted on the game and written down (``witness``).
"""

from __future__ import annotations

from fastapi import HTTPException
from sqlalchemy.orm import Session

from app.engine import IllegalMove, Move
from app.engine.solver import Hint
from app.store import LoadedGame, count_hint
from app.web.core.threads import burst_threads, in_thread
from app.web.services import actions, racing, solving, spoilers, witness


class HintKeptBack(RuntimeError):
    """No hint in this game: its deal is in play for a result others see, and the game is not
    one playing for it (``spoilers.hint_kept_back``). Nothing is counted."""

    def __init__(self) -> None:
        super().__init__(spoilers.why_no_hint())


async def advise(session: Session, loaded: LoadedGame,
                 player_id: str) -> tuple[Hint, int | None]:
    """The next move of a winning line (``solver.hint``, searched in the solver's queue) and,
    when no win is left, how many moves back the game was still winnable; counted on the game
    once it is answered, and written down (``witness``).

    Raises IllegalMove when the game has ended, HintKeptBack when its deal is in play for a
    result others see and the game does not play for it, SolverBusy when the queue is full.
    The session holds no connection while the search waits or runs."""
    actions.check_playing(loaded)
    # Every hop of a hint's own is on the lane of the writes a burst piles up
    # (``burst_threads``): a flood's first hints never make a read wait behind them.
    lane = burst_threads()
    if loaded.record.race and (why := await in_thread(racing.hints_refused, session,
                                                      loaded.record, limiter=lane)):
        raise HTTPException(403, why)  # a race without hints
    if await in_thread(_kept_back_then_released, session, loaded, limiter=lane):
        raise HintKeptBack()
    advice = await solving.QUEUE_OF_SEARCHES.run(player_id, solving._advice, loaded.game.copy())
    await in_thread(_counted, session, loaded, advice[0].move, limiter=lane)
    return advice


def _kept_back_then_released(session: Session, loaded: LoadedGame) -> bool:
    """Whether this game's hint is kept back (``spoilers.hint_kept_back``); then the session
    lets its connection go, in the same hop (the search holds none while it waits)."""
    try:
        return spoilers.hint_kept_back(session, loaded.record, loaded.game)
    finally:
        if session.in_transaction():
            session.rollback()


def _counted(session: Session, loaded: LoadedGame, move: Move | None) -> None:
    """A hint answered: counted on the game, then written down, in one hop."""
    count_hint_on(session, loaded)
    _note_hint(session, loaded, move)


def _note_hint(session: Session, loaded: LoadedGame, move: Move | None) -> None:
    """A hint given (on any deal) is written down, so that another game whose result others
    see (a challenge's answer, a daily in play) that plays it counts it (``witness``)."""
    witness.note_hint(session, loaded.record, loaded.game, move)
    session.commit()


def count_hint_on(session: Session, loaded: LoadedGame) -> None:
    """Count an answered hint on the game, in a short transaction of its own (the search ran
    with none open). A game that ended meanwhile keeps its final figures."""
    try:
        actions.check_playing(loaded)
    except IllegalMove:
        return
    count_hint(session, loaded.record)
    session.commit()
