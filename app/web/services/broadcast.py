"""The races' live events, from the transaction that wrote them to every open stream.

An event is a row of ``race_events`` (``racing``), so a stream can always catch up from the
database; what travels is only the news that a race has a new event:

- **In process** (``Hub``, SQLite, one process): ``announce`` after the commit wakes this
  process's hub, which reads the race's new events once and hands them to each of its
  streams of that race.
- **PostgreSQL** (``ListeningHub``): the event's transaction also sends ``pg_notify``, which
  PostgreSQL delivers on commit to every app process listening, each with one connection of
  its own (psycopg's ``AsyncConnection.notifies()``), which fans out to its streams the same
  way. A lost connection is made again, and every race with streams is read afresh.

A stream (``Subscription``) holds a bounded queue: a client that stops reading fills it and
is cut (and ``SendDeadline`` cuts a send that nobody takes). Streams are counted per address
and per process, and refused past ``Settings.race_streams_per_address`` /
``race_streams_per_process`` (429 / 503 with Retry-After: ``Refused``).

The hub's own loop moves races on by the clock (a countdown that ended, a race out of time:
``racing.move_on``) and keeps the set of deals in live races (``deal_in_race``), which
``spoilers`` asks about on every analysis and every move, without a query.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from app.settings import Settings
from app.store import races as stored
from app.web.core.threads import in_thread

log = logging.getLogger("pyramid.races")

TICK_SECONDS = 0.25
"""How often the hub looks for races behind the clock."""
DEALS_EVERY = 8
"""Ticks between two readings of the deals in live races (and of races behind the clock,
when none is live in this process)."""
CUT = object()
"""What a stream's queue gets when the stream is to end."""


class Refused(Exception):
    """Too many streams: the status (429: this address; 503: this process) and a wait."""

    def __init__(self, status: int, retry_after: int) -> None:
        super().__init__(status)
        self.status, self.retry_after = status, retry_after


class Subscription:
    """One open stream of one race."""

    def __init__(self, key: str, address: str, size: int) -> None:
        self.key, self.address = key, address
        self.queue: asyncio.Queue[Any] = asyncio.Queue(size)
        self.cut = False

    def put(self, item: Any) -> None:
        if self.cut:
            return
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:  # a stream that does not read: cut it
            self.cut = True
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.queue.put_nowait(CUT)


class Hub:
    """One process's streams, by race, and what wakes them."""

    def __init__(self, database, settings: Settings,
                 on_tick: Callable[[Any], None] | None = None) -> None:
        self.database = database
        self.on_tick = on_tick
        """Called on a worker thread every tick (``racing.tick``: races moved on by the
        clock)."""
        self.per_address = settings.race_streams_per_address
        self.per_process = settings.race_streams_per_process
        self.queue_size = settings.race_stream_queue
        self.streams: dict[str, set[Subscription]] = defaultdict(set)
        self.addresses: dict[str, int] = defaultdict(int)
        self.count = 0
        self.cursors: dict[str, int] = {}
        self.reading: dict[str, asyncio.Task] = {}
        self.again: set[str] = set()
        self.deals: set[int] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: list[asyncio.Task] = []

    # --- the streams ---------------------------------------------------------------------
    def subscribe(self, key: str, address: str) -> Subscription:
        if self.count >= self.per_process:
            raise Refused(503, 10)
        if self.addresses[address] >= self.per_address:
            raise Refused(429, 30)
        subscription = Subscription(key, address, self.queue_size)
        self.streams[key].add(subscription)
        self.addresses[address] += 1
        self.count += 1
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        streams = self.streams.get(subscription.key)
        if streams is None or subscription not in streams:
            return
        streams.discard(subscription)
        if not streams:
            del self.streams[subscription.key]
            self.cursors.pop(subscription.key, None)
        self.addresses[subscription.address] -= 1
        if self.addresses[subscription.address] <= 0:
            del self.addresses[subscription.address]
        self.count -= 1

    # --- news of an event ------------------------------------------------------------------
    def announced(self, key: str, event: int) -> None:
        """On the loop: race ``key`` has event ``event``; read what this process's streams
        of it have not had, once for all of them."""
        if key not in self.streams:
            return
        cursor = self.cursors.get(key)
        if cursor is not None and event <= cursor:
            return
        if cursor is None:
            self.cursors[key] = event - 1
        if key in self.reading:
            self.again.add(key)
            return
        self.reading[key] = asyncio.ensure_future(self._read(key))

    async def _read(self, key: str) -> None:
        try:
            while True:
                self.again.discard(key)
                after = self.cursors.get(key)
                if after is None:
                    return
                events = await in_thread(self._events_after, key, after)
                for event in events:
                    for subscription in list(self.streams.get(key, ())):
                        subscription.put(event)
                if events and key in self.cursors:
                    self.cursors[key] = max(self.cursors[key], events[-1][0])
                if key not in self.again:
                    return
        except Exception:  # a database hiccup: the streams catch up at the next event
            log.exception("Could not read race events")
        finally:
            self.reading.pop(key, None)

    def _events_after(self, key: str, after: int) -> list[tuple[int, str]]:
        with self.database.session() as session:
            return stored.events_after(session, key, after)

    def events(self, key: str, after: int | None) -> list[tuple[int, str]]:
        """A stream's catching up (on a worker thread): the events after ``after``, or the
        last one alone for a new stream."""
        with self.database.session() as session:
            if after is None:
                return stored.latest_event(session, key)
            return stored.events_after(session, key, after)

    def announce(self, key: str, event: int) -> None:
        """From any thread, after the commit."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.announced, key, event)

    # --- the clock ---------------------------------------------------------------------------
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        try:
            self.deals = await in_thread(self._live_deals)
        except Exception:  # no database yet: the first ticks read them
            log.warning("The live races' deals could not be read at start")
        HUBS.add(self)
        self.tasks.append(asyncio.ensure_future(self._tick()))

    async def stop(self) -> None:
        HUBS.discard(self)
        for task in [*self.tasks, *self.reading.values()]:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.clear()
        for streams in list(self.streams.values()):
            for subscription in streams:
                subscription.put(CUT)
        self.loop = None

    async def _tick(self) -> None:
        ticks, failing = 0, False
        while True:
            try:
                # Quick while a race is live here (streams open, a deal held); else at the
                # pace of the live deals' reading, for the races other processes run.
                quick = bool(self.streams or self.deals)
                if ticks % DEALS_EVERY == DEALS_EVERY - 1:
                    self.deals = await in_thread(self._live_deals)
                if self.on_tick is not None and (quick or ticks % DEALS_EVERY == 0):
                    await in_thread(self.on_tick, self.database)
                failing = False
            except asyncio.CancelledError:
                raise
            except Exception:
                if not failing:  # once a failure, not four times a second
                    log.warning("Races could not be moved on: the database failed")
                failing = True
            ticks += 1
            await asyncio.sleep(TICK_SECONDS)

    def _live_deals(self) -> set[int]:
        with self.database.session() as session:
            return stored.live_deals(session)


class ListeningHub(Hub):
    """The hub on PostgreSQL: one connection LISTENing for every process's events."""

    async def start(self) -> None:
        await super().start()
        self.tasks.append(asyncio.ensure_future(self._listen()))

    async def _listen(self) -> None:
        delay = 0.2
        while True:
            connection = None
            try:
                connection = await stored.listen(self.database)
                delay = 0.2
                for key in list(self.streams):  # what was missed while not listening
                    self.announced(key, self.cursors.get(key, 0) + 1)
                async for note in connection.notifies():
                    key, _, event = note.payload.partition(" ")
                    if event.isdigit():
                        self.announced(key, int(event))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("Listening for race events failed (%s): again in %g s",
                            type(exc).__name__, delay)
            finally:
                if connection is not None:
                    with contextlib.suppress(Exception):
                        await connection.close()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)


HUBS: set[Hub] = set()
"""The hubs running in this process (one per app; tests make several apps in one process)."""


def install(database, settings: Settings, on_tick: Callable[[Any], None] | None = None) -> Hub:
    """This app's hub (``main.create_app``); it runs between its ``start`` and ``stop``."""
    return (Hub if settings.is_sqlite else ListeningHub)(database, settings, on_tick)


def announce(key: str, event: int) -> None:
    """Race ``key`` has event ``event``, committed: wake the streams (on PostgreSQL the
    NOTIFY does it for every process; this one hears it at once too)."""
    for hub in list(HUBS):
        hub.announce(key, event)


def hold_deal(number: int) -> None:
    """A race on this deal started here: its line is private from now, in this process
    before the next reading of the live deals."""
    for hub in list(HUBS):
        hub.deals = hub.deals | {number}


def release_deal(number: int) -> None:
    """A race on this deal finished here: its line opens (the next reading of the live
    deals holds it again if another race is on it)."""
    for hub in list(HUBS):
        hub.deals = hub.deals - {number}


def deal_in_race(number: int | None) -> bool:
    """Whether a race not yet over is on this deal (read every 2 s from the database)."""
    return number is not None and any(number in hub.deals for hub in list(HUBS))
