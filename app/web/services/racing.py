"""Races (docs/races.md): what the race pages, the API and the live stream call.

The server is the judge: a race's state (each racer's cards left, moves, passes left, status
and time) is read from the stored games, never from what a client says. That state is what
``GET /api/races/{key}`` answers (with ``you`` for the player asking) and what every event
carries (without it); an event is written in the transaction of what it tells (a join, the
start, a move's save: ``note_move``, called by ``actions``), and announced once committed
(``announce``).

The deal's number is in no answer, event or log line before the race starts: the state
carries ``deal`` only once the countdown has ended, and the racers' games are made at the
start with their clocks starting at its end (a game is not shown before: ``deps``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy.orm import Session

from app.engine import Code, Deal, GameStatus, Goal, Refusal
from app.store import GameConflict, LoadedGame
from app.store import races as stored
from app.store.clock import as_utc
from app.store.models import GameRecord, Race, utcnow
from app.store.positions import load_game
from app.web.core import deps
from app.web.core.i18n import gettext as _
from app.web.core.ranked import unranked_why
from app.web.services import broadcast, spoilers

TIME_UP = "time_up"
"""The termination a game lost by its race's time limit is refused with (``game_over``'s)."""

ORDER = {"won": 0, "lost": 1, "gone": 2, "out": 3}
"""Finished racers' order: won before lost; then games left, then not finished in time
(``ordered``)."""


class RaceRefused(Exception):
    """A request about a race that cannot be done: the HTTP status and why (in words)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def not_found() -> RaceRefused:
    return RaceRefused(404, _("There is no race at this address. Ask for the link again, or "
                              "start a race of your own."))


# --- the state every view shows --------------------------------------------------------------
def status_of(race: Race, entries: list[stored.RacerGame], now: datetime) -> stored.RaceStatus:
    """waiting, countdown, running or finished, by the clock (the row may lag behind it)."""
    if race.status in (stored.RaceStatus.WAITING, stored.RaceStatus.FINISHED):
        return stored.RaceStatus(race.status)
    if race.starts_at is not None and now < as_utc(race.starts_at):
        return stored.RaceStatus.COUNTDOWN
    if race.ends_at is not None and now >= as_utc(race.ends_at):
        return stored.RaceStatus.FINISHED
    games = [entry.game for entry in entries]
    if games and all(game is not None and game.status.ended for game in games):
        return stored.RaceStatus.FINISHED
    return stored.RaceStatus.RUNNING


def _time_ms(game: GameRecord, now: datetime) -> int:
    if game.started_at is None:
        return 0
    end = as_utc(game.finished_at) if game.finished_at else now
    played = (end - as_utc(game.started_at)).total_seconds() - (game.paused_seconds or 0)
    return max(0, int(played * 1000))


def _racer(race: Race, entry: stored.RacerGame, now: datetime,
           status: stored.RaceStatus) -> dict[str, Any]:
    game = entry.game
    goal_cards = 52 if race.goal == Goal.WHOLE_DECK.value else 28
    shown: dict[str, Any] = {
        "id": entry.racer.number, "name": entry.name or _("Racer %(number)s",
                                                          number=entry.racer.number),
        "cards_left": goal_cards, "moves": 0, "passes_left": race.passes - 1,
        "status": "waiting", "time_ms": 0, "hints": 0, "ranked": True,
        "ready": bool(entry.racer.ready), "timed": True, "unranked_why": None}
    if game is None:
        return shown
    position = load_game(game)
    racer_status = {GameStatus.WON: "won", GameStatus.LOST: "lost",
                    GameStatus.ABANDONED: "gone"}.get(game.status, "playing")
    ends = as_utc(race.ends_at) if race.ends_at else None
    late = ends is not None and ((racer_status == "playing" and now >= ends) or (
        game.finished_at is not None and as_utc(game.finished_at) > ends))
    if late or game.lost_by_time(position.is_over()):
        racer_status = "out"
    elif status is stored.RaceStatus.COUNTDOWN:
        racer_status = "waiting"
    shown.update(cards_left=goal_cards - (game.cleared or 0), moves=game.move_count,
                 passes_left=position.passes_left, status=racer_status,
                 time_ms=_time_ms(game, min(now, ends) if ends else now),
                 hints=game.hints_used or 0, ranked=bool(game.ranked),
                 timed=game.timed is not False, unranked_why=unranked_why(game))
    if status is stored.RaceStatus.FINISHED:
        shown["game"] = game.id  # the replays open after the race
    return shown


def ordered(racers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Finished racers first, in result order: ranked before unranked, won before lost; the
    winners by time, then moves; the others by how far they got (fewest cards left), then
    time, then moves (so a racer who never moved is not placed above one who played); then
    the racers still playing, in the order they joined."""
    def key(racer: dict[str, Any]) -> tuple:
        finished = racer["status"] in ORDER
        won = racer["status"] == "won"
        return (not finished, finished and not racer["ranked"], ORDER.get(racer["status"], 9),
                0 if won else racer["cards_left"], racer["time_ms"], racer["moves"],
                racer["id"])
    return sorted(racers, key=key)


def state(session: Session, race: Race, now: datetime | None = None) -> dict[str, Any]:
    """The race as everyone may see it (no ``you``): what each event carries."""
    now = now or utcnow()
    entries = stored.racers_of(session, race.key)
    status = status_of(race, entries, now)
    racers = ordered([_racer(race, entry, now, status) for entry in entries])
    for place, racer in enumerate(racers, start=1):
        racer["place"] = place if racer["status"] in ORDER else None
    shown: dict[str, Any] = {
        "key": race.key, "status": status, "goal": race.goal, "passes": race.passes,
        "hints": race.hints, "limit_seconds": race.limit_seconds, "racers": racers,
        "starts_at": as_utc(race.starts_at).isoformat() if race.starts_at else None,
        "ends_at": as_utc(race.ends_at).isoformat() if race.ends_at else None,
        "starts_in_ms": (max(0, int((as_utc(race.starts_at) - now).total_seconds() * 1000))
                         if race.starts_at else None),
        "rematch": race.rematch}
    if status in (stored.RaceStatus.RUNNING, stored.RaceStatus.FINISHED):
        shown["deal"] = int(race.deal_number)
    return shown


def seen_by(session: Session, race: Race, player_id: str,
            now: datetime | None = None) -> dict[str, Any]:
    """The race as ``player_id`` sees it: ``you`` on their racer, their game's id, and
    whether they made the race."""
    shown = state(session, race, now)
    racer = stored.racer_of(session, race.key, player_id)
    for entry in shown["racers"]:
        entry["you"] = racer is not None and entry["id"] == racer.number
    shown["you"] = {"racer": racer.number if racer else None,
                    "game": racer.game_id if racer else None,
                    "creator": race.creator == player_id}
    return shown


def current(session: Session, key: str) -> Race:
    """The race ``key`` (404 if none), brought up to the clock: one past its time limit is
    finished here, its games still in play lost by time (``settle``), whoever asks first."""
    race = stored.get_race(session, key) if len(key) <= 32 else None
    if race is None:
        raise not_found()
    announce(settle(session, race))
    return race


# --- moves and the clock ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Noted:
    key: str
    event: int
    finished: int | None = None
    """The deal of a race this event finished (its lines open now)."""


def announce(noted: Noted | None) -> None:
    """After the commit: the streams hear of the event; a finished race's deal opens."""
    if noted is not None:
        broadcast.announce(noted.key, noted.event)
        if noted.finished is not None:
            broadcast.release_deal(noted.finished)


def note_move(session: Session, record: GameRecord) -> Noted | None:
    """A race game's move was saved (not committed): the race's event for it, in the same
    transaction; the race is marked finished when this move ended the last game."""
    if not record.race:
        return None
    race = stored.get_race(session, record.race)
    if race is None:
        return None
    shown = state(session, race)
    finished = None
    if shown["status"] is stored.RaceStatus.FINISHED and race.status != stored.RaceStatus.FINISHED:
        stored.mark_finished(session, race)
        if race.ends_at is not None and utcnow() >= as_utc(race.ends_at):
            stored.end_by_time(session, race)  # a move read just before the end, saved after
        shown, finished = state(session, race), int(race.deal_number)
    return Noted(race.key, stored.add_event(session, race.key, shown), finished)


def note_left(session: Session, player_id: str) -> list[Noted]:
    """The player started another game: their race games just left (abandoned) tell their
    races, in the same transaction."""
    return [noted for record in stored.left_in_live_races(session, player_id)
            if (noted := note_move(session, record)) is not None]


def settle(session: Session, race: Race, now: datetime | None = None) -> Noted | None:
    """A race past its time limit whose row says it goes on: marked finished, each of its
    games still in play lost by time (at the race's end, by the server: ``end_by_time``), its
    event written, all committed at once. Whichever request or process comes first (a read of
    the race or of a racer's game, a move, a stream's hub) does it; no process need be
    watching at the time. Returns the event to announce, None when nothing was due."""
    now = now or utcnow()
    for _attempt in range(3):
        if (race.status not in (stored.RaceStatus.COUNTDOWN, stored.RaceStatus.RUNNING)
                or race.ends_at is None or now < as_utc(race.ends_at)):
            return None
        try:
            stored.end_by_time(session, race)  # the games first, as a move holds them first
            if stored.mark_finished(session, race, was=("countdown", "running")):
                noted = Noted(race.key, stored.add_event(session, race.key,
                                                         state(session, race, now)),
                              int(race.deal_number))
                session.commit()
                return noted
        except GameConflict:
            pass  # a move landed in one of its games meanwhile: read them again
        session.rollback()
        session.refresh(race)
    return None


def move_on(session: Session, now: datetime | None = None) -> list[Noted]:
    """Races whose row is behind the clock, moved on, each with its event (the countdown
    ended; the time is up: ``settle``): whichever process gets there first writes it."""
    now = now or utcnow()
    noted = []
    for race in stored.due_races(session, now):
        if race.status == stored.RaceStatus.COUNTDOWN:
            if stored.mark_running(session, race):
                noted.append(Noted(race.key, stored.add_event(
                    session, race.key, state(session, race, now))))
            session.commit()
        elif (settled := settle(session, race, now)) is not None:
            noted.append(settled)
    session.commit()
    return noted


def tick(database) -> None:
    """The hub's tick (on a worker thread): races moved on by the clock, and announced."""
    with database.sessions() as session:
        noted = move_on(session)
    for each in noted:
        announce(each)


def game_over(loaded: LoadedGame) -> Refusal | None:
    """The refusal of an input on a game its race's time limit ended (``game_over`` with the
    termination ``time_up``), None for any other game."""
    record = loaded.record
    if not record.lost_by_time(loaded.game.is_over()):
        return None
    return Refusal(Code.GAME_OVER, {"status": record.status.value, "termination": TIME_UP})


@deps.when_loaded
def settle_game(session: Session, loaded: LoadedGame) -> None:
    """A race game read (a page, the API, a move): its race brought up to the clock first
    (``settle``), so that a move sent after the time limit finds the game ended."""
    record = loaded.record
    if not record.race or record.status.ended:
        return
    race = stored.get_race(session, record.race)
    if race is None or (noted := settle(session, race)) is None:
        return
    announce(noted)
    session.refresh(record)
    loaded.game = load_game(record)


def hints_refused(session: Session, record: GameRecord) -> str | None:
    """Why a hint is refused in this game (a race without hints), or None."""
    if not record.race:
        return None
    race = stored.get_race(session, record.race)
    if race is None or race.hints:
        return None
    return _("Hints are off in this race.")


def board_extras(session: Session, record: GameRecord) -> dict[str, Any] | None:
    """What a game's board is drawn with besides the game: a race without hints has no hint
    control (the page then offers none, from the server or the device's solver), whichever
    answer draws the board."""
    return {"hints_off": True} if hints_refused(session, record) else None


def races_of(session: Session, player_id: str, limit: int = 10) -> list[dict[str, Any]]:
    """The player's last races for their statistics: when, the rules, the race's status, and
    their place among how many once it is over."""
    now = utcnow()
    shown = []
    for race in stored.races_of_player(session, player_id, limit):
        entries = stored.racers_of(session, race.key)
        status = status_of(race, entries, now)
        mine = next(entry.racer.number for entry in entries
                    if entry.racer.player_id == player_id)
        place = None
        if status is stored.RaceStatus.FINISHED:
            racers = state(session, race, now)["racers"]
            place = next((r["place"] for r in racers if r["id"] == mine), None)
        shown.append({"key": race.key, "when": as_utc(race.created_at), "goal": race.goal,
                      "passes": race.passes, "status": status, "place": place,
                      "racers": len(entries)})
    return shown


@spoilers.in_play_source
def a_race_in_play(_session: Session, deal: Deal, _day: date) -> bool:
    """A deal raced right now: its lines are nobody's until the race ends (``spoilers``)."""
    return broadcast.deal_in_race(deal.number)


def in_race(deal_number: int | None) -> bool:
    """Whether a race not yet over is on this deal: its replays wait for the end."""
    return broadcast.deal_in_race(deal_number)


def raced_title() -> str:
    return _("Not before the race is over")


def why_raced() -> str:
    return _("This deal is being raced right now: its games' replays and the solver's lines "
             "open when the race is over.")
