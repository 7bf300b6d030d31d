"""Races through the JSON API and the plain forms: create, join, start, the 9th
racer refused, a racer moves only in their own game, the deal hidden before the start,
analysis refused while the race runs, the results' order, the rematch."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.engine import Deal, Game, Move
from app.main import create_app
from tests.conftest import make_settings
from tests.web.conftest import browser_like, browsers
from tests.web.helpers import first_pair_move

DEAL = 98765


@pytest.fixture
def race_app(sqlite_url: str):
    return create_app(make_settings(sqlite_url, race_countdown_seconds=0.3))


@pytest.fixture
def clients(race_app) -> Iterator[list[TestClient]]:
    with browsers(race_app, 9) as opened:
        yield opened


def create(client: TestClient, **body) -> dict:
    response = client.post("/api/races", json={"goal": "standard", "passes": 3, **body})
    assert response.status_code == 201, response.text
    return response.json()


def started(clients: list[TestClient], count: int = 2, **body) -> tuple[dict, list[str]]:
    """A race of ``count`` racers, started, its countdown over; each racer's game id."""
    race = create(clients[0], deal=DEAL, **body)
    games = [race["you"]["game"]]
    for other in clients[1:count]:
        games.append(other.post(f"/api/races/{race['key']}/join").json()["game"])
    assert clients[0].post(f"/api/races/{race['key']}/start").status_code == 200
    wait_for(clients[0], race["key"], "running")
    return race, games


def wait_for(client: TestClient, key: str, status: str) -> dict:
    for _ in range(200):
        shown = client.get(f"/api/races/{key}").json()
        if shown["status"] == status:
            return shown
        time.sleep(0.02)
    raise AssertionError(f"the race never became {status}: {shown}")


def play(client: TestClient, game_id: str, move: Move):
    return client.post(f"/api/games/{game_id}/moves", json=move.to_dict())


def game_of(client: TestClient, game_id: str) -> Game:
    state = client.get(f"/api/games/{game_id}").json()
    return Game.replay(Deal.from_number(state["deal"]), state["goal"], state["passes"],
                       [Move.from_dict(m) for m in state["moves"]])


def test_a_race_is_made_joined_and_started(clients):
    first, second = clients[0], clients[1]
    race = create(first, deal=DEAL)
    key = race["key"]
    assert len(key) >= 20 and race["status"] == "waiting"
    assert [r["you"] for r in race["racers"]] == [True]
    joined = second.post(f"/api/races/{key}/join")
    assert joined.status_code == 200 and joined.json()["game"]
    again = second.post(f"/api/races/{key}/join")
    assert again.json()["game"] == joined.json()["game"]  # the same answer
    shown = second.get(f"/api/races/{key}").json()
    assert len(shown["racers"]) == 2 and [r["you"] for r in shown["racers"]] == [False, True]
    assert second.post(f"/api/races/{key}/start").status_code == 403  # not the creator
    started_race = first.post(f"/api/races/{key}/start").json()
    assert started_race["status"] == "countdown" and started_race["starts_in_ms"] > 0
    running = wait_for(first, key, "running")
    assert running["deal"] == DEAL
    assert {r["status"] for r in running["racers"]} == {"playing"}


def test_the_ninth_racer_is_refused(clients):
    race = create(clients[0])
    for other in clients[1:8]:
        assert other.post(f"/api/races/{race['key']}/join").status_code == 200
    refused = clients[8].post(f"/api/races/{race['key']}/join")
    assert refused.status_code == 409
    assert "8" in refused.json()["detail"]
    assert len(clients[0].get(f"/api/races/{race['key']}").json()["racers"]) == 8


def test_an_unknown_race_is_404_and_bad_input_4xx(clients):
    assert clients[0].get("/api/races/nope").status_code == 404
    assert clients[0].post("/api/races/nope/join").status_code == 404
    assert clients[0].post("/api/races", json={"passes": 7}).status_code == 422
    assert clients[0].post("/api/races", json={"difficulty": "silly"}).status_code == 422
    assert clients[0].get("/races/nope").status_code == 404


def test_the_deal_is_hidden_before_the_start(race_app, clients):
    first, second = clients[0], clients[1]
    slow = TestClient(create_app(make_settings(str(race_app.state.settings.database_url))))
    with slow:
        browser_like(slow)
        race = create(slow, deal=DEAL)
        key = race["key"]
        joined = second.post(f"/api/races/{key}/join").json()
        seen = [json.dumps(race), json.dumps(joined), second.get(f"/api/races/{key}").text,
                second.get(f"/races/{key}").text, first.get(f"/races/{key}").text]
        # The countdown (3 s here): the game exists, and is not shown yet.
        shown = slow.post(f"/api/races/{key}/start").json()
        assert shown["status"] == "countdown" and "deal" not in shown
        seen += [json.dumps(shown), second.get(f"/api/races/{key}").text,
                 second.get(f"/races/{key}").text, second.get("/").text,
                 second.get(f"/api/games/{joined['game']}").text,
                 second.get(f"/games/{joined['game']}").text]
        assert second.get(f"/api/games/{joined['game']}").status_code == 409
        assert second.get(f"/games/{joined['game']}").status_code == 409
        assert play(second, joined["game"], Move.from_dict({"op": "draw"})).status_code == 409
        for text in seen:
            assert str(DEAL) not in text


def test_a_racer_moves_only_in_their_own_game(clients):
    _race, games = started(clients)
    move = first_pair_move(game_of(clients[0], games[0]))
    assert play(clients[1], games[0], move).status_code == 403
    assert play(clients[0], games[0], move).status_code == 200


def test_progress_is_read_from_the_stored_games(clients):
    race, games = started(clients)
    assert play(clients[1], games[1], Move.from_dict({"op": "draw"})).status_code == 200
    shown = clients[0].get(f"/api/races/{race['key']}").json()
    second = next(r for r in shown["racers"] if not r["you"])
    assert second["moves"] == 1 and second["cards_left"] == 28


def test_analysis_and_replay_are_refused_while_the_race_runs(clients):
    _race, games = started(clients, count=2)
    # The second racer leaves: their game is abandoned (ended), as starting another does.
    assert play(clients[1], games[1], Move.from_dict({"op": "draw"})).status_code == 200
    assert clients[1].post("/api/games", json={"deal": 3}).status_code == 201
    assert clients[0].get(f"/api/games/{games[1]}").json()["status"] == "abandoned"
    refused = clients[2].get(f"/api/games/{games[1]}/analysis")
    assert refused.status_code == 403 and "race" in refused.json()["detail"]
    assert clients[2].get(f"/games/{games[1]}/analysis").status_code == 403
    assert clients[2].get(f"/games/{games[1]}/replay").status_code == 403
    # The same deal, played by anyone else, is kept too.
    other = clients[3].post("/api/games", json={"deal": DEAL}).json()["id"]
    assert play(clients[3], other, Move.from_dict({"op": "draw"})).status_code == 200
    clients[3].post("/api/games", json={"deal": 4})
    assert clients[3].get(f"/api/games/{other}/analysis").status_code == 403


def lose_fast(client: TestClient, game_id: str) -> None:
    """Draw and recycle until the game is lost (or no draw is left)."""
    for _ in range(200):
        state = client.get(f"/api/games/{game_id}").json()
        if state["status"] != "playing":
            return
        game = game_of(client, game_id)
        ops = [m for m in game.legal_moves if m.op.value in ("draw", "recycle")]
        move = ops[0] if ops else game.legal_moves[0]
        assert play(client, game_id, move).status_code == 200


def test_the_results_order_and_the_rematch(clients):
    race, games = started(clients, count=3)
    key = race["key"]
    # Racer 3 leaves first (gone), racer 1 plays on to a loss, racer 2 too.
    assert play(clients[2], games[2], Move.from_dict({"op": "draw"})).status_code == 200
    clients[2].post("/api/games", json={"deal": 5})
    lose_fast(clients[1], games[1])
    lose_fast(clients[0], games[0])
    shown = wait_for(clients[0], key, "finished")
    # Ranked before unranked (two games lost at a script's pace are not ranked), then won,
    # lost, gone; then time; then moves.
    outcome = {"won": 0, "lost": 1, "gone": 2, "out": 3}
    order = [(not r["ranked"], outcome[r["status"]],
              r["time_ms"] if r["status"] == "won" else 0, r["moves"]) for r in shown["racers"]]
    assert order == sorted(order)
    assert {r["status"] for r in shown["racers"]} <= {"won", "lost", "gone"}
    assert "gone" in {r["status"] for r in shown["racers"]}
    assert [r["place"] for r in shown["racers"]] == [1, 2, 3]
    assert all(r["game"] for r in shown["racers"])  # the replays open after the race
    assert clients[4].get(f"/games/{games[0]}/replay").status_code == 200
    # Rematch: one new race for the same racers, however many ask.
    first = clients[0].post(f"/api/races/{key}/rematch")
    assert first.status_code == 201
    again = clients[1].post(f"/api/races/{key}/rematch")
    assert again.json()["key"] == first.json()["key"] != key
    assert len(first.json()["racers"]) == 3 and first.json()["status"] == "waiting"
    assert clients[5].post(f"/api/races/{key}/rematch").status_code == 403


def test_the_plain_forms_work_without_javascript(clients):
    first, second = clients[0], clients[1]
    made = first.post("/races", data={"goal": "standard", "passes": "3",
                                      "difficulty": "easy"}, follow_redirects=False)
    assert made.status_code == 303
    page = made.headers["location"]
    assert re.fullmatch(r"/races/[\w-]{20,}", page)
    text = second.get(page).text
    assert "data-race=" in text and 'data-action="join"' in text
    assert second.post(page + "/join", follow_redirects=False).status_code == 303
    text = second.get(page).text
    assert text.count("data-racer=") == 2 and 'data-action="join"' not in text
    assert 'data-action="start"' in first.get(page).text
    assert first.post(page + "/start", follow_redirects=False).status_code == 303
    assert "data-countdown" in first.get(page).text
    refused = TestClient(first.app).post(page + "/join")  # no CSRF token
    assert refused.status_code == 403


def test_a_race_without_hints_refuses_them_and_one_with_hints_counts_them(clients):
    _race, games = started(clients, count=2)
    refused = clients[0].post(f"/api/games/{games[0]}/hint")
    assert refused.status_code == 403 and "hint" in refused.json()["detail"].lower()
    race, games = started(clients[2:], count=2, hints=True)
    assert clients[2].post(f"/api/games/{games[0]}/hint").status_code == 200
    shown = clients[2].get(f"/api/races/{race['key']}").json()
    assert next(r for r in shown["racers"] if r["you"])["hints"] == 1


def test_a_race_without_hints_offers_none_on_the_device_either(clients):
    """No hint control on the board (so the device's solver offers no hint, verdict or coach:
    static/js/board/ondevice.js), and a device hint step in a batch refuses the batch; a race
    with hints keeps the control."""
    _race, games = started(clients, count=2)
    assert 'data-action="hint"' not in clients[0].get(f"/games/{games[0]}").text
    version = clients[0].get(f"/api/games/{games[0]}").json()["version"]
    refused = clients[0].post(f"/games/{games[0]}/play", headers={"Accept": "application/json"},
                              data={"moves": "hint:draw draw", "version": str(version),
                                    "input": "racehints:1"})
    assert refused.status_code == 422 and refused.json()["refused"]
    state = clients[0].get(f"/api/games/{games[0]}").json()
    assert state["hints_used"] == 0 and state["moves"] == []
    # Nor on the board that htmx draws again after an input or an undo.
    redrawn = {"HX-Request": "true"}
    for path, data in (("play", {"action": "draw"}), ("undo", {})):
        answered = clients[0].post(f"/games/{games[0]}/{path}", headers=redrawn, data=data)
        assert 'id="board"' in answered.text, (path, answered.status_code)
        assert 'data-action="hint"' not in answered.text, path
    _race, games = started(clients[2:], count=2, hints=True)
    assert 'data-action="hint"' in clients[2].get(f"/games/{games[0]}").text


def test_races_are_in_each_racers_statistics_and_history(race_app, clients):
    race, games = started(clients, count=2)
    key = race["key"]
    for client in clients[:2]:
        page = client.get("/stats").text
        assert f'data-race-row="{key}"' in page
        assert f'href="/races/{key}"' in page
    assert "data-race-row" not in clients[3].get("/stats").text
    # Both racers move, then the time runs out: each game is in its player's history,
    # marked as a race's, with a link to the race; another game of theirs is not.
    for client, game in zip(clients, games, strict=False):
        assert play(client, game, Move.from_dict({"op": "draw"})).status_code == 200
    past_its_time(race_app, key)
    assert clients[0].get(f"/api/races/{key}").json()["status"] == "finished"
    other = clients[0].post("/api/games", json={"deal": 3}).json()["id"]
    assert play(clients[0], other, Move.from_dict({"op": "draw"})).status_code == 200
    clients[0].post("/api/games", json={"deal": 4})  # the other game left: in the history
    for client, game in zip(clients, games, strict=False):
        page = client.get("/stats").text
        row = re.search(rf'<tr data-game="{re.escape(game)}">.*?</tr>', page, re.S)
        assert row and f'data-race-game="{key}"' in row.group(0)
        assert f'href="/races/{key}"' in row.group(0) and "result-lost" in row.group(0)
    row = re.search(rf'<tr data-game="{re.escape(other)}">.*?</tr>',
                    clients[0].get("/stats").text, re.S)
    assert row and "data-race-game" not in row.group(0)


def test_making_and_joining_races_spend_the_game_budget(sqlite_url):
    app = create_app(make_settings(sqlite_url, games_per_minute=1, game_burst=1))
    with TestClient(app) as maker, TestClient(app) as joiner:
        browser_like(maker)
        browser_like(joiner)
        assert maker.post("/api/races", json={}).status_code == 201
        assert maker.post("/api/races", json={}).status_code == 201  # the burst
        spent = maker.post("/api/races", json={})
        assert spent.status_code == 429 and int(spent.headers["Retry-After"]) > 0
        key = joiner.post("/api/races", json={}).json()["key"]
        assert joiner.post(f"/api/races/{key}/join").status_code == 200
        assert joiner.post(f"/api/races/{key}/join").status_code == 429


def test_no_log_line_names_the_deal_before_the_start(clients, captured):
    race = create(clients[0], deal=DEAL)
    clients[1].post(f"/api/races/{race['key']}/join")
    clients[1].get(f"/races/{race['key']}")
    clients[0].post(f"/api/races/{race['key']}/start")
    assert captured.lines and not [line for line in captured.lines if str(DEAL) in line]


def past_its_time(app, key: str) -> None:
    """The race's time limit passes (its end moved to now: what was done so far was in
    time)."""
    from sqlalchemy import update

    from app.store.models import Race, utcnow

    with app.state.db.session() as session:
        session.execute(update(Race).where(Race.key == key).values(ends_at=utcnow()))


def stored_race(app, key: str):
    from app.store.models import Race

    with app.state.db.session() as session:
        return session.get(Race, key).status


def test_a_race_ends_when_its_time_is_up(race_app, clients):
    race, games = started(clients, count=2)
    assert play(clients[0], games[0], Move.from_dict({"op": "draw"})).status_code == 200
    past_its_time(race_app, race["key"])
    shown = wait_for(clients[2], race["key"], "finished")
    assert {r["status"] for r in shown["racers"]} == {"out"}
    # Marked over and the games ended by the server, once, by whoever came first.
    assert stored_race(race_app, race["key"]) == "finished"
    for client, game in zip(clients, games, strict=False):
        state = client.get(f"/api/games/{game}").json()
        assert state["status"] == "lost" and "time limit passed" in state["reason"]
    # A move sent after the time limit is refused with its own code; nothing changes.
    late = play(clients[0], games[0], Move.from_dict({"op": "draw"}))
    assert late.status_code == 422
    error = late.json()["errors"][0]
    assert error["type"] == "game_over" and error["ctx"]["termination"] == "time_up"
    assert "time limit" in late.json()["detail"]
    assert "time limit passed" in clients[0].get(f"/games/{games[0]}").text  # the board says
    after = clients[2].get(f"/api/races/{race['key']}").json()
    assert after["status"] == "finished"
    assert [r["status"] for r in after["racers"]] == ["out", "out"]
    assert sorted(r["moves"] for r in after["racers"]) == [0, 1]  # its move kept


def test_a_race_past_its_time_ends_with_no_process_watching(race_app, clients):
    """No hub watches the clock (a restart, another process): the first read of the race,
    or the first move in one of its games, ends it, with results the server wrote."""
    race, games = started(clients, count=3)
    race_app.state.hub.on_tick = None  # nobody moves races on by the clock from here
    lose_fast(clients[1], games[1])  # racer 2 lost before the limit, in time
    assert play(clients[0], games[0], Move.from_dict({"op": "draw"})).status_code == 200
    past_its_time(race_app, race["key"])
    assert stored_race(race_app, race["key"]) in ("countdown", "running")  # not looked at
    late = play(clients[2], games[2], Move.from_dict({"op": "draw"}))  # the first to ask
    assert late.status_code == 422 and late.json()["errors"][0]["ctx"]["termination"] == \
        "time_up"
    assert stored_race(race_app, race["key"]) == "finished"
    state = clients[0].get(f"/api/games/{games[0]}").json()
    assert state["status"] == "lost" and state["moves"]  # ended by time, its move kept
    shown = clients[3].get(f"/api/races/{race['key']}").json()
    assert shown["status"] == "finished"
    statuses = {r["id"]: r["status"] for r in shown["racers"]}
    assert statuses == {1: "out", 2: "lost", 3: "out"}
    assert [r["place"] for r in shown["racers"]] == [1, 2, 3]  # all three in the results
    # The event of the end is in the race's stream (an event, not a client's word).
    from app.store import races as stored

    with race_app.state.db.session() as session:
        (_id, payload), = stored.latest_event(session, race["key"])
    assert json.loads(payload)["status"] == "finished"


def test_the_race_starts_when_every_racer_is_ready(clients):
    first, second, watcher = clients[0], clients[1], clients[2]
    race = create(first, deal=DEAL)
    key = race["key"]
    alone = first.post(f"/api/races/{key}/ready")
    assert alone.status_code == 200
    assert alone.json()["status"] == "waiting"  # one racer ready: not a race yet
    assert [r["ready"] for r in alone.json()["racers"]] == [True]
    assert second.post(f"/api/races/{key}/join").status_code == 200
    assert [r["ready"] for r in watcher.get(f"/api/races/{key}").json()["racers"]] == \
        [True, False]
    assert watcher.post(f"/api/races/{key}/ready").status_code == 403  # not a racer
    page = second.get(f"/races/{key}").text
    assert 'data-action="ready"' in page and 'data-ready="false"' in page
    # The last racer ready starts the countdown, as the creator's Start does.
    shown = second.post(f"/api/races/{key}/ready").json()
    assert shown["status"] == "countdown" and shown["starts_in_ms"] > 0
    assert "deal" not in shown and all(r["ready"] for r in shown["racers"])
    running = wait_for(first, key, "running")
    assert running["deal"] == DEAL
    assert [r["status"] for r in running["racers"]] == ["playing", "playing"]
    assert second.post(f"/api/races/{key}/ready").status_code == 200  # again: the same
    assert watcher.post(f"/api/races/{key}/join").status_code == 409  # after the start
    assert first.post(f"/api/races/{key}/start").status_code == 200  # nothing changes


def test_ready_by_the_plain_form_and_after_the_start(clients):
    first, second, third = clients[0], clients[1], clients[2]
    made = first.post("/races", data={"goal": "standard", "passes": "3"},
                      follow_redirects=False)
    page = made.headers["location"]
    for client in (second, third):
        assert client.post(page + "/join", follow_redirects=False).status_code == 303
    assert second.post(page + "/ready", follow_redirects=False).status_code == 303
    text = second.get(page).text
    assert 'data-action="ready"' not in text  # said once
    assert text.count('data-ready="true"') == 1 and text.count('data-ready="false"') == 2
    assert TestClient(first.app).post(page + "/ready").status_code == 403  # no CSRF token
    assert first.post(page + "/start", follow_redirects=False).status_code == 303
    refused = third.post(page + "/ready")  # the race went without them
    assert refused.status_code == 409 and "started" in refused.text


def test_being_ready_spends_the_game_budget(sqlite_url):
    app = create_app(make_settings(sqlite_url, games_per_minute=1, game_burst=1))
    with TestClient(app) as maker:
        browser_like(maker)
        key = maker.post("/api/races", json={}).json()["key"]
        assert maker.post(f"/api/races/{key}/ready").status_code == 200  # the burst
        spent = maker.post(f"/api/races/{key}/ready")
        assert spent.status_code == 429 and int(spent.headers["Retry-After"]) > 0


def test_a_racer_back_online_is_synced_and_marked_not_timed(race_app, clients):
    """A racer who dropped kept playing on the device; the batch the page sends when back
    (``offline``, the page's clock) is played once, and the race shows the game not timed:
    not ranked, listed after the ranked ones. After the time limit it is refused."""
    race, games = started(clients, count=2)
    key, client, game = race["key"], clients[1], games[1]
    assert play(client, game, Move.from_dict({"op": "draw"})).status_code == 200
    version = client.get(f"/api/games/{game}").json()["version"]
    batch = {"moves": "draw draw", "version": str(version), "input": "tabRace1:1",
             "offline": "1", "elapsed": "40"}
    headers = {"Accept": "application/json"}
    synced = client.post(f"/games/{game}/play", headers=headers, data=batch)
    assert synced.status_code == 200 and synced.json()["timed"] is False
    again = client.post(f"/games/{game}/play", headers=headers, data=batch)  # a retried sync
    assert again.status_code == 200
    shown = clients[0].get(f"/api/races/{key}").json()
    racer = next(r for r in shown["racers"] if r["id"] == 2)
    assert racer["moves"] == 3 and racer["status"] == "playing"  # played once
    assert racer["timed"] is False and racer["ranked"] is False
    assert racer["unranked_why"] == "untimed"
    assert 'data-racer="2"' in clients[2].get(f"/races/{key}").text
    assert re.search(r'data-racer="2"[^>]*data-timed="false"', clients[2].get(
        f"/races/{key}").text)
    # Back only after the time limit: the race is over, the device's moves are refused.
    past_its_time(race_app, key)
    version = client.get(f"/api/games/{game}").json()["version"]
    late = client.post(f"/games/{game}/play", headers=headers, data={
        **batch, "version": str(version), "input": "tabRace1:2"})
    assert late.status_code == 422 and "time limit" in late.text
    assert len(client.get(f"/api/games/{game}").json()["moves"]) == 3


def test_racers_ready_at_once_start_their_race_once(database_url):
    """Every racer presses ready at the same moment (PostgreSQL too: each request's read of
    who is ready waits for the others' commits): each race starts, once; and the time
    limit's end, reached by several readers at once, ends each game once."""
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import func, select

    from app.store.models import RaceEvent

    app = create_app(make_settings(database_url, race_countdown_seconds=0.2))
    with browsers(app, 4) as racers:
        keys = []
        for _ in range(3):
            key = create(racers[0])["key"]
            for other in racers[1:]:
                assert other.post(f"/api/races/{key}/join").status_code == 200
            keys.append(key)
        with ThreadPoolExecutor(max_workers=4) as pool:
            for key in keys:
                answers = list(pool.map(
                    lambda client, key=key: client.post(f"/api/races/{key}/ready"), racers))
                assert [a.status_code for a in answers] == [200] * 4
        for key in keys:
            shown = wait_for(racers[0], key, "running")
            assert [r["status"] for r in shown["racers"]] == ["playing"] * 4
        with app.state.db.session() as session:
            for key in keys:
                states = [json.loads(payload)["status"] for payload in session.scalars(
                    select(RaceEvent.payload).where(RaceEvent.race_key == key))]
                assert states.count("countdown") == 1  # one start
        key = keys[0]
        app.state.hub.on_tick = None
        games = [client.get(f"/api/races/{key}").json()["you"]["game"] for client in racers]
        for client, game in zip(racers, games, strict=True):
            assert play(client, game, Move.from_dict({"op": "draw"})).status_code == 200
        past_its_time(app, key)
        with ThreadPoolExecutor(max_workers=4) as pool:
            reads = list(pool.map(lambda client: client.get(f"/api/races/{key}"), racers))
        assert {r.json()["status"] for r in reads} == {"finished"}
        with app.state.db.session() as session:
            ends = session.scalar(select(func.count()).select_from(RaceEvent).where(
                RaceEvent.race_key == key, RaceEvent.payload.contains('"status":"finished"')))
        assert ends == 1
        assert {racers[0].get(f"/api/games/{game}").json()["status"] for game in games} == \
            {"lost"}


def test_racers_who_did_not_win_are_placed_by_how_far_they_got():
    """Winners by time; the others by cards left, then time, then moves: a racer out of time
    who never moved is placed last, not first for having the fewest moves."""
    from app.web.services.racing import ordered

    def racer(number: int, status: str, cards_left: int, time_ms: int, moves: int) -> dict:
        return {"id": number, "status": status, "ranked": True, "cards_left": cards_left,
                "time_ms": time_ms, "moves": moves}

    racers = [racer(1, "out", 28, 900_000, 0), racer(2, "out", 12, 900_000, 40),
              racer(3, "won", 0, 300_000, 50), racer(4, "won", 0, 200_000, 60),
              racer(5, "lost", 20, 100_000, 30), racer(6, "out", 12, 900_000, 35),
              racer(7, "playing", 10, 5_000, 3)]
    assert [r["id"] for r in ordered(racers)] == [4, 3, 5, 6, 2, 1, 7]


def test_a_finished_game_races_its_deal_with_friends(clients):
    """The end banner of a finished game has "Race friends on this deal": a race of that deal
    and those rules, its maker a racer, the deal still hidden until the start."""
    first, second = clients[0], clients[1]
    game_id = first.post("/api/games", json={"deal": 11, "goal": "standard",
                                            "passes": 1}).json()["id"]
    lose_fast(first, game_id)
    board = first.get(f"/games/{game_id}").text
    form = re.search(r'<form method="post" action="(/races)">(.*?)</form>', board, re.S)
    assert form and 'data-action="race"' in form.group(2)
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(2)))
    assert {k: fields[k] for k in ("goal", "passes", "deal")} == {
        "goal": "standard", "passes": "1", "deal": "11"}
    made = first.post("/races", data=fields, follow_redirects=False)
    assert made.status_code == 303
    key = made.headers["location"].rsplit("/", 1)[1]
    assert "11" not in json.dumps(first.get(f"/api/races/{key}").json())
    assert second.post(f"/api/races/{key}/join").status_code == 200
    assert first.post(f"/api/races/{key}/start").status_code == 200
    game = first.post(f"/api/races/{key}/join").json()["game"]  # the maker's own game
    wait_for(first, key, "running")  # the deal is shown when the countdown ends
    assert first.get(f"/api/games/{game}").json()["deal"] == 11
