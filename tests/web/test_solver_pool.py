"""The solver never starves the site: every search goes through one bounded queue
on low-priority threads, one at a time per player and players in turn, with "busy" and a
Retry-After beyond it; no database connection is held while a search waits or runs; a hint
counts once it is answered; the same position is searched once."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.engine import Deal, Game
from app.engine.solver import Hint
from app.web.core.player import PlayerCookie
from app.web.core.threads import LOWEST_PRIORITY
from app.web.services import solving

from .conftest import browser_like


def held_advice(gate: threading.Event, running: list[int], peak: list[int],
                lock: threading.Lock, started: threading.Event | None = None,
                outwaited: list[int] | None = None):
    """Stands in for a long search: it holds its thread until the test opens ``gate`` (the C
    search runs without the GIL; so does a wait), counting the searches running at once, and
    in ``outwaited`` those that gave up waiting for the gate."""
    outwaited = [0] if outwaited is None else outwaited

    def advice(game):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        if started is not None:
            started.set()
        if not gate.wait(10):
            with lock:
                outwaited[0] += 1  # let go by its own timeout: the test never opened the gate
        with lock:
            running[0] -= 1
        return Hint(game.legal_moves[0], True, "a move"), None

    return advice


class CountingQueue(solving.SolverQueue):
    """The solver's queue, releasing ``submitted`` once a search is handed to it: a test waits
    for that event, not for a time."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.submitted = threading.Semaphore(0)

    def submit(self, *args, **kwargs):
        future = super().submit(*args, **kwargs)
        self.submitted.release()
        return future


def as_player(app, number: int) -> dict[str, str]:
    cookies = PlayerCookie(app.state.settings)
    return {"Cookie": f"{app.state.settings.cookie_name}={cookies.sign(f'player-{number}')}"}


def test_forty_hints_at_once_never_stall_the_server(app, monkeypatch):
    running, peak, lock = [0], [0], threading.Lock()
    gate, started, outwaited = threading.Event(), threading.Event(), [0]
    monkeypatch.setattr(solving, "_advice",
                        held_advice(gate, running, peak, lock, started, outwaited))
    queue = solving.SolverQueue(workers=2, capacity=16)
    monkeypatch.setattr(solving, "QUEUE_OF_SEARCHES", queue)
    # One client, so one event loop as in a server process; 41 players by their cookies.
    with TestClient(app) as client:
        games = [client.post("/api/games", json={"deal": 617},
                             headers=as_player(app, n)).json()["id"] for n in range(41)]
        with ThreadPoolExecutor(max_workers=40) as pool:
            hints = [pool.submit(client.post, f"/api/games/{games[n]}/hint",
                                 headers=as_player(app, n)) for n in range(40)]
            assert started.wait(10), "no hint's search ever started"
            # While they run (held until the gate opens), the server answers everything else.
            health = [client.get("/healthz").status_code for _ in range(20)]
            moves = [client.post(f"/api/games/{games[40]}/moves", json={"op": "draw"},
                                 headers=as_player(app, 40)).status_code for _ in range(5)]
            gate.set()
            answers = [hint.result() for hint in hints]
        counted = [client.get(f"/api/games/{games[n]}").json()["hints_used"] for n in range(40)]
    codes = [a.status_code for a in answers]
    assert health == [200] * 20 and moves == [200] * 5
    assert outwaited == [0]  # answered while the searches held: nothing waited for them
    # All forty come from one address, which may hold only its share of the queue.
    assert set(codes) <= {200, 429} and codes.count(200) >= queue.per_address == 12, codes
    assert peak[0] <= 2  # never more searches at once than the queue's threads
    for answer in answers:
        if answer.status_code == 429:
            assert int(answer.headers["Retry-After"]) >= 1
    # A hint counts when it is answered: refused ones are not counted.
    assert counted == [1 if code == 200 else 0 for code in codes]


def test_one_search_at_a_time_per_player(app, monkeypatch):
    started, release = threading.Event(), threading.Event()

    def held(game):
        started.set()  # the queue runs the search: the player's first request holds its turn
        release.wait(5)
        return Hint(game.legal_moves[0], True, "a move"), None

    monkeypatch.setattr(solving, "_advice", held)
    with TestClient(app) as client:
        browser_like(client)
        game_id = client.post("/api/games", json={"deal": 617}).json()["id"]
        with ThreadPoolExecutor(max_workers=2) as pool:
            first = pool.submit(client.post, f"/api/games/{game_id}/hint")
            assert started.wait(5), "the first hint's search never started"
            second = client.post(f"/api/games/{game_id}/hint")
            release.set()
            assert first.result().status_code == 200
        assert second.status_code == 429 and "still being worked out" in second.json()["detail"]
        assert second.headers["Retry-After"]
        assert client.get(f"/api/games/{game_id}").json()["hints_used"] == 1


def test_players_are_served_in_turn():
    """One player's many searches (here through many players' worth of asks from one address)
    never run ahead of another player who asked meanwhile: the queue takes players in turn."""
    queue = solving.SolverQueue(workers=1, capacity=10)
    order: list[str] = []
    gate, running = threading.Event(), threading.Event()

    def work(name):
        running.set()
        gate.wait(5)
        order.append(name)
        return name

    first = queue.submit("a", work, "a1")  # occupies the thread until the gate opens
    assert running.wait(5), "the first search never started"
    later = [queue.submit("b", work, "b1"), queue.submit("c", work, "c1")]
    with pytest.raises(solving.SolverBusy):
        queue.submit("b", work, "b2")  # one at a time per player
    gate.set()
    assert [f.result(5) for f in (first, *later)] == ["a1", "b1", "c1"]
    assert order == ["a1", "b1", "c1"]


def test_a_full_queue_says_busy_with_when_to_come_back():
    queue = solving.SolverQueue(workers=1, capacity=3)
    gate, running = threading.Event(), threading.Event()

    def hold() -> bool:
        running.set()
        return gate.wait(5)

    futures = [queue.submit("p0", hold)]
    assert running.wait(5)  # one searching, then three waiting: the queue is full
    futures += [queue.submit(f"p{n}", gate.wait, 5) for n in range(1, 4)]
    with pytest.raises(solving.SolverBusy) as refused:
        queue.submit("p-late", gate.wait, 5)
    assert "busy" in str(refused.value) and refused.value.retry_after >= 1
    gate.set()
    assert all(f.result(5) for f in futures)


def nice_of_thread(native_id: int) -> int:
    stat = Path(f"/proc/self/task/{native_id}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[16])  # field 19: nice


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux's per-thread nice")
def test_searches_run_at_the_lowest_cpu_priority():
    queue = solving.SolverQueue(workers=1)
    ids = queue.submit("p", threading.get_native_id).result(5)
    assert nice_of_thread(ids) == LOWEST_PRIORITY
    assert nice_of_thread(threading.get_native_id()) == 0  # the web's threads keep theirs
    # and only a core nothing else wants: a woken request thread takes it at once
    policy = queue.submit("p", os.sched_getscheduler, 0).result(5)
    assert policy == os.SCHED_IDLE
    assert os.sched_getscheduler(0) == os.SCHED_OTHER


def test_the_same_position_is_searched_once(monkeypatch):
    searched: list[int] = []
    real = solving.solve

    def counting(game, node_limit=None, shortest=False):
        searched.append(len(game.moves))
        return real(game, node_limit=node_limit, shortest=shortest)

    monkeypatch.setattr(solving, "solve", counting)
    kept = solving.SolvedPositions(10)
    game = Game(Deal.from_number(617), "wholedeck", 3)
    first = kept.solve(game)
    other_players_game = Game(Deal.from_number(617), "wholedeck", 3)
    assert kept.solve(other_players_game) is first
    assert len(searched) == 1
    for n in range(12):  # bounded: the oldest goes
        kept.solve(Game(Deal.from_number(700 + n)))
    kept.solve(game)
    assert len(searched) == 14


def test_no_database_connection_is_held_while_searches_wait_or_run(app, monkeypatch):
    started, gate = threading.Semaphore(0), threading.Event()

    def held(game):
        started.release()
        gate.wait(10)
        return Hint(game.legal_moves[0], True, "a move"), None

    monkeypatch.setattr(solving, "_advice", held)
    queue = CountingQueue(workers=2, capacity=64)
    monkeypatch.setattr(solving, "QUEUE_OF_SEARCHES", queue)
    pool = app.state.db.engine.pool
    with TestClient(app) as client:
        games = [client.post("/api/games", json={"deal": 617},
                             headers=as_player(app, n)).json()["id"] for n in range(20)]
        with ThreadPoolExecutor(max_workers=20) as threads:
            hints = [threads.submit(client.post, f"/api/games/{games[n]}/hint",
                                    headers=as_player(app, n)) for n in range(20)]
            for _ in range(20):
                assert queue.submitted.acquire(timeout=10), "a hint never reached the solver"
            for _ in range(2):
                assert started.acquire(timeout=10)  # two searching
            assert queue._waiting == 18  # eighteen waiting for a thread
            assert pool.checkedout() == 0  # and not one of the twenty holds a connection
            gate.set()
            assert [h.result().status_code for h in hints] == [200] * 20


def test_sixty_cookieless_players_create_a_game_and_hint_at_once(app, monkeypatch):
    """Each starts without a cookie, creates a game and asks a hint, all at once, while the
    searches are slow (held until every player's game is answered, so the first hints wait
    while the last games are created): no 503 (no pool timeout), no request over 5 s."""
    running, peak, lock = [0], [0], threading.Lock()
    gate = threading.Event()
    monkeypatch.setattr(solving, "_advice", held_advice(gate, running, peak, lock))
    monkeypatch.setattr(solving, "QUEUE_OF_SEARCHES", solving.SolverQueue(workers=1,
                                                                           capacity=64))
    games_answered = threading.Semaphore(0)

    def player(_: int) -> tuple[int, int, float]:
        began = time.monotonic()
        fresh = TestClient(app)  # its own cookie jar: it starts with none
        game = fresh.post("/api/games", json={"deal": 617})
        games_answered.release()
        hint = fresh.post(f"/api/games/{game.json()['id']}/hint")
        return game.status_code, hint.status_code, time.monotonic() - began

    def open_gate_once_all_are_created() -> None:
        for _ in range(60):
            if not games_answered.acquire(timeout=10):
                break  # a game never answered: let the searches go, the asserts say what failed
        gate.set()

    opener = threading.Thread(target=open_gate_once_all_are_created)
    opener.start()
    with ThreadPoolExecutor(max_workers=60) as threads:
        results = list(threads.map(player, range(60)))
    opener.join()
    assert {created for created, _, _ in results} == {201}
    assert {hinted for _, hinted, _ in results} <= {200, 429}
    assert max(seconds for _, _, seconds in results) < 5


def test_waiting_hints_never_take_the_pool_from_moves(app, monkeypatch):
    """Hints waiting for the solver while others move: with a pool of three connections, the
    waiting hints must hold none, or the moves would wait on the pool and the pool's timeout
    would answer 503."""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import sessionmaker

    small = create_engine(app.state.settings.database_url, pool_size=3, max_overflow=0,
                          pool_timeout=2, connect_args={"check_same_thread": False})
    monkeypatch.setattr(app.state.db, "engine", small)
    monkeypatch.setattr(app.state.db, "sessions", sessionmaker(small, expire_on_commit=False))
    gate = threading.Event()

    def held(game):
        gate.wait(10)
        return Hint(game.legal_moves[0], True, "a move"), None

    monkeypatch.setattr(solving, "_advice", held)
    queue = CountingQueue(workers=1, capacity=64)
    monkeypatch.setattr(solving, "QUEUE_OF_SEARCHES", queue)
    with TestClient(app) as client:
        games = [client.post("/api/games", json={"deal": 42},
                             headers=as_player(app, n)).json()["id"] for n in range(30)]
        with ThreadPoolExecutor(max_workers=40) as threads:
            hints = [threads.submit(client.post, f"/api/games/{games[n]}/hint",
                                    headers=as_player(app, n)) for n in range(20)]
            for _ in range(20):  # every hint has read its game and waits for the solver
                assert queue.submitted.acquire(timeout=10), "a hint never reached the solver"
            moves = [threads.submit(client.post, f"/api/games/{games[n]}/moves",
                                    json={"op": "draw"}, headers=as_player(app, n))
                     for n in range(20, 30)]
            assert [m.result().status_code for m in moves] == [200] * 10
            gate.set()
            assert {h.result().status_code for h in hints} == {200}
    small.dispose()


def test_a_loaded_game_holds_no_connection_once_read(app):
    """Every route that takes a game (GameDep, OwnedGame) gets it with its transaction ended:
    a route that then waits (for the solver, or a worker thread) holds no pooled connection,
    so waiting requests can never take the pool from the rest (the deadlock a crowd of hints
    found: they held the connections, and the moves holding the threads waited for them)."""
    from starlette.requests import Request

    from app.web.core.deps import loaded_game_dependency

    with TestClient(app) as client:
        game_id = client.post("/api/games", json={"deal": 42}).json()["id"]
    session = app.state.db.sessions()
    try:
        request = Request({"type": "http", "path": f"/games/{game_id}", "headers": []})
        loaded = loaded_game_dependency(request, game_id, session)
        assert loaded.record.id == game_id and loaded.version >= 1  # still loaded
        assert not session.in_transaction()
        assert app.state.db.engine.pool.checkedout() == 0
    finally:
        session.close()


def test_deal_links_and_new_games_at_once_never_wait_on_the_pool(app, monkeypatch):
    """A crowd without cookies opening deal links (a page that reads the deal's results on one
    of anyio's request threads) while others start games: a link's session, left in a read's
    transaction, is closed after the page is sent. If that close waited for a thread that the
    requests waiting on a full pool held (the database's, or the request threads), nobody
    would get a connection until the pool's timeout answered 503 (found with 40 new games and
    60 link opens at once, against a server)."""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import sessionmaker

    # The stall lasts until the pool's timeout: a request that takes that long (or a 503)
    # shows it, and 10 s is far beyond an honest wait on a busy machine (2 s was not).
    pool_timeout = 10
    small = create_engine(app.state.settings.database_url, pool_size=3, max_overflow=0,
                          pool_timeout=pool_timeout, connect_args={"check_same_thread": False})
    monkeypatch.setattr(app.state.db, "engine", small)
    monkeypatch.setattr(app.state.db, "sessions", sessionmaker(small, expire_on_commit=False))

    def timed(call, *args, **kwargs) -> tuple[int, float]:
        began = time.monotonic()
        return call(*args, **kwargs).status_code, time.monotonic() - began

    cookieless = {"Cookie": "unrelated=1"}  # a header of its own keeps the client's jar out
    with TestClient(app) as client, ThreadPoolExecutor(max_workers=80) as threads:
        links = [threads.submit(timed, client.get, f"/deal/{3000 + n}?goal=wholedeck&passes=2",
                                headers=cookieless) for n in range(60)]
        games = [threads.submit(timed, client.post, "/api/games",
                                json={"deal": 19400, "passes": 2}, headers=cookieless)
                 for n in range(20)]
        answered = [f.result() for f in links + games]
    assert {status for status, _ in answered[:60]} == {200}
    assert {status for status, _ in answered[60:]} == {201}
    assert max(seconds for _, seconds in answered) < pool_timeout  # nobody waited it out
    small.dispose()
