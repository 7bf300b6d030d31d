"""Starting games from many tabs at once.

Found by an attacker: one player's 8 tabs starting games (``POST /games``) while moving in
them answered 500 five times in 667 requests (two processes on one SQLite file). A start reads
the player's games in progress, then abandons them through their version; a move from another
tab that landed in between made every one of its three attempts a ``GameConflict``, which no
handler answered. Now a start holds the player's games in progress from before it reads them
(SQLite's write lock; PostgreSQL's row locks), so no move lands in between; and a start that
still cannot be made is a 409 with a sentence, never a 500.
"""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import select, text
from sqlalchemy.exc import OperationalError

from app.engine import DEFAULT_VARIANT, Deal, Move
from app.store import Database, GameConflict, load, preview, statistics
from app.store import games as stored_games
from app.store.models import GameRecord
from app.web.services import actions

from .helpers import start_deal


def write_from_elsewhere(db: Database, game_id: str) -> str:
    """Another tab's move on ``game_id``, made on a connection of its own that will not wait
    for a lock: "landed" if it was written, "held" if the game was held by someone else."""
    if db.file is not None:
        other = sqlite3.connect(db.file, timeout=0)
        try:
            other.execute("UPDATE games SET version = version + 1 WHERE id = ?", (game_id,))
            other.commit()
            return "landed"
        except sqlite3.OperationalError as exc:
            assert "locked" in str(exc)
            return "held"
        finally:
            other.close()
    with db.engine.connect() as other:
        try:
            other.execute(text("SELECT id FROM games WHERE id = :id FOR UPDATE NOWAIT"),
                          {"id": game_id})
        except OperationalError as exc:
            assert "lock" in str(exc)
            return "held"
        other.execute(text("UPDATE games SET version = version + 1 WHERE id = :id"),
                      {"id": game_id})
        other.commit()
        return "landed"


def played_game(db: Database, player: str, deal: int) -> str:
    """A game of ``player`` in progress with one move."""
    with db.sessions() as session:
        record = actions.start(session, player, Deal.from_number(deal), DEFAULT_VARIANT)
        actions.apply(session, load(session, record.id), [Move.draw()])
        return record.id


def test_no_move_lands_between_a_start_reading_the_games_it_leaves_and_leaving_them(
        db, monkeypatch):
    old = played_game(db, "p", 7)
    seen: list[str] = []
    abandon = stored_games.mark_abandoned

    def another_tab_moves_first(session, record, now=None):
        seen.append(write_from_elsewhere(db, record.id))
        return abandon(session, record, now)

    monkeypatch.setattr(stored_games, "mark_abandoned", another_tab_moves_first)
    with db.sessions() as session:
        new = actions.start(session, "p", Deal.from_number(8), DEFAULT_VARIANT)
    assert seen == ["held"]
    monkeypatch.undo()
    with db.sessions() as session:
        statuses = dict(session.execute(select(GameRecord.id, GameRecord.status)
                                        .where(GameRecord.player_id == "p")).all())
        assert statuses == {old: "abandoned", new.id: "playing"}
        assert statistics(session, "p").total.abandoned == 1
    # The other tab's move, had it waited for the start, meets a game that has ended.
    assert write_from_elsewhere(db, old) == "landed"


def test_the_same_holds_for_a_deal_link_started_again(db, monkeypatch):
    old = played_game(db, "p", 7)
    seen: list[str] = []
    abandon = stored_games.mark_abandoned

    def another_tab_moves_first(session, record, now=None):
        seen.append(write_from_elsewhere(db, record.id))
        return abandon(session, record, now)

    monkeypatch.setattr(stored_games, "mark_abandoned", another_tab_moves_first)
    with db.sessions() as session:
        actions.reusable_start(session, "p", Deal.from_number(9), DEFAULT_VARIANT)
        loaded = preview("p", Deal.from_number(10), DEFAULT_VARIANT.goal,
                         DEFAULT_VARIANT.passes)
        actions.apply(session, loaded, [Move.draw()], input_id="input-1")
    assert seen == ["held"]
    with db.sessions() as session:
        assert session.get(GameRecord, old).status == "abandoned"
        assert session.get(GameRecord, loaded.record.id).move_count == 1


def owner(app, game_id: str) -> str:
    with app.state.db.sessions() as session:
        return session.get(GameRecord, game_id).player_id


def player_games(app, player: str) -> list[tuple[str, str, int]]:
    with app.state.db.sessions() as session:
        return sorted(session.execute(
            select(GameRecord.id, GameRecord.status, GameRecord.move_count)
            .where(GameRecord.player_id == player)).all())


def test_a_start_that_cannot_be_made_is_a_409_with_a_sentence(app, client, monkeypatch):
    game_id = client.post("/api/games", json={"deal": 7}).json()["id"]
    assert client.post(f"/api/games/{game_id}/moves", json={"op": "draw"}).status_code == 200
    player = owner(app, game_id)
    before = player_games(app, player)

    def changed(session, record, now=None):
        raise GameConflict("This game was changed elsewhere: try again.")

    monkeypatch.setattr(stored_games, "mark_abandoned", changed)
    api = client.post("/api/games", json={"deal": 8})
    assert api.status_code == 409
    assert api.json()["errors"] == []
    assert "another tab" in api.json()["detail"] and "try again" in api.json()["detail"]
    page = client.post("/games", data={"deal": "9", "confirm": "1"})
    assert page.status_code == 409 and "text/html" in page.headers["content-type"]
    assert "another tab" in page.text and "Traceback" not in page.text
    board = client.post(f"/games/{game_id}/restart", data={"confirm": "1"})
    assert board.status_code == 409
    assert player_games(app, player) == before  # nothing started, nothing left


def test_the_api_documents_the_409_of_a_start(client):
    responses = client.get("/openapi.json").json()["paths"]["/api/games"]["post"]["responses"]
    assert "409" in responses


def test_eight_tabs_starting_and_moving_at_once_get_no_500(app, client):
    """A smoke test of the race in one process (two processes made it 5 x 500 in 667)."""

    def tab(number: int) -> list[int]:
        codes = []
        for round_ in range(6):
            started = client.post("/api/games", json={"deal": number * 10 + round_ + 1})
            codes.append(started.status_code)
            if started.status_code != 201:
                continue
            for _ in range(2):
                codes.append(client.post(f"/api/games/{started.json()['id']}/moves",
                                         json={"op": "draw"}).status_code)
        return codes

    with ThreadPoolExecutor(8) as pool:
        codes = [code for codes in pool.map(tab, range(8)) for code in codes]
    assert not [code for code in codes if code >= 500]
    assert set(codes) <= {200, 201, 409, 422}
    assert codes.count(201) == 48
    player = owner(app, client.post("/api/games", json={"deal": 1}).json()["id"])
    with app.state.db.sessions() as session:
        ended = session.execute(select(GameRecord.status, GameRecord.seq).where(
            GameRecord.player_id == player, GameRecord.status != "playing")).all()
        # Every game left is abandoned once, with its place in the results (a move that
        # lost the race was refused, not lost in an ended game); the statistics agree.
        assert {status for status, _ in ended} <= {"abandoned"}
        assert sorted(seq for _, seq in ended) == list(range(1, len(ended) + 1))
        assert statistics(session, player).total.played == len(ended)


def test_a_deal_page_started_from_many_tabs_at_once_gets_no_500(app, client):
    game_id = start_deal(client, 7)
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})

    def tab(number: int) -> int:
        return client.post(f"/deal/{20 + number}", data={},
                           follow_redirects=False).status_code

    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(tab, range(8)))
    assert set(codes) <= {303, 409}
