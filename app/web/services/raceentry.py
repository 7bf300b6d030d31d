"""Races (docs/races.md): what players do before and around a race: make one, join it, say
they are ready, start it, ask for a rematch. Each change is committed with the race's event
for it, then announced (``racing``'s state, the streams' hub)."""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy.orm import Session

from app import odds
from app.engine import Deal, Variant
from app.settings import Settings
from app.store import races as stored
from app.store.models import Race, utcnow
from app.web.core.i18n import gettext as _
from app.web.services import broadcast
from app.web.services.racing import RaceRefused, current, state


def _event(session: Session, race: Race, now: datetime | None = None) -> int:
    """The race's next event: its state now (or at ``now``), in the caller's transaction."""
    return stored.add_event(session, race.key, state(session, race, now))


def _committed(session: Session, race: Race, event: int) -> None:
    session.commit()
    broadcast.announce(race.key, event)


def has_started() -> RaceRefused:
    return RaceRefused(409, _("This race has started: you can watch it, or start a race of "
                              "your own."))


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


def join(session: Session, key: str, player_id: str) -> Race:
    """The player joins (again: nothing changes); refused past 8 racers or after the start."""
    race = current(session, key)
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
        raise has_started() from None
    _committed(session, race, _event(session, race))
    return race


def _begin(session: Session, settings: Settings, race: Race, now: datetime) -> bool:
    """Start the countdown from ``now`` (the racers' games made, their clocks starting at its
    end: one server instant for everyone), in the caller's transaction; False when the race
    has started already."""
    return stored.start_race(session, race, countdown_seconds=settings.race_countdown_seconds,
                             now=now)


def start(session: Session, settings: Settings, key: str, player_id: str) -> Race:
    """The creator starts the countdown; a second start changes nothing."""
    race = current(session, key)
    if race.creator != player_id:
        raise RaceRefused(403, _("Only the player who made this race can start it."))
    now = utcnow()  # the start's event says the countdown it began, however long the commit
    if _begin(session, settings, race, now):
        _committed(session, race, _event(session, race, now))
        broadcast.hold_deal(int(race.deal_number))
    return race


def ready(session: Session, settings: Settings, key: str, player_id: str) -> Race:
    """The racer is ready; when two or more racers are in and every one is ready, the
    countdown starts as the creator's Start starts it. Again after the start: nothing changes
    for a racer who was ready, 409 for one who was not (the race went without them)."""
    race = current(session, key)
    racer = stored.racer_of(session, key, player_id)
    if racer is None:
        raise RaceRefused(403, _("Only this race's racers can be ready: join it first."))
    if race.status != stored.RaceStatus.WAITING:
        if racer.ready:
            return race
        raise has_started()
    now = utcnow()
    everyone = stored.mark_ready(session, race, player_id)  # the race's row held from here
    session.refresh(race)
    if race.status != stored.RaceStatus.WAITING:  # started meanwhile, by its creator
        session.rollback()
        raise has_started()
    begun = everyone and _begin(session, settings, race, now)
    _committed(session, race, _event(session, race, now))
    if begun:
        broadcast.hold_deal(int(race.deal_number))
    return race


def rematch(session: Session, settings: Settings, key: str, player_id: str) -> Race:
    """A new race for the same racers on a new deal (a winnable one, same rules), made once
    however many of them press Rematch."""
    race = current(session, key)
    players = stored.race_players(session, key)
    if player_id not in players:
        raise RaceRefused(403, _("Only this race's racers can ask for a rematch."))
    if race.rematch:
        return current(session, race.rematch)
    variant = Variant(race.goal, race.passes)
    new = stored.create_race(session, race.creator, Deal.from_number(
        odds.winnable_deal(variant)), race.goal, race.passes, hints=race.hints,
        limit_seconds=race.limit_seconds)
    for other in players:
        stored.join_race(session, new, other)
    if not stored.set_rematch(session, race, new.key):
        session.rollback()
        return current(session, current(session, key).rematch or key)
    race.rematch = new.key
    broadcast.hold_deal(int(new.deal_number))
    first = _event(session, new)
    old = _event(session, race)  # watchers of the old race learn where the rematch is
    session.commit()
    broadcast.announce(new.key, first)
    broadcast.announce(race.key, old)
    return new
