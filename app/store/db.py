"""The database connection: one SQLAlchemy engine and a session factory per process.

An unavailable database must show as unavailable (503), never as a silent success. A pooled
PostgreSQL connection that has been idle for a while is pinged before use, so a server restarted
overnight is noticed and reconnected without failing a request (see ``ping_if_idle``). A SQLite
file can disappear under a running server (deleted, moved, replaced by a restore): its open
connections would go on writing into the unlinked file, answering 200 for moves that vanish
at the next restart. So a ``Database`` remembers which file it opened (device and inode) and
checks the path before every connection checkout, a single ``os.stat`` (and one more for the
damage mark below).

A SQLite file can also be damaged (a failing disk, a copy made wrong): SQLite then answers
"database disk image is malformed" for the pages that are hit. That is no outage that passes,
so the first such error marks the file damaged (``DAMAGE_MARK``, beside it, so that every
process sees it): from then on ``/healthz`` answers 503 with the reason, and every connection
is read-only (``PRAGMA query_only``), so what can still be read is served and nothing is
written into a damaged file. Putting a backup back (``app.backup restore``) removes the mark.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import ExceptionContext, make_url
from sqlalchemy.exc import InvalidatePoolError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

log = logging.getLogger("pyramid.store")

POSTGRES_CONNECT_TIMEOUT = 10
"""Seconds: an unreachable server fails a request (503) instead of holding a worker thread
for the operating system's TCP timeout of minutes."""


PING_AFTER_IDLE = 1.0
"""Seconds a pooled PostgreSQL connection may rest before it is pinged on its next checkout."""


class DatabaseUnavailable(SQLAlchemyError):
    """The database cannot be used right now (its file is gone or was replaced)."""


class DatabaseDamaged(DatabaseUnavailable):
    """The SQLite file is damaged: reads may go on, writes are refused until it is restored."""


DAMAGE_MARK = "-damaged"
"""Appended to a SQLite file's name: the file that says it is damaged, and why."""


def damage_mark(path: Path) -> Path:
    return path.with_name(path.name + DAMAGE_MARK)


def is_damage(error: BaseException | None) -> bool:
    """Does this driver error say that the file itself is damaged (not busy, full or gone)?"""
    name = getattr(error, "sqlite_errorname", None) or ""
    return name.startswith("SQLITE_CORRUPT") or name == "SQLITE_NOTADB"


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL opens (also in ``file:`` URI form), or None (not SQLite, memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if database.startswith("file:"):  # sqlite:///file:/path?mode=ro&uri=true
        parts = urlsplit(database)
        if "mode=memory" in parts.query or parsed.query.get("mode") == "memory":
            return None
        database = unquote(parts.path)
    if database in ("", ":memory:"):
        return None
    return Path(database).expanduser().absolute()


def ensure_sqlite_directory(url: str) -> None:
    """Create the folder of a SQLite file, so a fresh clone needs no manual step."""
    path = sqlite_file(url)
    if path is not None and make_url(url).query.get("mode") != "ro":
        path.parent.mkdir(parents=True, exist_ok=True)
        create_private(path)


def create_private(path: Path) -> None:
    """Create the database file, when there is none, readable and writable by its owner alone
    (0600: it holds every player's games and names); SQLite gives its WAL and shared-memory
    files the same mode. An existing file keeps the mode its operator gave it."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return
    except OSError:
        return  # a folder we may not write: sqlite3 says so, in its words, when it opens it
    os.chmod(path, 0o600)


def sqlite_pragmas(dbapi_connection: sqlite3.Connection) -> None:
    """Per-connection SQLite settings: foreign keys, WAL where the file can be written, and
    ``synchronous=NORMAL`` in WAL mode.

    WAL lets readers and one writer work at once (two processes, one file). Switching to it
    writes the file's header, so on a read-only file (``mode=ro``, a read-only mount, a
    file the server may not write) the switch fails: such a database keeps its journal mode
    and still serves reads. Trying the switch is the writability test, because Python's
    sqlite3 has no ``sqlite3_db_readonly``.

    In WAL mode, ``synchronous=NORMAL`` skips the fsync on each commit (the WAL is synced
    at checkpoints). The database cannot be corrupted by it, nor lose a commit when the
    server process is killed; only an operating-system crash or power cut can roll back the
    last commits. Measured here: a one-row commit takes about 4 ms with FULL and 13 µs with
    NORMAL, and every move is a commit made while holding SQLite's single write lock.
    """
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys=ON")
        mode = cursor.execute("PRAGMA journal_mode").fetchone()[0]
        if mode not in ("wal", "memory"):
            try:
                mode = cursor.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            except sqlite3.OperationalError as exc:
                if getattr(exc, "sqlite_errorname", "") != "SQLITE_READONLY":
                    raise
        if mode == "wal":
            cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets a busy timeout so two server processes can share it."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        connect_args = {}
        if parsed.get_backend_name() == "postgresql" and "connect_timeout" not in parsed.query:
            connect_args["connect_timeout"] = POSTGRES_CONNECT_TIMEOUT
        engine = create_engine(url, connect_args=connect_args)
        event.listen(engine, "checkin", stamp_idle)
        event.listen(engine, "checkout", lambda dbapi_connection, record, _proxy:
                     ping_if_idle(engine, dbapi_connection, record))
        return engine
    ensure_sqlite_directory(url)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 15})
    event.listen(engine, "connect", lambda dbapi_connection, _record:
                 sqlite_pragmas(dbapi_connection))
    return engine


def stamp_idle(_dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
    record.info["idle_since"] = time.monotonic()


def ping_if_idle(engine: Engine, dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
    """Ping a connection that has rested for ``PING_AFTER_IDLE`` seconds; if the ping fails,
    every pooled connection is dropped and the pool checks out a new one.

    This is SQLAlchemy's ``pool_pre_ping``, but only after a rest. Pinging every checkout
    costs a round trip per request, and about 6% of a move's server CPU (measured:
    bench/profile_moves.py). A connection in steady use has just answered, so its ping tells
    little. If the server restarts mid-burst, a request on a connection that was in use a
    moment ago fails (503, by the app's database error handler). SQLAlchemy then drops the
    whole pool, so the next requests reconnect.
    """
    idle_since = record.info.get("idle_since")
    if idle_since is None or time.monotonic() - idle_since < PING_AFTER_IDLE:
        return  # a fresh connection, or one in steady use
    try:
        engine.dialect.do_ping(dbapi_connection)
    except engine.dialect.loaded_dbapi.Error as exc:
        raise InvalidatePoolError(f"the database connection failed its ping: {exc}") from exc


def file_identity(path: Path) -> tuple[int, int] | None:
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    return status.st_dev, status.st_ino


class Database:
    """An engine and its session factory, made once per app (and once per test database)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.file = sqlite_file(url)
        self._pinger: Any = None  # ping's own DBAPI connection, made on first use
        self._pinger_loop: asyncio.AbstractEventLoop | None = None  # the loop it was made on
        # The file this Database opened; None until it exists (a fresh database is created by
        # the first connection).
        self.identity = file_identity(self.file) if self.file else None
        self.mark = damage_mark(self.file) if self.file else None
        self._damage: str | None = None  # when the mark cannot be written (a read-only folder)
        if self.file is not None:
            event.listen(self.engine, "do_connect", self._before_connect)
            event.listen(self.engine, "connect", self._after_connect)
            event.listen(self.engine, "checkout", self._on_checkout)
            event.listen(self.engine, "handle_error", self._on_error)

    def check_file(self) -> None:
        """Raise DatabaseUnavailable unless the SQLite file opened first is still at its path.

        A file moved away and back is the same file and serves again; a different file (a
        restore) needs a restart, so that no connection mixes the two.
        """
        if self.file is None or self.identity is None:
            return
        current = file_identity(self.file)
        if current is None:
            raise DatabaseUnavailable(f"the database file {self.file} is missing")
        if current != self.identity:
            raise DatabaseUnavailable(
                f"the database file {self.file} was replaced by another file: restart the "
                "server to use it")

    def _before_connect(self, _dialect: Any, _record: Any, _cargs: Any, _cparams: Any) -> None:
        self.check_file()  # before sqlite3 would create a new, empty file at the path

    def _after_connect(self, _dbapi_connection: Any, _record: Any) -> None:
        if self.identity is None and self.file is not None:
            self.identity = file_identity(self.file)

    def _on_checkout(self, dbapi_connection: Any, record: ConnectionPoolEntry,
                     _proxy: Any) -> None:
        self.check_file()
        read_only = self.damage() is not None
        if record.info.get("query_only", False) != read_only:
            dbapi_connection.execute(f"PRAGMA query_only = {int(read_only)}")
            record.info["query_only"] = read_only

    def _on_error(self, context: ExceptionContext) -> None:
        if is_damage(context.original_exception):
            self.note_damage(context.original_exception)

    def damage(self) -> str | None:
        """Why the SQLite file is damaged, when it is (its mark's text); else None."""
        if self._damage is not None:
            return self._damage
        if self.mark is None or not os.path.exists(self.mark):  # a stat: no exception made
            return None
        try:
            return self.mark.read_text(encoding="utf-8").strip() or "the database is damaged"
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"the database's damage mark {self.mark} cannot be read: {exc}"

    def note_damage(self, error: BaseException) -> None:
        """Mark the file damaged (once), and tell the operator what to do."""
        if self.mark is None or self.damage() is not None:
            return
        why = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        reason = (f"the database file {self.file} is damaged ({why}): writes are refused "
                  f"until a backup is put back (python -m app.backup restore FILE, which "
                  f"removes {self.mark}), or the file is repaired and {self.mark} deleted")
        try:
            self.mark.write_text(reason + "\n", encoding="utf-8")
        except OSError:
            self._damage = reason
        log.critical("%s", reason[0].upper() + reason[1:])

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that commits on success and rolls back on any error."""
        with self.sessions() as session, session.begin():
            yield session

    async def ping(self) -> None:
        """Run ``SELECT 1`` on the event loop; raises when the database cannot answer, and
        DatabaseDamaged when its file is marked damaged.

        /healthz calls this. Under a crowd every step that needs the GIL waits behind the
        request threads, so the ping takes as few as it can: no pool (a checkout, its events
        and a session's steps), and no thread hop (measured: a pooled ping's p99 29-31 ms, on
        a thread of its own 15-24 ms; bench/crowd.py, docs/crowds.md). SQLite's ``SELECT 1``
        reads no page and takes no lock, so it cannot hang the loop: it runs in place, after
        the file check a checkout would do. PostgreSQL's runs on an asyncio connection of its
        own (the caller bounds the wait). A connection that fails is replaced once.
        """
        self.check_file()
        if (damage := self.damage()) is not None:
            raise DatabaseDamaged(damage)
        dbapi = self.engine.dialect.loaded_dbapi
        for attempt in (1, 2):
            try:
                if self.file is not None:
                    self._ping_sqlite()
                else:
                    await self._ping_postgres()
                return
            except dbapi.Error as exc:
                self.close_pinger()
                if is_damage(exc):
                    self.note_damage(exc)
                    raise DatabaseDamaged(self.damage() or str(exc)) from exc
                if attempt == 2:
                    raise

    def _ping_sqlite(self) -> None:
        assert self.file is not None  # the caller pings SQLite only when there is a file
        if self._pinger is None:
            self._pinger = sqlite3.connect(self.file, check_same_thread=False, timeout=1)
            self._after_connect(None, None)  # the file it opened, if not known yet
        self._pinger.execute("SELECT 1").fetchone()

    async def _ping_postgres(self) -> None:
        loop = asyncio.get_running_loop()
        if self._pinger is not None and self._pinger_loop is not loop:
            self.close_pinger()  # made by an earlier event loop (a test client's, say)
        if self._pinger is None:
            cargs, cparams = self.engine.dialect.create_connect_args(self.engine.url)
            connect = self.engine.dialect.loaded_dbapi.AsyncConnection.connect
            self._pinger = await connect(*cargs, autocommit=True, **cparams)
            self._pinger_loop = loop
        await self._pinger.execute("SELECT 1")

    def close_pinger(self) -> None:
        """Close the ping's connection (synchronously: an asyncio one by closing its libpq
        connection, since its own loop may be gone)."""
        pinger, self._pinger, self._pinger_loop = self._pinger, None, None
        if pinger is not None:
            with suppress(Exception):  # a broken connection may fail to close: forget it
                if isinstance(pinger, sqlite3.Connection):
                    pinger.close()
                else:
                    pinger.pgconn.finish()

    def dispose(self) -> None:
        self.close_pinger()
        self.engine.dispose()
