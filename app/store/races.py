"""Races: friends play one deal at once, each their own game, and see each other's progress.

All SQL about races is here. A race's row counts its racers and its events with ``UPDATE ...
RETURNING``: the row is locked from there to the commit (PostgreSQL), and SQLite has one
writer at a time, so two joins at once cannot both take the 8th place, and two racers' moves
at once get events 5 and 6, committed in that order, never two events 5.

An event is written in the same transaction as what it tells (a move's save, a join, the
start); on PostgreSQL it is announced by ``pg_notify`` in that transaction too, so the
announcement goes out exactly when the event is committed, and every app process listening
(``listen``) reads it from ``race_events``.

The deal: a racer's game is made at the start (``start_race``), its clock started at the
end of the countdown (``started_at`` in the future until then): ``latest_unfinished`` and the
web layer's game look-up show no such game before it starts.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import func, or_, select, text, update
from sqlalchemy.orm import Session

from app.engine import Deal

from .clock import as_utc
from .db import Database
from .games import mark_lost_by_time, new_game_id, new_record
from .models import GameRecord, Player, Race, RaceEvent, Racer, rows_changed, utcnow

__all__ = [
    "CHANNEL",
    "MAX_RACERS",
    "Race",
    "RaceEvent",
    "RaceFull",
    "RaceStarted",
    "RaceStatus",
    "Racer",
    "RacerGame",
    "add_event",
    "create_race",
    "deal_in_live_race",
    "due_races",
    "end_by_time",
    "events_after",
    "get_race",
    "join_race",
    "latest_event",
    "left_in_live_races",
    "listen",
    "live_deals",
    "lock_race",
    "mark_finished",
    "mark_ready",
    "mark_running",
    "new_race_key",
    "race_players",
    "racer_of",
    "racers_of",
    "races_of_player",
    "set_rematch",
    "start_race",
    "unended_games",
]


class RaceStatus(StrEnum):
    """Where a race stands: the values of ``races.status``, and of the state's ``status`` the
    API, the events and the pages show (the web layer reads it by the clock: a row may lag)."""

    WAITING = "waiting"
    COUNTDOWN = "countdown"
    RUNNING = "running"
    FINISHED = "finished"


class RacerStatus(StrEnum):
    """Where one racer stands: the ``status`` of each racer the API, the events and the strip
    show (``out``: their game was still in play when the race's time ran out)."""

    WAITING = "waiting"
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    OUT = "out"
    GONE = "gone"

    @property
    def finished(self) -> bool:
        """Done racing, with a time of their own (gone is not: they left)."""
        return self in (RacerStatus.WON, RacerStatus.LOST, RacerStatus.OUT)


MAX_RACERS = 8
CHANNEL = "pyramid_races"
"""PostgreSQL's NOTIFY channel: each notification is ``<race key> <event id>``."""

WAITING_KEPT = timedelta(days=1)
"""A race that never started keeps its deal "in play" this long after it was made."""


class RaceFull(RuntimeError):
    """The race has its 8 racers already."""


class RaceStarted(RuntimeError):
    """The race has started: it takes no new racer (anyone may still watch)."""


def new_race_key() -> str:
    """128 random bits: a race's link can be sent, never guessed or enumerated."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True, slots=True)
class RacerGame:
    """A racer and their game (None before the start)."""

    racer: Racer
    game: GameRecord | None
    name: str | None = None


def create_race(session: Session, creator: str, deal: Deal, goal: str, passes: int, *,
                hints: bool = True, limit_seconds: int = 900,
                now: datetime | None = None) -> Race:
    """A new race, waiting, with its creator as its first racer."""
    race = Race(key=new_race_key(), goal=goal, passes=passes, deal_number=str(deal.number),
                hints=hints, creator=creator, status="waiting", limit_seconds=limit_seconds,
                racers=0, events=0, created_at=now or utcnow())
    session.add(race)
    session.flush()
    join_race(session, race, creator, now=now)
    return race


def get_race(session: Session, key: str, *, fresh: bool = False) -> Race | None:
    if fresh:
        return session.scalars(select(Race).where(Race.key == key)
                               .execution_options(populate_existing=True)).first()
    return session.get(Race, key)


def racer_of(session: Session, key: str, player_id: str) -> Racer | None:
    return session.get(Racer, (key, player_id))


def join_race(session: Session, race: Race, player_id: str,
              now: datetime | None = None) -> Racer:
    """The player's place in the race: the one they have (joining twice is joining once), or
    the next one. Raises RaceStarted after the start, RaceFull past ``MAX_RACERS``."""
    racer = racer_of(session, race.key, player_id)
    if racer is not None:
        return racer
    if race.status != "waiting":
        raise RaceStarted(race.key)
    number = session.execute(
        update(Race).where(Race.key == race.key, Race.racers < MAX_RACERS,
                           Race.status == "waiting")
        .values(racers=Race.racers + 1).returning(Race.racers)
        .execution_options(synchronize_session=False)).scalar()
    if number is None:
        fresh = get_race(session, race.key, fresh=True)
        if fresh is not None and fresh.status != "waiting":
            raise RaceStarted(race.key)
        raise RaceFull(race.key)
    racer = Racer(race_key=race.key, player_id=player_id, number=number,
                  game_id=new_game_id(), joined_at=now or utcnow())
    session.add(racer)
    session.flush()
    return racer


def racers_of(session: Session, key: str) -> list[RacerGame]:
    """The race's racers in the order they joined, each with their game (once made)."""
    rows = session.execute(
        select(Racer, GameRecord, Player.display_name)
        .outerjoin(GameRecord, GameRecord.id == Racer.game_id)
        .outerjoin(Player, Player.id == Racer.player_id)
        .where(Racer.race_key == key).order_by(Racer.number)
        .execution_options(populate_existing=True)).all()
    return [RacerGame(racer, game, name) for racer, game, name in rows]


def lock_race(session: Session, key: str) -> None:
    """Hold the race's row to the end of the transaction (a write that changes nothing), so
    what is read about it next (who is ready) stays true until the commit: two racers ready
    at once are one after the other, and the second one's request sees the first ready."""
    session.execute(update(Race).where(Race.key == key).values(events=Race.events)
                    .execution_options(synchronize_session=False))


def mark_ready(session: Session, race: Race, player_id: str) -> bool:
    """The racer is ready (the race's row held first: ``lock_race``). Returns whether every
    racer is now ready, and there are two or more of them: then the race may start."""
    lock_race(session, race.key)
    session.execute(update(Racer).where(Racer.race_key == race.key,
                                        Racer.player_id == player_id).values(ready=True)
                    .execution_options(synchronize_session=False))
    readiness = list(session.scalars(select(Racer.ready).where(Racer.race_key == race.key)))
    return len(readiness) >= 2 and all(readiness)


def race_players(session: Session, key: str) -> list[str]:
    return list(session.scalars(select(Racer.player_id).where(Racer.race_key == key)
                                .order_by(Racer.number)))


def start_race(session: Session, race: Race, *, countdown_seconds: float = 3.0,
               now: datetime | None = None) -> bool:
    """Start the countdown: the race starts ``countdown_seconds`` from ``now``, the same
    instant for every racer, and each racer's game is made with its clock starting then.
    Returns False (nothing done) when the race has started already."""
    now = now or utcnow()
    starts_at = now + timedelta(seconds=countdown_seconds)
    ends_at = starts_at + timedelta(seconds=race.limit_seconds)
    done = session.execute(
        update(Race).where(Race.key == race.key, Race.status == "waiting")
        .values(status="countdown", starts_at=starts_at, ends_at=ends_at)
        .execution_options(synchronize_session=False))
    if not rows_changed(done):
        return False
    session.refresh(race)
    deal = Deal.from_number(int(race.deal_number))
    for entry in racers_of(session, race.key):
        record, _ = new_record(entry.racer.player_id, deal, race.goal, race.passes, now)
        record.id, record.race, record.started_at = entry.racer.game_id, race.key, starts_at
        session.add(record)
    session.flush()
    return True


def mark_finished(session: Session, race: Race, *, was: tuple[str, ...] = (
        "waiting", "countdown", "running")) -> bool:
    """The race is over (every racer finished, or its time is up): True for the one
    transaction that marks it."""
    done = session.execute(update(Race).where(Race.key == race.key, Race.status.in_(was))
                           .values(status="finished")
                           .execution_options(synchronize_session=False))
    if rows_changed(done):
        race.status = "finished"
    return bool(rows_changed(done))


def unended_games(session: Session, key: str) -> list[GameRecord]:
    """The race's games still in play, read afresh."""
    return list(session.scalars(
        select(GameRecord).where(GameRecord.race == key, GameRecord.status == "playing")
        .order_by(GameRecord.id).execution_options(populate_existing=True)))


def end_by_time(session: Session, race: Race) -> int:
    """The race's time ran out: each of its games still in play is lost, ended at the race's
    end (``games.mark_lost_by_time``). Returns how many. Raises GameConflict when a move
    landed in one of them meanwhile (try again)."""
    assert race.ends_at is not None
    return sum(mark_lost_by_time(session, record, as_utc(race.ends_at))
               for record in unended_games(session, race.key))


def mark_running(session: Session, race: Race) -> bool:
    """The countdown ended: True for the one transaction that marks it."""
    done = session.execute(update(Race).where(Race.key == race.key,
                                              Race.status == "countdown")
                           .values(status="running")
                           .execution_options(synchronize_session=False))
    if rows_changed(done):
        race.status = "running"
    return bool(rows_changed(done))


def due_races(session: Session, now: datetime | None = None) -> list[Race]:
    """Races whose row is behind the clock: a countdown that has ended, or a race past its
    end (the process that moves one on writes its event)."""
    now = now or utcnow()
    return list(session.scalars(select(Race).where(or_(
        (Race.status == "countdown") & (Race.starts_at <= now),
        (Race.status == "running") & (Race.ends_at <= now))).limit(100)))


def add_event(session: Session, key: str, payload: dict[str, Any],
              now: datetime | None = None) -> int:
    """Write the race's next event (its id: the race's count of events, plus one) in the
    caller's transaction; on PostgreSQL it is announced when that transaction commits."""
    number = session.execute(
        update(Race).where(Race.key == key).values(events=Race.events + 1)
        .returning(Race.events).execution_options(synchronize_session=False)).scalar_one()
    session.add(RaceEvent(race_key=key, id=number, payload=json.dumps(payload, separators=(
        ",", ":")), created_at=now or utcnow()))
    session.flush()
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_notify(:channel, :message)"),
                        {"channel": CHANNEL, "message": f"{key} {number}"})
    return number


def events_after(session: Session, key: str, after: int, limit: int = 500
                 ) -> list[tuple[int, str]]:
    """The race's events after id ``after``, in order: (id, JSON text)."""
    return [(row.id, row.payload) for row in session.execute(
        select(RaceEvent.id, RaceEvent.payload)
        .where(RaceEvent.race_key == key, RaceEvent.id > after)
        .order_by(RaceEvent.id).limit(limit))]


def latest_event(session: Session, key: str) -> list[tuple[int, str]]:
    """The race's last event alone (each event holds the whole state): a new stream's first."""
    row = session.execute(select(RaceEvent.id, RaceEvent.payload)
                          .where(RaceEvent.race_key == key)
                          .order_by(RaceEvent.id.desc()).limit(1)).first()
    return [(row.id, row.payload)] if row else []


def live_deals(session: Session, now: datetime | None = None) -> set[int]:
    """The deals of the races not yet over (``deal_in_live_race``'s, all at once)."""
    now = now or utcnow()
    return {int(number) for number in session.scalars(
        select(Race.deal_number).where(
            Race.status != "finished",
            or_(Race.ends_at > now,
                (Race.ends_at.is_(None)) & (Race.created_at > now - WAITING_KEPT)))
        .distinct().limit(10_000))}


def deal_in_live_race(session: Session, deal_number: int | None,
                      now: datetime | None = None) -> bool:
    """Whether a race not yet over is on this deal (any rules): its line is nobody's to see
    until it ends. A race that never started counts for ``WAITING_KEPT``."""
    if deal_number is None:
        return False
    now = now or utcnow()
    found = session.scalar(select(func.count()).select_from(Race).where(
        Race.deal_number == str(deal_number), Race.status != "finished",
        or_(Race.ends_at > now,
            (Race.ends_at.is_(None)) & (Race.created_at > now - WAITING_KEPT))))
    return bool(found)


def left_in_live_races(session: Session, player_id: str) -> list[GameRecord]:
    """The player's race games that were left (abandoned) in races not marked finished: one
    per race."""
    records = session.scalars(
        select(GameRecord).join(Race, Race.key == GameRecord.race)
        .where(GameRecord.player_id == player_id, GameRecord.status == "abandoned",
               Race.status != "finished")).all()
    return list({record.race: record for record in records}.values())


def set_rematch(session: Session, race: Race, rematch_key: str) -> bool:
    """Name the race a rematch made: True for the first, so that one click (or twenty) makes
    one rematch."""
    done = session.execute(update(Race).where(Race.key == race.key, Race.rematch.is_(None))
                           .values(rematch=rematch_key)
                           .execution_options(synchronize_session=False))
    return bool(rows_changed(done))


def races_of_player(session: Session, player_id: str, limit: int = 20) -> list[Race]:
    """The races the player joined, the newest first."""
    return list(session.scalars(
        select(Race).join(Racer, Racer.race_key == Race.key)
        .where(Racer.player_id == player_id).order_by(Racer.joined_at.desc()).limit(limit)))


async def listen(database: Database) -> Any:
    """A PostgreSQL connection of its own (autocommit) listening on ``CHANNEL``; its
    ``notifies()`` yields each announcement (``<race key> <event id>``)."""
    engine = database.engine
    cargs, cparams = engine.dialect.create_connect_args(engine.url)
    connection = await engine.dialect.loaded_dbapi.AsyncConnection.connect(
        *cargs, autocommit=True, **cparams)
    await connection.execute(f"LISTEN {CHANNEL}")
    return connection
