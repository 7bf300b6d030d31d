"""The few things a player does to a stored game, shared by the pages and the JSON API.

Each function takes a game already loaded (a ``LoadedGame``: the route's ``OwnedGame``),
lets the engine judge, saves, and commits, so a route is left to parse its input and render
the result. The engine is the only judge of what is legal.

Versions: every stored game has a version that changes with each move and undo. A caller that
says which version it saw (the board's forms, ``If-Match`` in the API) gets ``VersionMismatch``
instead of a move on a position it has not seen, so a retried or repeated request applies at
most once. The version check on save catches the remaining race, two requests that both read
the same version: one saves, the other gets ``GameConflict``.

Counting (docs/statistics.md): starting a game by any door (new game, deal link, restart, the API)
abandons the player's other games in progress that have moves; an ended game (won, lost or
abandoned) takes no more moves and no undo, so its result is final the moment it is written.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app import odds
from app.engine import (
    Card,
    Deal,
    Game,
    GameStatus,
    IllegalMove,
    Move,
    Refusal,
    Variant,
    game_over,
)
from app.settings import Settings
from app.store import (
    GameConflict,
    GameRecord,
    LoadedGame,
    abandon_in_progress,
    create_game,
    game_by_input,
    hold_games_in_progress,
    latest_unfinished,
    load,
    save_position,
)
from app.web.core import metrics
from app.web.core.i18n import _l
from app.web.core.i18n import gettext as _
from app.web.services import racing, witness
from app.web.services.devicehints import DeviceHint

ATTEMPTS = 3
"""Starting a game holds the player's games in progress first (``hold_games_in_progress``), so
a move in another tab cannot race the abandoning of the old game; should a start conflict all
the same, it is tried again this many times in all, then refused (``StartConflict``)."""


OWN_EARLIER_INPUT = _l("Your earlier input reached the game first: this is where it stands "
                       "now, and your last input was not played on it.")
"""A batch made on a version that this tab's own earlier batch had already moved on from."""


class VersionMismatch(GameConflict):
    """The caller saw another version of the game than the one stored now."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or _("This game changed in another tab or window: this is "
                                      "where it stands now."))


class StartConflict(GameConflict):
    """A game could not be started: the player's games kept changing elsewhere meanwhile.
    Nothing was started or abandoned; the handlers answer 409 with this sentence."""

    def __init__(self) -> None:
        super().__init__(_("Your games changed in another tab or window while this one was "
                           "starting, so no game was started. Please try again."))


def random_deal_number(settings: Settings) -> int:
    return secrets.randbelow(settings.random_deal_max) + 1


# --- moves ---------------------------------------------------------------------------------
def _check(loaded: LoadedGame, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != loaded.version:
        raise VersionMismatch()
    status = loaded.record.status
    if status.ended:  # a race's game may have ended by its time limit (``racing.game_over``)
        raise IllegalMove(racing.game_over(loaded) or game_over(status, loaded.game.outcome()))


def _saved(session: Session, loaded: LoadedGame, expected_version: int | None, *,
           undos: int = 0, input_id: str | None = None,
           untimed_elapsed: int | None = None,
           hints: Sequence[tuple[Game, Move | None]] = ()) -> None:
    game = loaded.game
    facts = (odds.deal_facts(game.deal.number, game.variant)
             if game.status is GameStatus.WON else None)
    try:
        witness.count_borrowed_hints(session, loaded.record, game, hints)  # others' hints
        save_position(session, loaded.record, game, undos=undos, input_id=input_id,
                      par=facts.par if facts else None,  # a won deal's par, known already
                      untimed_elapsed=untimed_elapsed)
        for position, move in hints:  # the device's hints, written down as the server's are
            witness.note_hint(session, loaded.record, position, move)
        noted = racing.note_move(session, loaded.record)  # a race's event, in this commit
        session.commit()
    except GameConflict as exc:
        session.rollback()
        if expected_version is not None:
            raise VersionMismatch() from exc
        raise
    racing.announce(noted)
    _count_finished(game)


def _count_finished(game: Game) -> None:
    if game.status in (GameStatus.WON, GameStatus.LOST):
        metrics.games_finished.labels(metrics.rules_label(game.goal, game.passes),
                                      game.status.value).inc()


UNDO = "undo"
"""A step of a batch that takes back the last move."""
Step = Move | str | DeviceHint


class BatchRefused(IllegalMove):
    """A step of a batch the engine refuses: ``number`` (1-based), the step, and why (its
    ``refusal``)."""

    def __init__(self, number: int, step: Step, why: Refusal) -> None:
        super().__init__(why)
        self.number, self.step = number, step

    @property
    def cards(self) -> tuple[Card, ...]:
        """The refused step's cards, which the board shakes (none for an action or undo)."""
        return self.step.cards if isinstance(self.step, Move) else ()


@dataclass(frozen=True, slots=True)
class Applied:
    """What ``apply`` did with a batch: its steps, and the moves its undos took back."""

    steps: tuple[Step, ...]
    undone: tuple[Move, ...]


def _play_steps(game: Game, steps: list[Step],
                hints: list[tuple[Game, Move | None]] | None = None) -> list[Move]:
    """Play ``steps`` (moves, UNDO, or a device hint) on ``game``; returns the moves undone, and
    adds each hint with the position it was given in to ``hints``. Raises BatchRefused with the
    number of the first step the engine refuses (a hint on an ended game, or naming a move that
    is not legal where it was given)."""
    undone: list[Move] = []
    for number, step in enumerate(steps, start=1):
        try:
            if isinstance(step, DeviceHint):
                if game.is_over():
                    raise IllegalMove(game_over(game.status, game.outcome()))
                why = game.why_illegal(step.move) if step.move is not None else None
                if why is not None:
                    raise IllegalMove(why)
                if hints is not None:
                    hints.append((game.copy(), step.move))
            elif isinstance(step, Move):
                game.play(step)
            else:  # UNDO, the only other step
                undone.append(game.undo())
        except IllegalMove as exc:
            raise BatchRefused(number, step, exc.refusal) from None
    return undone


def apply(session: Session, loaded: LoadedGame, steps: list[Step],
          expected_version: int | None = None, input_id: str | None = None,
          untimed_elapsed: int | None = None) -> Applied:
    """Play ``steps`` (moves, UNDO, or a device's hint) in order and save them at once, all of
    them or none: every input that changes a game comes here (a click, an action, the board's
    script's batch, the API's move or undo, a deal page's first batch). ``expected_version``:
    the version the input was made on (None: whatever is stored). ``input_id``: the batch's
    id, so that a batch sent again is recognised. ``untimed_elapsed``: the steps were made
    without network (``save_position``). No steps: the checks alone (a click that only selects
    a card).

    A game not stored yet (a deal page's, ``store.preview``) is started by its steps in the
    same transaction, filed under the batch's id (``_started_with``). ``loaded`` is the game
    as saved afterwards.

    Raises BatchRefused, saving nothing, when the engine refuses a step (half a batch would be
    a game nobody played); IllegalMove when the game has ended; VersionMismatch or
    GameConflict when the version is not the one stored; AlreadyStarted when a copy of a
    first batch stored its game first. There is no undo after a win, a loss or leaving the
    game: an ended game's result is final ("Play again" replays the deal)."""
    stored = loaded.record.id is not None
    if stored:
        _check(loaded, expected_version)
        if not steps:
            return Applied((), ())
    game = loaded.game.copy()
    hints: list[tuple[Game, Move | None]] = []
    undone = _play_steps(game, steps, hints)
    if stored:
        loaded.game = game
        if hints:  # counted as the hint route counts its own, in the same commit as the moves
            loaded.record.hints_used = (loaded.record.hints_used or 0) + len(hints)
        _saved(session, loaded, expected_version, undos=len(undone), input_id=input_id,
               untimed_elapsed=untimed_elapsed, hints=hints)
    else:
        loaded.record = _started_with(session, loaded.record, game, hints, undos=len(undone),
                                      input_id=input_id, untimed_elapsed=untimed_elapsed)
        loaded.game = game
    metrics.moves.inc(len(steps) - len(undone) - len(hints))
    metrics.undos.inc(len(undone))
    return Applied(tuple(steps), tuple(undone))


# --- hints ---------------------------------------------------------------------------------
def check_playing(loaded: LoadedGame) -> None:
    """Raise IllegalMove, in the engine's words, when the game has ended."""
    _check(loaded, None)


# --- starting games --------------------------------------------------------------------------
def in_progress(session: Session, player_id: str) -> GameRecord | None:
    """The player's game that starting another would abandon: in progress, with moves."""
    record = latest_unfinished(session, player_id)
    return record if record is not None and record.move_count > 0 else None


def started_by(session: Session, player_id: str, input_id: str) -> LoadedGame | None:
    """The player's game whose last batch was ``input_id`` (a first batch sent again)."""
    record = game_by_input(session, player_id, input_id)
    return load(session, record.id) if record is not None else None


def _committed_start(session: Session, player_id: str,
                     make: Callable[[], tuple[GameRecord, int, bool]]) -> GameRecord:
    """Run ``make`` (which abandons what the player leaves and returns the game to play, how
    many it abandoned, and whether the game is a new one) on the player's games in progress
    held (``hold_games_in_progress``), and commit; on a conflict all the same, roll back and
    try again with fresh rows, and after ``ATTEMPTS`` raise StartConflict (nothing done)."""
    for attempt in range(ATTEMPTS):
        try:
            hold_games_in_progress(session, player_id)
            record, abandoned, created = make()
            left = racing.note_left(session, player_id) if abandoned else []
            session.commit()
            for noted in left:
                racing.announce(noted)
            if created:
                metrics.games_started.labels(
                    metrics.rules_label(record.goal, record.passes)).inc()
            if abandoned:
                metrics.games_abandoned.inc(abandoned)
            return record
        except GameConflict:
            session.rollback()
            if attempt == ATTEMPTS - 1:
                raise StartConflict() from None
    raise AssertionError("unreachable")  # pragma: no cover


def start(session: Session, player_id: str, deal: Deal, variant: Variant, *,
          daily: date | None = None, winnable_only: bool = False,
          rated: bool = True) -> GameRecord:
    """A new game; the player's games in progress with moves become abandoned."""

    def make() -> tuple[GameRecord, int, bool]:
        abandoned = abandon_in_progress(session, player_id)
        return create_game(session, player_id, deal, variant.goal, variant.passes,
                           daily=daily, winnable_only=winnable_only, rated=rated), abandoned, True

    return _committed_start(session, player_id, make)


def restart(session: Session, loaded: LoadedGame, player_id: str, today: date) -> GameRecord:
    """A fresh game of the same deal and rules; the old one, if in progress with moves, is
    abandoned. A second click (or a retry) finds the fresh game and returns it again.

    A deal of the day played again counts for its day only on that day: "Play again" on an
    older one is an ordinary game of its deal (a streak is earned on the day, not after)."""
    record, game = loaded.record, loaded.game
    daily = record.daily if record.daily == today else None
    return reusable_start(session, player_id, game.deal, game.variant,
                          daily=daily, winnable_only=record.winnable_only)


def retry(session: Session, loaded: LoadedGame, player_id: str, before: int) -> GameRecord:
    """A new game of the same deal and rules, not counted in the statistics, with the first
    ``before - 1`` moves of this one played: "try again from move ``before``", the position
    before the move that lost it (an ended game takes no undo). Games in progress with moves
    are abandoned, as for any new game."""
    moves = loaded.game.moves[:max(0, before - 1)]
    game = loaded.game

    def make() -> tuple[GameRecord, int, bool]:
        abandoned = abandon_in_progress(session, player_id)
        record = create_game(session, player_id, game.deal, game.goal, game.passes,
                             rated=False)
        if moves:
            save_position(session, record, Game.replay(game.deal, game.goal, game.passes,
                                                       moves), paced=False)
        return record, abandoned, True

    return _committed_start(session, player_id, make)


class AlreadyStarted(RuntimeError):
    """Another request with the same first batch stored its game first."""


def _started_with(session: Session, unstored: GameRecord, game: Game,
                  hints: list[tuple[Game, Move | None]], *, undos: int, input_id: str | None,
                  untimed_elapsed: int | None) -> GameRecord:
    """A deal page's game (``unstored``: its deal, rules and what it counts for) started with
    its first steps, played already in ``game``, in one transaction, all or nothing: the
    player's untouched game of the deal takes them if there is one (``reusable_start``). Filed
    under the batch's id (``games.last_input`` is unique per player): a copy of this batch (a
    retried sync, twenty at once) that stored its game first raises AlreadyStarted, and the
    caller answers with that game, so the batch is played once. A try again begun on the device
    (``unstored`` not rated, ``game`` past the moves it starts from) is a new game, not counted,
    and its moves are not held to a person's pace."""
    player_id, deal, variant = unstored.player_id, game.deal, unstored.variant
    challenge, rated = unstored.challenge, unstored.rated is not False

    def make() -> tuple[GameRecord, int, bool]:
        latest = latest_unfinished(session, player_id)
        if rated and latest is not None and is_fresh_game_of(latest, deal, variant):
            abandoned = abandon_in_progress(session, player_id, keep=latest.id)
            record, created = latest, False
            if challenge and not record.challenge:
                record.challenge = challenge
        else:
            abandoned = abandon_in_progress(session, player_id)
            record = create_game(session, player_id, deal, variant.goal, variant.passes,
                                 daily=unstored.daily, challenge=challenge,
                                 late_daily=unstored.late_daily, rated=rated)
            created = True
        witness.count_borrowed_hints(session, record, game, hints)  # others' hints
        record.hints_used = (record.hints_used or 0) + len(hints)  # the device's own
        save_position(session, record, game, undos=undos, input_id=input_id,
                      untimed_elapsed=untimed_elapsed, paced=rated)
        for position, move in hints:
            witness.note_hint(session, record, position, move)
        return record, abandoned, created

    try:
        record = _committed_start(session, player_id, make)
    except IntegrityError:
        session.rollback()
        raise AlreadyStarted(input_id) from None
    if untimed_elapsed is not None:
        metrics.offline_games_synced.inc()
    _count_finished(game)
    return record


def reusable_start(session: Session, player_id: str, deal: Deal, variant: Variant, *,
                   daily: date | None = None, winnable_only: bool = False,
                   challenge: str | None = None, late_daily: date | None = None) -> GameRecord:
    """Start ``deal`` unless the player's newest game is that same deal, untouched (which
    then takes up ``challenge``, if it has none).

    Opening a deal link twice (a reload, a double click) then does not leave empty games about.
    Either way the player's other games in progress with moves are abandoned.
    """

    def make() -> tuple[GameRecord, int, bool]:
        latest = latest_unfinished(session, player_id)
        if latest is not None and is_fresh_game_of(latest, deal, variant):
            abandoned = abandon_in_progress(session, player_id, keep=latest.id)
            if challenge and not latest.challenge:
                latest.challenge = challenge
            return latest, abandoned, False
        abandoned = abandon_in_progress(session, player_id)
        return create_game(session, player_id, deal, variant.goal, variant.passes,
                           daily=daily, winnable_only=winnable_only, challenge=challenge,
                           late_daily=late_daily), abandoned, True

    return _committed_start(session, player_id, make)


def is_fresh_game_of(record: GameRecord, deal: Deal, variant: Variant) -> bool:
    """Is ``record`` an untouched game of this deal and these rules?"""
    return (record.move_count == 0 and record.variant == variant
            and record.deal_number == (str(deal.number) if deal.number is not None else None)
            and (deal.number is not None or record.deal_text == deal.to_text()))

