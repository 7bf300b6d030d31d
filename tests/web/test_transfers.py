"""Imports and exports never freeze the site.

Found by an attacker: one crafted 8 MB import froze ``/healthz`` for 16.6 s (parsed and checked
on the event loop), two valid imports held both database threads for 77 s, and sixteen clients
that never read an export held 14 of 15 PostgreSQL connections. These tests hold the design
that fixes it: the work runs in a worker process while the web process answers everyone else;
a file is refused for its size before it is parsed; an export is a finished file before its
answer starts, so a stalled reader holds no connection, and is cut off at the send deadline.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import uvicorn
from sqlalchemy import delete

from app.engine import Deal, Game
from app.main import create_app
from app.store.games import record_result
from app.store.models import GameRecord
from app.web.core.player import PlayerCookie
from app.web.core.threads import LOWEST_PRIORITY
from app.web.services import gamesfile
from tests.conftest import make_settings
from tests.web.helpers import import_file

WAIT = 30.0
"""Seconds a test waits for what it expects before it fails (never a fixed sleep)."""


def wait_for(check, what: str, seconds: float = WAIT) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.02)


# --- a stand-in for the import's work that waits until the test lets it go ----------------
def held_import(url: str, player_id: str, secret_key: str, raw: bytes) -> gamesfile.ImportDone:
    """Runs in the worker process: says it started, then waits for the test's release file."""
    flags = Path(raw.decode())
    (flags / f"started-{player_id}").touch()
    deadline = time.monotonic() + WAIT
    while not (flags / "release").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return gamesfile.ImportDone(added=0, skipped=0)


def upload(client, payload: bytes):
    """An import, answered at once (202) and ended in the background: how it ended, as the
    statistics page says (``import_file``)."""
    return import_file(client, payload)


def test_others_are_answered_while_imports_are_being_checked(client, other_client, app,
                                                             monkeypatch, tmp_path):
    """Two imports, one held in the middle of its work and one waiting for the worker: the
    event loop still answers /healthz, and the database threads a bystander's read needs are
    free (before, the two imports took both)."""
    monkeypatch.setattr(gamesfile, "import_games", held_import)
    game_id = client.post("/api/games", json={"deal": 7}).json()["id"]
    with ThreadPoolExecutor(2) as pool:
        imports = [pool.submit(upload, who, str(tmp_path).encode())
                   for who in (client, other_client)]
        wait_for(lambda: any(tmp_path.glob("started-*")), "an import to start")
        # Neither import is done: nothing has released them.
        assert client.get("/healthz").status_code == 200
        assert client.get(f"/api/games/{game_id}").status_code == 200
        assert not any(done.done() for done in imports)
        (tmp_path / "release").touch()
        assert [done.result().status_code for done in imports] == [303, 303]


def test_one_player_has_one_transfer_at_a_time(client, monkeypatch, tmp_path):
    monkeypatch.setattr(gamesfile, "import_games", held_import)
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(upload, client, str(tmp_path).encode())
        wait_for(lambda: any(tmp_path.glob("started-*")), "the first import to start")
        second = client.get("/stats/export.json")
        assert second.status_code == 429 and int(second.headers["Retry-After"]) > 0
        assert "still being made" in second.text
        (tmp_path / "release").touch()
        assert first.result().status_code == 303
    assert client.get("/stats/export.json").status_code == 200


def test_a_crafted_file_is_refused_for_its_size_before_it_is_read(client):
    """2.7 M empty games (8 MB): refused by counting, not after parsing them all."""
    crafted = b'{"games": [' + b",".join([b"{}"] * 2_700_000) + b'], "signature": "x"}'
    assert len(crafted) < client.app.state.settings.import_max_bytes
    refused = upload(client, crafted)
    assert refused.status_code == 400 and "at most 20,000 games" in refused.text


def test_deep_nesting_and_oversized_files_get_a_clear_answer(client):
    deep = upload(client, b"[" * 100_000 + b"]" * 100_000)
    assert deep.status_code == 400 and "at most 20,000 games" in deep.text
    nested = upload(client, b'{"games": ' + b"[" * 5_000 + b"]" * 5_000 + b"}")
    assert nested.status_code == 400 and "nested too deeply" in nested.text
    recursion = upload(client, b'{"games": [{"a": ' + b'{"a": ' * 5_000 + b"1"
                       + b"}" * 5_001 + b'], "signature": "x"}')
    assert recursion.status_code == 400 and "nested too deeply" in recursion.text
    assert "not a JSON file" in upload(client, b"\xff{").text
    too_big = upload(client, b" " * (client.app.state.settings.import_max_bytes + 1))
    assert too_big.status_code == 413


def test_an_export_is_sent_whole_with_its_length_and_never_kept(client):
    game_id = client.post("/api/games", json={"deal": 7}).json()["id"]
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
    client.post("/api/games", json={"deal": 8})  # gives the first up: it ends, and counts
    for path in ("/stats/export.json", "/stats/export.csv"):
        answer = client.get(path)
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == "no-store"
        assert int(answer.headers["Content-Length"]) == len(answer.content)
    data = client.get("/stats/export.json").json()
    assert [game["id"] for game in data["games"]] == [game_id]


# --- a real server, to stall a reader on a real socket -----------------------------------
class LiveServer:
    """The app under uvicorn on a thread of this process, so a test can look at its pool."""

    def __init__(self, app) -> None:
        self.app = app
        self.sock = socket.socket()
        # Small kernel buffers (accepted sockets inherit them): a reader that stops stalls the
        # sender after a few kilobytes, not after the megabytes loopback would otherwise take.
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        wait_for(lambda: self.server.started, "the server to start")
        return self

    def __exit__(self, *_exc) -> None:
        self.server.should_exit = True
        self.thread.join(WAIT)


def add_ended_games(database, player_id: str, count: int) -> None:
    """``count`` ended games of ``player_id`` (each a draw, then given up), as the app keeps
    them."""
    game = Game(Deal.from_number(11), "standard", 3)
    with database.session() as session:
        for number in range(count):
            record = GameRecord(
                id=f"g{number:06d}", player_id=player_id, deal_number="11", deal_text=None,
                goal="standard", passes=3, moves="draw", move_count=1, undo_count=0,
                status="abandoned", cleared=game.cards_cleared, seconds=5)
            session.add(record)
            session.flush()
            record_result(session, record)


def test_a_reader_that_stops_holds_no_connection_and_is_cut_off(sqlite_url, caplog):
    app = create_app(make_settings(sqlite_url, send_timeout_seconds=1.0))
    player = "p-stalled-reader"
    with LiveServer(app) as live:
        add_ended_games(app.state.db, player, 1000)
        cookie = PlayerCookie(app.state.settings).sign(player)
        reader = socket.socket()
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        reader.connect(("127.0.0.1", live.port))
        reader.sendall(f"GET /stats/export.json HTTP/1.1\r\nHost: localhost\r\nCookie: "
                       f"{app.state.settings.cookie_name}={cookie}\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += reader.recv(1)
        assert head.startswith(b"HTTP/1.1 200")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        assert length > 250_000  # more than every buffer between the two ends holds
        # The answer has started and the reader reads nothing more: the file is finished, so
        # no connection is held for it.
        assert app.state.db.engine.pool.checkedout() == 0
        wait_for(lambda: "Cut off a client" in caplog.text, "the slow reader to be cut off")
        received = len(head.partition(b"\r\n\r\n")[2])
        while chunk := reader.recv(65536):
            received += len(chunk)
        assert received < length  # closed before the end: the client sees a cut-off file
        reader.close()


def test_an_export_round_trips_through_an_import(client, other_client):
    game = Game(Deal.from_number(5), "standard", 3)
    game_id = client.post("/api/games", json={"deal": 5}).json()["id"]
    for move in (game.legal_moves[0],):
        client.post(f"/api/games/{game_id}/moves", json=move.to_dict())
    client.post("/api/games", json={"deal": 8})  # gives the first up: it ends, and counts
    exported = client.get("/stats/export.json").content
    with client.app.state.db.session() as session:  # its games lost: the export brings them back
        session.execute(delete(GameRecord))
    done = upload(client, exported)
    assert done.status_code == 303 and "imported=1" in done.headers["location"]
    again = json.loads(client.get("/stats/export.json").content)
    assert [g["move_list"] for g in again["games"]] == [
        g["move_list"] for g in json.loads(exported)["games"]]


def test_the_worker_process_stops_with_the_web_process():
    """No worker left behind when the app stops, even in the middle of a transfer."""
    from app.web.services.transfer import Transfers

    transfers = Transfers()
    worker_pid = transfers._executor().submit(os.getpid).result(WAIT)
    busy = transfers._executor().submit(time.sleep, 60)  # a transfer under way
    assert not busy.done()
    transfers.close()
    assert not Path(f"/proc/{worker_pid}").exists()  # stopped and reaped, not left running


def priority_here() -> tuple[int, int]:
    """The calling thread's nice value and scheduling policy."""
    stat = Path(f"/proc/self/task/{threading.get_native_id()}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[16]), os.sched_getscheduler(0)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux's per-thread nice")
def test_a_transfers_work_takes_no_core_a_request_wants(sqlite_url, monkeypatch):
    """In the worker process, an import's checks and an export's writing run at the lowest
    CPU priority (at the normal one, two workers took both cores from the bystanders behind
    nginx);
    the import's stores at the normal one, as SQLite's one writer must never be starved."""
    app = create_app(make_settings(sqlite_url))
    add_ended_games(app.state.db, "p-owner", 3)
    seen: dict[str, set] = {"record": set(), "prepare": set(), "store": set()}

    def watched(name, real):
        def call(*args, **kwargs):
            seen[name].add(priority_here())
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(gamesfile, "export_record",
                        watched("record", gamesfile.export_record))
    monkeypatch.setattr(gamesfile, "prepare_game", watched("prepare", gamesfile.prepare_game))
    monkeypatch.setattr(gamesfile, "store_games", watched("store", gamesfile.store_games))
    secret = app.state.settings.secret_key
    exported = gamesfile.export_json(sqlite_url, "p-owner", secret, "/r/REPLAY")
    try:
        raw = Path(exported.path).read_bytes()
    finally:
        os.unlink(exported.path)
    done = gamesfile.import_games(sqlite_url, "p-owner", secret, raw)  # an export's own
    assert done.added + done.skipped == 3
    lowest = {(LOWEST_PRIORITY, os.SCHED_IDLE)}
    assert seen["record"] == lowest and seen["prepare"] == lowest
    assert seen["store"] == {(0, os.SCHED_OTHER)}
    assert priority_here() == (0, os.SCHED_OTHER)  # the caller's own thread keeps its own


@pytest.fixture(autouse=True)
def _no_leftover_exports(tmp_path, monkeypatch):
    """Every export's temporary file is removed once sent. Exports are written on a thread of
    this process, into a folder of this test's own (other tests export at the same moment in
    the suite's other workers)."""
    import tempfile

    folder = tmp_path / "exports"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield
    assert not list(folder.glob("pyramid-export-*"))


def test_an_import_is_answered_at_once_and_its_progress_shown(client, other_client, app,
                                                              monkeypatch, tmp_path):
    """Through the proxy an import of the documented size could answer 504 (nginx's
    30 s) though it completed. Now it is answered at once (202), and the statistics page says
    how it goes, in any process (the progress is kept in the database), and how it ended."""
    monkeypatch.setattr(gamesfile, "import_games", held_import)
    began = time.monotonic()
    answer = client.post("/stats/import", files={"file": ("games.json", str(tmp_path).encode())},
                         follow_redirects=False)
    assert answer.status_code == 202 and "Importing your file" in answer.text
    assert time.monotonic() - began < WAIT  # answered while the work is still held
    assert 'http-equiv="refresh"' in answer.text and 'href="/stats"' in answer.text
    wait_for(lambda: any(tmp_path.glob("started-*")), "the import to start")
    page = client.get("/stats").text
    assert 'data-import-progress="running"' in page and 'http-equiv="refresh"' in page
    # Another process would read the same row: a second import waits its turn.
    again = client.post("/stats/import", files={"file": ("games.json", b"{}")},
                        follow_redirects=False)
    assert again.status_code == 429
    assert 'data-import-progress' not in other_client.get("/stats").text  # nobody else's
    (tmp_path / "release").touch()
    wait_for(lambda: 'data-import-progress="done"' in client.get("/stats").text,
             "the import to end")
    page = client.get("/stats").text
    assert "Imported 0 games." in page and 'http-equiv="refresh"' not in page
