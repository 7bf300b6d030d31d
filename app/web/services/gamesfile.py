"""The games file: a player's ended games exported as JSON (signed, so that it can be imported
back) or CSV, and an exported JSON file read back and stored by an import.

These functions run in the transfer worker process (``app.web.services.transfer``), never in a web
process: an 8,000-game export is seconds of Python, and an import file is whatever a client
sent. They take plain values (a database URL, a player id, a key), open the database on their
own, and answer plain values, so that they can cross a process boundary.

- An export is written whole to a temporary file before its answer starts, so no database
  connection waits on a client that reads slowly; each game is one line of canonical JSON
  (sorted keys, no spaces), the same bytes that are signed, so each game is encoded once.
- An import is checked in full (its size, its shape, its signature, every game replayed by
  the engine) before anything is stored, then stored in pieces of ``STORE_PIECE`` games, each
  its own short transaction: SQLite's one writer, or a PostgreSQL player's lock, is never held
  for longer than one piece. Storing is idempotent (a game already here is skipped), so a
  piece that fails leaves nothing the next import would double.

The worker speaks no language (it serves every player): a refusal comes back as a key of
``REFUSALS`` and its values, or as the store's English sentence, and the web process says it
in the request's language (``refusal``).
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import os
import secrets
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.engine import Goal
from app.store import Database, ImportRefused, display_name, export_rows, prepare_game, store_games
from app.store.imports import IMPORT_LIMIT, ExportClaim, claim_export
from app.web.core.dates import iso
from app.web.core.i18n import Counted, LazyProxy, _l, counted
from app.web.core.numbers import format_number
from app.web.core.refusals import say
from app.web.core.threads import at_lowest_priority

STORE_PIECE = 200
"""Games stored per transaction: short enough that a bystander's write never waits long for
SQLite's one writer, long enough that an 8,000-game import is 40 commits."""

BRACES_SLACK = 64
"""Braces an export holds beyond one a game: the file's own, and any in a display name."""

EXPORT_FIELDS = ("id", "finished_at", "deal", "custom_deal", "goal", "passes", "result",
                 "cards_cleared", "cards_to_clear", "moves", "par", "hints", "seconds", "score",
                 "started_at", "move_list", "replay")

_databases: dict[str, Database] = {}


def database(url: str) -> Database:
    """This worker's connection to ``url``, made once."""
    if url not in _databases:
        _databases[url] = Database(url)
    return _databases[url]


# --- signing -----------------------------------------------------------------------------------
class ExportSigner:
    """An HMAC over an export's games, in order, each as canonical JSON: ``update`` as they are
    written, ``hexdigest`` at the end; ``check`` on import."""

    def __init__(self, secret_key: str) -> None:
        key = hashlib.sha256(b"pyramid.export:" + secret_key.encode()).digest()
        self._mac = hmac.new(key, digestmod=hashlib.sha256)

    @staticmethod
    def canonical(game: dict[str, Any]) -> bytes:
        return json.dumps(game, sort_keys=True, separators=(",", ":")).encode()

    def update(self, canonical_game: bytes) -> None:
        self._mac.update(canonical_game + b"\n")

    def hexdigest(self) -> str:
        return self._mac.hexdigest()

    @classmethod
    def check(cls, secret_key: str, games: Iterable[dict[str, Any]], signature: str,
              header: dict[str, Any] | None = None) -> bool:
        """Whether ``signature`` is this server's over ``header`` (the export's own fields,
        when it has them: files exported before had none) and ``games``."""
        signer = cls(secret_key)
        if header is not None:
            signer.update(cls.canonical(header))
        for game in games:
            signer.update(cls.canonical(game))
        return hmac.compare_digest(signer.hexdigest(), signature)


# --- export ------------------------------------------------------------------------------------
def export_record(row, replay_url: str) -> dict[str, Any]:
    """One exported game: the fields of ``EXPORT_FIELDS``."""
    return {
        "id": row.id,
        "finished_at": iso(row.finished_at),
        "deal": int(row.deal_number) if row.deal_number is not None else None,
        "custom_deal": row.deal_text,
        "goal": row.goal,
        "passes": row.passes,
        "result": row.status,
        "cards_cleared": row.cleared,
        "cards_to_clear": Goal(row.goal).cards_to_clear,
        "moves": row.move_count,
        "par": row.par,
        "hints": row.hints_used or 0,
        "seconds": row.seconds,
        "score": row.score,
        "started_at": iso(row.started_at or row.created_at),
        "move_list": row.moves,
        "replay": replay_url.replace(REPLAY_ID, row.id),
    }


REPLAY_ID = "GAME-ID"
"""Stands for a game's id in the replay URL the web process hands over (a route's URL is built
once, by the web layer, from its name)."""


@dataclass(frozen=True, slots=True)
class ExportedFile:
    """A finished export: the temporary file's path (the caller removes it) and its size."""

    path: str
    size: int


def _records(url: str, player_id: str, replay_url: str) -> Iterator[dict[str, Any]]:
    with database(url).sessions() as session:
        for row in export_rows(session, player_id):
            yield export_record(row, replay_url)


def _to_temporary_file(write) -> ExportedFile:
    """``write`` the file on a thread at the lowest CPU priority (it only reads the
    database): an export takes no core a request wants."""
    return at_lowest_priority(_written, write)


def _written(write) -> ExportedFile:
    handle, path = tempfile.mkstemp(prefix="pyramid-export-")
    try:
        with os.fdopen(handle, "wb") as out:
            write(out)
        return ExportedFile(path, os.path.getsize(path))
    except BaseException:
        os.unlink(path)
        raise


def player_tag(secret_key: str, player_id: str) -> str:
    """Who an export belongs to, as the file says it: a keyed hash of the player's id (the id
    itself is no business of a file's reader)."""
    key = hashlib.sha256(b"pyramid.export-player:" + secret_key.encode()).digest()
    return hmac.new(key, player_id.encode(), hashlib.sha256).hexdigest()[:32]


def export_header(secret_key: str, player_id: str,
                  now: datetime | None = None) -> dict[str, Any]:
    """An export's own fields, signed with its games: its id (an import takes it once), its
    player (it imports into that player only) and when it was made (an export made before the
    player's statistics were reset does not import)."""
    return {"id": secrets.token_hex(16), "player": player_tag(secret_key, player_id),
            "made_at": (now or datetime.now(UTC)).isoformat()}


def export_json(url: str, player_id: str, secret_key: str, replay_url: str) -> ExportedFile:
    """The player's games as signed JSON, one game a line, under the export's own fields."""
    with database(url).sessions() as session:
        name = display_name(session, player_id)
    header = export_header(secret_key, player_id)

    def write(out) -> None:
        signer = ExportSigner(secret_key)
        signer.update(ExportSigner.canonical(header))
        out.write(b'{"display_name": ' + json.dumps(name).encode() + b', "export": '
                  + ExportSigner.canonical(header) + b', "games": [')
        for number, record in enumerate(_records(url, player_id, replay_url)):
            line = ExportSigner.canonical(record)
            signer.update(line)
            out.write((b"," if number else b"") + b"\n" + line)
        # The signature lets /stats/import take this file back, and nothing edited.
        out.write(b'\n], "signature": ' + json.dumps(signer.hexdigest()).encode() + b"}\n")

    return _to_temporary_file(write)


def export_csv(url: str, player_id: str, replay_url: str) -> ExportedFile:
    """The player's games as CSV, a header line first."""

    def write(out) -> None:
        text = io.TextIOWrapper(out, encoding="utf-8", newline="")
        writer = csv.DictWriter(text, fieldnames=EXPORT_FIELDS)
        writer.writeheader()
        writer.writerows(_records(url, player_id, replay_url))
        text.flush()
        text.detach()

    return _to_temporary_file(write)


# --- import ------------------------------------------------------------------------------------
REFUSALS: dict[str, LazyProxy | Counted] = {
    "too_large": _l("The file is over %(megabytes)s MB."),
    "too_many": counted("An import holds at most %(count)s game.",
                        "An import holds at most %(count)s games."),
    "not_json": _l("This is not a JSON file from \u201cDownload JSON\u201d."),
    "too_deep": _l("This file is not an export of your games (it is nested too deeply)."),
    "no_games": _l("This file is not an export of your games (no games, or no signature)."),
    "changed": _l("This file was changed after it was exported (or comes from another "
                  "server), so its games cannot be trusted."),
    "no_owner": _l("This export was made by an older version of Pyramid and does not say "
                   "whose games it holds, so it cannot be imported: export your games again "
                   "and import the new file."),
    "another_player": _l("This export holds another player's games: an export imports only "
                         "into the player who made it. To play as that player on this device, "
                         "open a link from \u201cYour statistics on another device\u201d on "
                         "their statistics page."),
    "already_imported": _l("This export was imported already: nothing was added again."),
    "before_reset": _l("This export was made before your statistics were reset, so its games "
                       "are not imported again."),
}
"""Why ``read_export`` refuses a file, by key; ``count`` is a number of games."""
STORE_REFUSAL = "store"
"""The key of a refusal the store made (``ImportRefused``): the refusal is ``values``."""


class FileRefused(ImportRefused):
    """``read_export``'s refusal: a key of ``REFUSALS`` and its values (its ``str`` is the
    sentence in the language of the moment: English in the worker)."""

    def __init__(self, key: str, **values: Any) -> None:
        self.key = key
        self.values = values
        super().__init__(_said(key, values))


def _said(key: str, values: dict[str, Any]) -> str:
    message = REFUSALS[key]
    if isinstance(message, Counted):
        count = int(values["count"])
        return message(count, **{**values, "count": format_number(count)})
    return str(message) % values if values else str(message)


@dataclass(frozen=True, slots=True)
class ImportDone:
    """What an import did, or why it was refused: ``refused`` is a key of ``REFUSALS`` (or
    ``STORE_REFUSAL``) and ``values`` its values, for ``refusal`` to say in the player's
    language."""

    added: int = 0
    skipped: int = 0
    refused: str | None = None
    values: dict[str, Any] = field(default_factory=dict)


def refusal(done: ImportDone) -> str:
    """Why ``done`` was refused, in this request's language (in the web process)."""
    if done.refused == STORE_REFUSAL:
        return say(done.values)
    if done.refused in REFUSALS:
        return _said(done.refused, done.values)
    return str(done.refused)


def too_large(megabytes: int) -> str:
    """Why a file over the import limit (IMPORT_MAX_MB) is refused, in this request's
    language: the web process refuses it before the worker sees it."""
    return _said("too_large", {"megabytes": format_number(megabytes)})


def read_export(raw: bytes,
                secret_key: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The export's own fields (None in a file made before exports had them) and its games,
    checked: its shape and its signature (raises FileRefused with the reason a player can act
    on). Its size is the web process's to check (IMPORT_MAX_MB) before it is sent here.

    A file of millions of tiny objects would cost seconds and hundreds of megabytes to parse
    only to be refused for its size; each game opens exactly one JSON object, so counting the
    braces first refuses it for the price of one scan.
    """
    if max(raw.count(b"{"), raw.count(b"[")) > IMPORT_LIMIT + BRACES_SLACK:
        raise FileRefused("too_many", count=IMPORT_LIMIT)
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise FileRefused("not_json") from None
    except RecursionError:
        raise FileRefused("too_deep") from None
    games, signature, header = ((data.get("games"), data.get("signature"), data.get("export"))
                                if isinstance(data, dict) else (None, None, None))
    if not isinstance(games, list) or not isinstance(signature, str):
        raise FileRefused("no_games")
    if len(games) > IMPORT_LIMIT:
        raise FileRefused("too_many", count=IMPORT_LIMIT)
    if header is not None and not (isinstance(header, dict) and all(
            isinstance(header.get(key), str) for key in ("id", "player", "made_at"))):
        raise FileRefused("changed")
    if not all(isinstance(game, dict) for game in games) or not ExportSigner.check(
            secret_key, games, signature, header):
        raise FileRefused("changed")
    return header, games


def owned_claim(header: dict[str, Any] | None, secret_key: str,
                player_id: str) -> ExportClaim:
    """The claim an import of a checked export makes (``claim_export``), or FileRefused: a file
    made before exports named their player, or another player's."""
    if header is None:
        raise FileRefused("no_owner")
    if not hmac.compare_digest(header["player"], player_tag(secret_key, player_id)):
        raise FileRefused("another_player")
    try:
        made_at = datetime.fromisoformat(header["made_at"])
    except ValueError:
        raise FileRefused("changed") from None
    return ExportClaim(header["id"][:32], player_id,
                       made_at if made_at.tzinfo else made_at.replace(tzinfo=UTC))


def _checked(raw: bytes, secret_key: str, player_id: str) -> tuple[ExportClaim, list]:
    """The claim the export makes for this player (refused before any game is replayed: a
    file of another player costs no replays), and its games, each replayed."""
    header, games = read_export(raw, secret_key)
    claim = owned_claim(header, secret_key, player_id)
    return claim, [prepare_game(player_id, game) for game in games]


def import_games(url: str, player_id: str, secret_key: str, raw: bytes) -> ImportDone:
    """Check ``raw`` whole, then store its games in pieces; a refusal stores nothing. The
    checks (parse, signature, every game replayed) run at the lowest CPU priority, on no core
    a request wants; the pieces are stored at the normal one, as SQLite's one writer must
    never wait for a starved thread."""
    try:
        claim, prepared = at_lowest_priority(_checked, raw, secret_key, player_id)
    except FileRefused as exc:
        return ImportDone(refused=exc.key, values=exc.values)
    except ImportRefused as exc:
        if exc.refusal is None:  # pragma: no cover - every ImportRefused of the store has one
            raise
        return ImportDone(refused=STORE_REFUSAL, values=exc.refusal.to_dict())
    added = skipped = 0
    for start in range(0, len(prepared) or 1, STORE_PIECE):
        with database(url).session() as session:
            if start == 0:  # the export is taken once, with its first piece
                refused = claim_export(session, claim)
                if refused is not None:  # it wrote nothing
                    return ImportDone(refused=refused)
            done = store_games(session, player_id, prepared[start:start + STORE_PIECE])
        added, skipped = added + done.added, skipped + done.skipped
    return ImportDone(added, skipped)
