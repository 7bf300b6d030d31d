"""The work a budget's burst lets through by the dozen (new games, a hint's database work)
takes its turns on a lane of its own (``burst_threads``): a read never waits behind it."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from app.web.core.threads import BURST_THREADS, DATABASE_THREADS
from app.web.services import actions


def test_a_read_is_answered_while_new_games_wait(client, app, monkeypatch):
    game_id = client.post("/api/games", json={"deal": 5}).json()["id"]
    held, entered = threading.Event(), threading.Semaphore(0)
    real_start = actions.start

    def slow_start(*args, **kwargs):
        entered.release()
        assert held.wait(10)
        return real_start(*args, **kwargs)

    monkeypatch.setattr(actions, "start", slow_start)
    starts = DATABASE_THREADS + BURST_THREADS + 1  # more than every database thread
    with ThreadPoolExecutor(starts + 1) as pool:
        started = [pool.submit(client.post, "/api/games", json={"deal": 100 + n})
                   for n in range(starts)]
        assert entered.acquire(timeout=10)  # a start holds its lane
        read = pool.submit(client.get, f"/api/games/{game_id}")
        try:
            assert read.result(timeout=10).status_code == 200
            assert not any(start.done() for start in started)  # read first, starts still held
        finally:
            held.set()
        assert [start.result(10).status_code for start in started] == [201] * starts
