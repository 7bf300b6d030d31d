"""Logs: a line of text for a person at a terminal (``make run``), or one JSON object a line
for a log collector (``LOG_FORMAT=json``: the image and compose.yaml set it).

A JSON line has ``time`` (UTC, ISO 8601), ``level``, ``logger`` and ``message``, and, when it was
written while a request was answered, that request's ``request_id``, ``route`` (the route's
template, never a game's id in the path), ``game_id``; the access line adds ``method``,
``path``, ``status``, ``duration_ms`` and ``client``. A traceback stays whole in the same
line's ``traceback`` field, so a collector never splits one error into 75 lines. A database
error is one line with its kind (``first_line``: the app's handler); an unforeseen error keeps
its traceback the first time of its kind in a minute, one line after that (``Tracebacks``),
and is logged once (``mark_answered``: not again by the server).

The request's fields come from a context variable that ``app.web.core.observe`` sets for each
request; every log call made while answering it (on the event loop, or on a thread started
from it: anyio copies the context) is stamped with them by ``RequestFields``.

Device links (``/link/{secret}``) carry a secret in their path that signs a browser in as
their owner: ``loggable_path`` takes it out of every path that is logged.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import time
from collections.abc import MutableMapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

LogFormat = Literal["text", "json"]

FIELDS = ("request_id", "method", "path", "route", "status", "duration_ms", "game_id",
          "client")
"""The request's fields a line may carry, in the order a JSON line shows them."""

SECRET_PATHS = re.compile(r"^/link/[^/]*")
"""Paths whose next part is a secret: a device link."""

ACCESS_LOGGERS = ("pyramid.access", "uvicorn.access")
"""Written to stdout (one line per request); everything else goes to stderr, as uvicorn does."""


@dataclass(slots=True)
class RequestFields:
    """What every line written while answering one request carries. The route and the game id
    are read from the request's ASGI scope when a line is written: the router puts them there
    once it has matched the path, after this was made."""

    request_id: str
    scope: MutableMapping[str, Any] = field(default_factory=dict)

    @property
    def route(self) -> str | None:
        return getattr(self.scope.get("route"), "path", None)

    @property
    def game_id(self) -> str | None:
        params = self.scope.get("path_params")
        return params.get("game_id") if params else None


CURRENT: ContextVar[RequestFields | None] = ContextVar("pyramid_request", default=None)


def loggable_path(path: str) -> str:
    """``path`` with a device link's secret taken out."""
    return SECRET_PATHS.sub("/link/<secret>", path)


class StampRequest(logging.Filter):
    """Put the current request's id, route and game id on each record (a handler filter, so
    records from every logger get them, uvicorn's included)."""

    def filter(self, record: logging.LogRecord) -> bool:
        current = CURRENT.get()
        if current is not None:
            for name in ("request_id", "route", "game_id"):
                if getattr(record, name, None) is None:
                    setattr(record, name, getattr(current, name))
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line (newlines inside a message or a traceback are escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
                    .replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    """``time level logger: message [request id]``, for a terminal."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        request_id = getattr(record, "request_id", None)
        return f"{line} [{request_id}]" if request_id else line


def logging_config(log_format: LogFormat, level: str = "INFO") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for the app and uvicorn (app.serve hands it to
    ``uvicorn.run``): every logger through one formatter, access lines to stdout, the rest to
    stderr."""
    # Classes by name, so the whole of it can be written to a file (uvicorn --log-config).
    formatter = {"()": f"app.logs.{'JsonFormatter' if log_format == 'json' else 'TextFormatter'}"}
    handler = {"formatter": "main", "filters": ["request"], "class": "logging.StreamHandler"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request": {"()": "app.logs.StampRequest"}},
        "formatters": {"main": formatter},
        "handlers": {
            "stderr": {**handler, "stream": "ext://sys.stderr"},
            "stdout": {**handler, "stream": "ext://sys.stdout"},
        },
        "loggers": {
            "": {"handlers": ["stderr"], "level": level},
            "uvicorn": {"handlers": [], "level": level, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": level, "propagate": True},
            **{name: {"handlers": ["stdout"], "level": level, "propagate": False}
               for name in ACCESS_LOGGERS},
            # "setup plugin ..." for each of its plugins, whenever Alembic is first imported:
            # not news (and the first lines an operator would read).
            "alembic.runtime.plugins": {"level": "WARNING"},
        },
    }


def configure(log_format: LogFormat, level: str = "INFO") -> None:
    """Apply ``logging_config`` to this process (for entry points other than uvicorn's)."""
    import logging.config

    logging.config.dictConfig(logging_config(log_format, level))


def first_line(exc: BaseException) -> str:
    """An error's kind and the first line of its message: enough to say what failed without
    SQLAlchemy's statement, parameters and links (nor a traceback)."""
    reason = getattr(exc, "orig", None) or exc
    text = str(reason).strip().splitlines()
    return f"{type(reason).__name__}: {text[0]}" if text else type(reason).__name__


TRACEBACK_EVERY = 60.0
"""Seconds between two tracebacks of one kind of unforeseen error; the others are one line."""
KINDS_KEPT = 1000
"""Kinds remembered at most (then forgotten all at once: a few tracebacks more, no more memory)."""


class Tracebacks:
    """Which unforeseen errors get their whole traceback in the log: the first of each kind
    (its type, and the file and line that raised it) in each ``TRACEBACK_EVERY`` seconds. The
    others are one line with their kind and message, so a bug hit by every request (or a
    crowd) writes one traceback a minute, not one per request."""

    def __init__(self, every: float = TRACEBACK_EVERY) -> None:
        self.every = every
        self.clock = time.monotonic
        self.last: dict[tuple[str, str, int], float] = {}

    @staticmethod
    def kind(exc: BaseException) -> tuple[str, str, int]:
        frame = exc.__traceback__
        while frame is not None and frame.tb_next is not None:
            frame = frame.tb_next
        where = (frame.tb_frame.f_code.co_filename, frame.tb_lineno) if frame else ("", 0)
        return (f"{type(exc).__module__}.{type(exc).__qualname__}", *where)

    def due(self, exc: BaseException) -> bool:
        """Should ``exc``'s traceback be written now? (Counts it as written if so.)"""
        key, now = self.kind(exc), self.clock()
        last = self.last.get(key)
        if last is not None and now - last < self.every:
            return False
        if len(self.last) >= KINDS_KEPT:
            self.last.clear()
        self.last[key] = now
        return True


ANSWERED = "_pyramid_answered"


def mark_answered(exc: BaseException) -> None:
    """``exc`` has been logged and answered (the 500 page): the server need not log it again."""
    # An exception that takes no attribute is logged twice, as before.
    with contextlib.suppress(AttributeError, TypeError):
        setattr(exc, ANSWERED, True)


def was_answered(exc: BaseException) -> bool:
    return getattr(exc, ANSWERED, False) is True
