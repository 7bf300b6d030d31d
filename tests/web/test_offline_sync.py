"""Play with no network, as the server sees it: games begun or continued on a device
without network arrive later as batches; each is played once, whole or not at all; their time
is the page's, not ranked; the worker, the manifest, the offline board and the offline pack."""

from __future__ import annotations

import json
import re
import struct
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from sqlalchemy import select

from app import odds
from app.engine import VARIANTS, Deal, Game, Move
from app.store.models import GameRecord
from app.web.core import assets
from app.web.services.starting import today

from .helpers import start_deal

JSON = {"Accept": "application/json"}


def first_moves(number: int, count: int) -> list[str]:
    game = Game(Deal.from_number(number), "standard", 3)
    played = []
    for _ in range(count):
        move = game.legal_moves[-1] if Move.draw() not in game.legal_moves else Move.draw()
        game.play(move)
        played.append(move.to_text())
    return played


def first_batch(client, number: int, moves: list[str], input_id: str, **fields):
    return client.post(f"/deal/{number}/play?goal=standard&passes=3", headers=JSON,
                       data={"moves": " ".join(moves), "version": "0", "input": input_id,
                             **fields})


def test_a_game_begun_offline_arrives_once_however_often_it_is_sent(client, app):
    """Twenty copies of the first batch at once (a retried sync): one game, its moves once."""
    moves = first_moves(11, 6)
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda _: first_batch(client, 11, moves, "tabOffline1:1",
                                                      offline="1", elapsed="95"), range(20)))
    assert {a.status_code for a in answers} <= {200, 409}
    ids = {a.json()["id"] for a in answers if a.status_code == 200}
    assert len(ids) == 1
    (game_id,) = ids
    with app.state.db.sessions() as session:
        stored = session.scalars(select(GameRecord.id).where(GameRecord.deal_number == "11"))
        assert list(stored) == [game_id]  # no second game, not even an empty one
    state = client.get(f"/api/games/{game_id}").json()
    assert [Move.from_dict(m).to_text() for m in state["moves"]] == moves
    assert 95 <= state["elapsed_seconds"] <= 97  # the page's clock, not the server's
    again = first_batch(client, 11, moves, "tabOffline1:1", offline="1", elapsed="95")
    assert again.status_code == 200 and again.json()["id"] == game_id
    assert again.json()["urls"]["play"] == f"/games/{game_id}/play"
    assert again.json()["timed"] is False


def test_moves_made_offline_leave_the_game_untimed_and_its_clock_the_pages(client):
    game_id = start_deal(client, 42)
    version = client.get(f"/api/games/{game_id}").json()["version"]
    answer = client.post(f"/games/{game_id}/play", headers=JSON,
                         data={"moves": "draw draw", "version": str(version),
                               "input": "tabOffline2:1", "offline": "1", "elapsed": "300"})
    assert answer.status_code == 200 and answer.json()["timed"] is False
    assert 300 <= answer.json()["elapsed"] <= 302


def test_a_first_batch_leaves_the_game_in_progress_only_when_the_page_agreed(client):
    game_id = start_deal(client, 42)
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
    asked = first_batch(client, 12, ["draw"], "tabOffline3:1")
    assert asked.status_code == 204 and asked.headers["HX-Redirect"].startswith("/deal/12")
    agreed = first_batch(client, 12, ["draw"], "tabOffline3:2", abandon="1")
    assert agreed.status_code == 200
    assert client.get(f"/api/games/{game_id}").json()["status"] == "abandoned"


def test_a_deal_of_the_day_begun_offline_yesterday_still_counts_as_yesterdays(client,
                                                                              monkeypatch):
    from datetime import UTC, datetime, time

    from app.web.core import utcday
    yesterday = today().date() - timedelta(days=1)
    # The offline pack fetched yesterday evening; the batch arrives early today (within
    # hours of the day's end: tests/web/test_offline_bounded.py has the limits).
    monkeypatch.setattr(utcday, "today", lambda: datetime.combine(yesterday, time(22), UTC))
    drawn = client.get("/api/offline-pack").json()["drawn"]
    monkeypatch.setattr(utcday, "today",
                        lambda: datetime.combine(yesterday + timedelta(days=1), time(2), UTC))
    variant = VARIANTS[-1]
    number = odds.daily_deal(yesterday, variant)
    game = Game(Deal.from_number(number), variant.goal, variant.passes)
    move = game.legal_moves[0]
    sent = client.post(f"/daily/play?goal={variant.goal.value}&passes={variant.passes}"
                       f"&day={yesterday.isoformat()}&drawn={drawn}", headers=JSON,
                       data={"moves": move.to_text(), "version": "0", "input": "tabOffline4:1",
                             "offline": "1", "elapsed": "30"})
    assert sent.status_code == 200
    state = client.get(f"/api/games/{sent.json()['id']}").json()
    assert state["daily"] == yesterday.isoformat()
    online = client.post(f"/daily/play?goal={variant.goal.value}&passes={variant.passes}"
                         f"&day={yesterday.isoformat()}", headers=JSON,
                         data={"moves": move.to_text(), "version": "0",
                               "input": "tabOffline4:2", "abandon": "1"})
    assert client.get(f"/api/games/{online.json()['id']}").json()["daily"] is None


def test_bad_syncs_get_a_clear_refusal_and_store_nothing(client, other_client):
    assert first_batch(client, 0, ["draw"], "tabOffline5:1").status_code == 404
    too_many = first_batch(client, 13, ["draw"] * 10_000, "tabOffline5:2")
    assert 400 <= too_many.status_code < 500
    illegal = first_batch(client, 13, ["draw", "draw", "KS"], "tabOffline5:3")
    assert illegal.status_code == 422 and illegal.json()["refused"]
    assert illegal.json()["moves"] == []  # the game began, and holds none of the batch
    game_id = start_deal(client, 42)
    theirs = other_client.post(f"/games/{game_id}/play", headers=JSON,
                               data={"moves": "draw", "version": "1", "input": "tabOffline5:4"})
    assert theirs.status_code == 403
    garbage = client.post(f"/games/{game_id}/play", headers=JSON,
                          content=b"\x00\xff not a form", )
    assert 400 <= garbage.status_code < 500
    assert client.get(f"/api/games/{game_id}").json()["moves"] == []


# --- the worker, the manifest, the offline board, the pack -------------------------------------
def test_the_service_worker_keeps_this_releases_shell(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and "javascript" in answer.headers["content-type"]
    assert answer.headers["Cache-Control"] == "no-cache"
    assert answer.headers["Service-Worker-Allowed"] == "/"
    script = answer.text
    assert f'const RELEASE = "{assets.RELEASE}";' in script
    assert "self.skipWaiting(" not in script  # a new release waits for the next visit
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", script).group(1))
    for path in precache:
        fetched = client.get(path)
        assert fetched.status_code == 200, path
    names = {path.rsplit("/", 1)[-1] for path in precache}
    assert {"main.js", "game.js", "early.js", "site.js", "icon-192.png", "solver.wasm", "worker.js",
            "solver.js", "ondevice.js"} <= names  # the solver on the device works offline too
    assert "/offline" in precache


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_makes_the_site_installable(client):
    html = client.get("/").text
    link = re.search(r'<link rel="manifest" href="([^"]+)">', html)
    assert link and re.search(r'<meta name="theme-color" content="#[0-9a-f]{6}">', html)
    manifest = client.get(link.group(1)).json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["name"] and manifest["short_name"] == "Pyramid"
    sizes = {}
    for icon in manifest["icons"]:
        sizes[icon["purpose"], icon["sizes"]] = png_size(client.get(icon["src"]).content)
    assert sizes == {("any", "192x192"): (192, 192), ("any", "512x512"): (512, 512),
                     ("maskable", "512x512"): (512, 512)}


def test_the_offline_board_has_no_game_of_its_own(client):
    html = client.get("/offline").text
    assert 'id="shell-data"' in html and 'id="game-data"' not in html
    shell = json.loads(re.search(r'id="shell-data">(.*?)</script>', html, re.S).group(1))
    assert shell["routes"]["deal_play"] == "/deal/NUMBER/play"
    assert " data-shell" in html
    assert client.get("/games").status_code in (200, 303)  # nothing stored by the visit


def test_the_offline_pack_has_the_next_days_deals(client):
    pack = client.get("/api/offline-pack").json()
    assert len(pack["days"]) == 8
    first = today().date()
    for ahead, day in enumerate(pack["days"]):
        date = first + timedelta(days=ahead)
        assert day["date"] == date.isoformat()
        for variant in VARIANTS:
            assert day["deals"][variant.key] == str(odds.daily_deal(date, variant))
    for variant in VARIANTS:
        assert len(pack["winnable"][variant.key]) == 12
