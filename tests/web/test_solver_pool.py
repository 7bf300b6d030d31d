"""The solver never stalls the server: searches run in a bounded pool off the event loop, one
at a time per player, and a crowd of hints gets "busy" answers rather than a frozen server."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient

from app.engine.solver import Hint
from app.web import solving
from app.web.player import PlayerCookie

from .conftest import browser_like


def slow_advice(running: list[int], peak: list[int], lock: threading.Lock):
    """Stands in for a long search: it sleeps without the GIL, as the C search does."""

    def advice(game):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.15)
        with lock:
            running[0] -= 1
        return Hint(game.legal_moves[0], True, "a move"), None

    return advice


def test_forty_hints_at_once_never_stall_the_server(app, monkeypatch):
    running, peak, lock = [0], [0], threading.Lock()
    monkeypatch.setattr(solving, "_advice", slow_advice(running, peak, lock))
    monkeypatch.setattr(solving, "POOL", solving.SolverPool(size=2, queue=16))
    cookies = PlayerCookie(app.state.settings)
    name = app.state.settings.cookie_name

    def as_player(number: int) -> dict[str, str]:
        return {"Cookie": f"{name}={cookies.sign(f'player-{number}')}"}

    # One client, so one event loop as in a server process; 41 players by their cookies.
    with TestClient(app) as client:
        games = [client.post("/api/games", json={"deal": 617}, headers=as_player(n)).json()["id"]
                 for n in range(41)]
        with ThreadPoolExecutor(max_workers=40) as pool:
            hints = [pool.submit(client.post, f"/api/games/{games[n]}/hint",
                                 headers=as_player(n)) for n in range(40)]
            # While they run, the server answers everything else.
            health = [client.get("/healthz").status_code for _ in range(20)]
            moves = [client.post(f"/api/games/{games[40]}/moves", json={"op": "draw"},
                                 headers=as_player(40)).status_code for _ in range(5)]
            answers = [hint.result().status_code for hint in hints]
    assert health == [200] * 20 and moves == [200] * 5
    assert set(answers) <= {200, 429} and answers.count(200) >= 16, answers
    assert peak[0] <= 2  # never more searches at once than the pool allows


def test_one_search_at_a_time_per_player(app, monkeypatch):
    started, release = threading.Event(), threading.Event()

    def held(game):
        started.set()  # the pool runs the search: the player's first request holds its turn
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
