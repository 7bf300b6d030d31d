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

import secrets
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy.orm import Session

from app import odds
from app.engine import Deal, GameStatus, Goal, Variant
from app.settings import Settings
from app.store import races as stored
from app.store.clock import as_utc
from app.store.models import GameRecord, Race, utcnow
from app.store.positions import load_game
from app.web.core.i18n import gettext as _
from app.web.services import broadcast, spoilers

ORDER = {"won": 0, "lost": 1, "gone": 2, "out": 3}
"""Finished racers' order: won before lost (then time, then moves); then games left or not
finished in time."""


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
        "status": "waiting", "time_ms": 0, "hints": 0, "ranked": True}
    if game is None:
        return shown
    racer_status = {GameStatus.WON: "won", GameStatus.LOST: "lost",
                    GameStatus.ABANDONED: "gone"}.get(game.status, "playing")
    ends = as_utc(race.ends_at) if race.ends_at else None
    if ends is not None and ((racer_status == "playing" and now >= ends) or
                             (game.finished_at is not None and as_utc(game.finished_at) > ends)):
        racer_status = "out"
    elif status is stored.RaceStatus.COUNTDOWN:
        racer_status = "waiting"
    shown.update(cards_left=goal_cards - (game.cleared or 0), moves=game.move_count,
                 passes_left=load_game(game).passes_left, status=racer_status,
                 time_ms=_time_ms(game, min(now, ends) if ends else now),
                 hints=game.hints_used or 0, ranked=bool(game.ranked))
    if status is stored.RaceStatus.FINISHED:
        shown["game"] = game.id  # the replays open after the race
    return shown


def ordered(racers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Finished racers first, in result order: ranked before unranked, won before lost, then
    time, then moves; then the others in the order they joined."""
    def key(racer: dict[str, Any]) -> tuple:
        finished = racer["status"] in ORDER
        return (not finished, finished and not racer["ranked"], ORDER.get(racer["status"], 9),
                racer["time_ms"] if racer["status"] == "won" else 0, racer["moves"],
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


# --- what players do ------------------------------------------------------------------------
def _event(session: Session, race: Race, now: datetime | None = None) -> int:
    """The race's next event: its state now (or at ``now``), in the caller's transaction."""
    return stored.add_event(session, race.key, state(session, race, now))


def create(session: Session, settings: Settings, player_id: str, variant: Variant,
           number: int | None, difficulty: str | None, hints: bool) -> Race:
    """A new race (its creator its first racer), committed and announced. No deal: a random
    one; a difficulty: a winnable deal of it."""
    if number is None and difficulty:
        number = odds.random_winnable(variant, difficulty=difficulty)
    elif number is None:
        number = secrets.randbelow(settings.random_deal_max) + 1
    race = stored.create_race(session, player_id, Deal.from_number(number), variant.goal.value,
                              variant.passes, hints=hints,
                              limit_seconds=settings.race_limit_minutes * 60)
    _committed(session, race, _event(session, race))
    broadcast.hold_deal(number)
    return race


def get(session: Session, key: str) -> Race:
    race = stored.get_race(session, key) if len(key) <= 32 else None
    if race is None:
        raise not_found()
    return race


def join(session: Session, key: str, player_id: str) -> Race:
    """The player joins (again: nothing changes); refused past 8 racers or after the start."""
    race = get(session, key)
    already = stored.racer_of(session, key, player_id)
    if already is not None:
        return race
    try:
        stored.join_race(session, race, player_id)
    except stored.RaceFull:
        session.rollback()
        raise RaceRefused(409, _("This race has its %(count)s racers already: you can watch "
                                 "it.", count=stored.MAX_RACERS)) from None
    except stored.RaceStarted:
        session.rollback()
        raise RaceRefused(409, _("This race has started: you can watch it, or start a race "
                                 "of your own.")) from None
    _committed(session, race, _event(session, race))
    return race


def start(session: Session, settings: Settings, key: str, player_id: str) -> Race:
    """The creator starts the countdown; a second start changes nothing."""
    race = get(session, key)
    if race.creator != player_id:
        raise RaceRefused(403, _("Only the player who made this race can start it."))
    now = utcnow()  # the start's event says the countdown it began, however long the commit
    if stored.start_race(session, race, countdown_seconds=settings.race_countdown_seconds,
                         now=now):
        _committed(session, race, _event(session, race, now))
        broadcast.hold_deal(int(race.deal_number))
    return race


def rematch(session: Session, settings: Settings, key: str, player_id: str) -> Race:
    """A new race for the same racers on a new deal (a winnable one, same rules), made once
    however many of them press Rematch."""
    race = get(session, key)
    players = stored.race_players(session, key)
    if player_id not in players:
        raise RaceRefused(403, _("Only this race's racers can ask for a rematch."))
    if race.rematch:
        return get(session, race.rematch)
    variant = Variant(race.goal, race.passes)
    new = stored.create_race(session, race.creator, Deal.from_number(
        odds.winnable_deal(variant)), race.goal, race.passes, hints=race.hints,
        limit_seconds=race.limit_seconds)
    for other in players:
        stored.join_race(session, new, other)
    if not stored.set_rematch(session, race, new.key):
        session.rollback()
        return get(session, get(session, key).rematch or key)
    race.rematch = new.key
    broadcast.hold_deal(int(new.deal_number))
    first = _event(session, new)
    old = _event(session, race)  # watchers of the old race learn where the rematch is
    session.commit()
    broadcast.announce(new.key, first)
    broadcast.announce(race.key, old)
    return new


def _committed(session: Session, race: Race, event: int) -> None:
    session.commit()
    broadcast.announce(race.key, event)


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
        shown, finished = state(session, race), int(race.deal_number)
    return Noted(race.key, stored.add_event(session, race.key, shown), finished)


def note_left(session: Session, player_id: str) -> list[Noted]:
    """The player started another game: their race games just left (abandoned) tell their
    races, in the same transaction."""
    return [noted for record in stored.left_in_live_races(session, player_id)
            if (noted := note_move(session, record)) is not None]


def move_on(session: Session, now: datetime | None = None) -> list[Noted]:
    """Races whose row is behind the clock, moved on, each with its event (the countdown
    ended; the time is up): whichever process gets there first writes it."""
    now = now or utcnow()
    noted = []
    for race in stored.due_races(session, now):
        done = (stored.mark_running(session, race) if race.status == stored.RaceStatus.COUNTDOWN
                else stored.mark_finished(session, race, was=("running",)))
        if done:
            noted.append(Noted(race.key, stored.add_event(
                session, race.key, state(session, race, now)),
                int(race.deal_number) if race.status == stored.RaceStatus.FINISHED else None))
    session.commit()
    return noted


def tick(database) -> None:
    """The hub's tick (on a worker thread): races moved on by the clock, and announced."""
    with database.sessions() as session:
        noted = move_on(session)
    for each in noted:
        announce(each)


def hints_refused(session: Session, record: GameRecord) -> str | None:
    """Why a hint is refused in this game (a race without hints), or None."""
    if not record.race:
        return None
    race = stored.get_race(session, record.race)
    if race is None or race.hints:
        return None
    return _("Hints are off in this race.")


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
