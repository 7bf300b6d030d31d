"""Shared results are earned, the ways around it once found, as tests: a signed export imported
into four players (one real win became "won 4 times"), an old export imported again after a
reset, a win whose time the server never watched shown as "Fastest win 0:00"; and a throwaway
player's hints driving the real game to a win with 0 hints counted."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient
from sqlalchemy import delete, select

from app.engine import Deal, Game, Move
from app.engine.solver import solve
from app.store.models import GameRecord
from app.web.services import gamesfile

from .conftest import browser_like
from .helpers import import_file

WIN_DEAL = 5


def won_game(client, number: int = WIN_DEAL) -> str:
    game_id = client.post("/api/games", json={"deal": number}).json()["id"]
    for move in solve(Game(Deal.from_number(number), "standard", 3)).moves:
        client.post(f"/api/games/{game_id}/moves", json=move.to_dict())
    assert client.get(f"/api/games/{game_id}").json()["status"] == "won"
    return game_id


def imported(client, payload: bytes):
    return import_file(client, payload)


def played_count(client) -> str:
    html = client.get("/stats").text
    if 'data-figures="total"' not in html:  # no game yet
        return "0"
    block = html.split('data-figures="total"', 1)[1]
    return re.search(r'data-figure="played">\s*([^<]*?)\s*<', block).group(1)


# --- an export imports once, into its own player -------------------------------------------
def test_an_export_does_not_import_into_other_players(client, app):
    won_game(client)
    export = client.get("/stats/export.json").content
    header = json.loads(export)["export"]
    assert set(header) == {"id", "player", "made_at"} and len(header["id"]) == 32
    for _ in range(4):  # as once found: one real win became "won 4 times"
        with TestClient(app) as other:
            browser_like(other)
            refused = imported(other, export)
            assert refused.status_code == 400, refused.text
            assert "imports only into the player who made it" in refused.text
            assert "another device" in refused.text
            assert played_count(other) == "0"
    assert played_count(client) == "1"


def test_an_export_imports_once_into_its_own_player(client, app):
    won_game(client)
    export = client.get("/stats/export.json").content
    with app.state.db.session() as session:  # the games lost (a database restored, say)
        session.execute(delete(GameRecord))
    assert played_count(client) == "0"
    done = imported(client, export)
    assert done.status_code == 303 and "imported=1" in done.headers["location"]
    assert played_count(client) == "1"
    again = imported(client, export)
    assert again.status_code == 400 and "imported already" in again.text
    assert played_count(client) == "1"  # nothing doubled


def test_an_export_made_before_a_reset_does_not_import_again(client):
    won_game(client)
    export = client.get("/stats/export.json").content
    assert client.post("/stats/reset", data={"confirm": "yes"},
                       follow_redirects=False).status_code == 303
    assert played_count(client) == "0"
    refused = imported(client, export)
    assert refused.status_code == 400 and "before your statistics were reset" in refused.text
    assert played_count(client) == "0"
    # A new export, made after the reset, is the player's own again (of no games here).
    won_game(client)
    fresh = client.get("/stats/export.json").content
    assert imported(client, fresh).status_code == 303


def test_an_export_made_before_exports_named_their_player_is_refused(client, app):
    won_game(client)
    data = client.get("/stats/export.json").json()
    del data["export"]  # as exports were made before: their games signed alone
    signer = gamesfile.ExportSigner(app.state.settings.secret_key)
    for game in data["games"]:
        signer.update(gamesfile.ExportSigner.canonical(game))
    data["signature"] = signer.hexdigest()
    refused = imported(client, json.dumps(data).encode())
    assert refused.status_code == 400 and "older version" in refused.text


def test_the_exports_own_fields_are_signed(client, app):
    won_game(client)
    data = client.get("/stats/export.json").json()
    with TestClient(app) as other:
        browser_like(other)
        other.get("/stats")
        # Claiming the export for another player breaks its signature.
        data["export"]["player"] = gamesfile.player_tag(app.state.settings.secret_key,
                                                        other.cookies.get("pyramid_player")
                                                        or "someone")
        refused = imported(other, json.dumps(data).encode())
        assert refused.status_code == 400 and "changed after it was exported" in refused.text


# --- results whose time the server did not watch are not ranked ------------------------------
def won_offline(client, number: int = WIN_DEAL) -> str:
    """The whole winning line sent as moves made without network, 0 seconds on the page."""
    line = solve(Game(Deal.from_number(number), "standard", 3)).moves
    answer = client.post(f"/deal/{number}/play?goal=standard&passes=3",
                         headers={"Accept": "application/json"},
                         data={"moves": " ".join(m.to_text() for m in line), "version": "0",
                               "input": "tabFairPlay:1", "offline": "1", "elapsed": "0"})
    assert answer.status_code == 200, answer.text
    return answer.json()["id"]


def test_a_win_the_server_did_not_time_counts_but_is_not_the_fastest(client, other_client,
                                                                     human_pace):
    game_id = won_offline(client)
    state = client.get(f"/api/games/{game_id}").json()
    assert state["status"] == "won" and state["elapsed_seconds"] == 0
    assert state["ranked"] is False and state["timed_by"] == "player"
    # Counted for its player: played 1, won 1; but no best time of 0:00.
    html = client.get("/stats").text
    assert played_count(client) == "1"
    block = html.split('data-figures="total"', 1)[1].split("</dl>", 1)[0]
    assert "0:00" not in block
    # Nor on the deal's results that others see, and the game page says why.
    page = client.get(f"/games/{game_id}").text
    assert "data-unranked" in page and "Not ranked" in page
    # Why, as words a phone shows (no title attribute only).
    assert re.search(r'data-unranked-why="untimed">[^<]*not watched by the server', page)
    results = other_client.get(f"/deal/{WIN_DEAL}").text
    summary = results.split("data-deal-summary", 1)[1].split("</p>", 1)[0]
    assert "Played 1 time" in summary and "Fastest win" not in summary
    assert "Best score" not in summary
    # A game the server timed is ranked.
    timed = won_game(other_client)
    assert other_client.get(f"/api/games/{timed}").json()["ranked"] is True
    summary = client.get(f"/deal/{WIN_DEAL}").text.split("data-deal-summary", 1)[1]
    assert "Fastest win" in summary.split("</p>", 1)[0]


def test_an_imported_game_is_not_ranked(client, app):
    game_id = won_game(client)
    export = client.get("/stats/export.json").content
    with app.state.db.session() as session:
        session.execute(delete(GameRecord))
    assert imported(client, export).status_code == 303
    with app.state.db.sessions() as session:
        row = session.execute(select(GameRecord.timed, GameRecord.ranked)).one()
    assert tuple(row) == (False, False)
    assert client.get(f"/api/games/{game_id}").json()["timed_by"] == "player"


# --- hints used through another player -------------------------------------------------------
def started_daily(client) -> tuple[str, int]:
    """Today's deal of the day (standard, 3 passes) begun with its first legal move, as the
    board's first batch begins it."""
    from app import odds
    from app.engine import Variant
    from app.web.core import utcday
    number = odds.daily_deal(utcday.today().date(), Variant("standard", 3))
    first = Game(Deal.from_number(number), "standard", 3).legal_moves[0]
    started = client.post("/daily/play?goal=standard&passes=3",
                          headers={"Accept": "application/json"},
                          data={"moves": first.to_text(), "version": "0",
                                "input": "tabFairDaily:1"})
    assert started.status_code == 200, started.text
    game_id = started.json()["id"]
    assert client.get(f"/api/games/{game_id}").json()["daily"] is not None
    return game_id, number


def throwaway_hint(helper, number: int, moves: list[dict]) -> dict:
    """A throwaway player's game of the day's deal, brought to the real game's position, and
    the hint it is given there. Its own deal of the day: a game of a deal in play that does
    not play for the day gives no hint (tests/web/test_known_whatever_the_rules.py)."""
    started = helper.post("/daily/play?goal=standard&passes=3",
                          headers={"Accept": "application/json"},
                          data={"moves": " ".join(Move.from_dict(m).to_text() for m in moves),
                                "version": "0", "input": "tabThrowaway:1"})
    assert started.status_code == 200, started.text
    game_id = started.json()["id"]
    hint = helper.post(f"/api/games/{game_id}/hint").json()
    assert hint["move"] is not None
    return hint["move"]


def test_a_throwaway_players_hints_count_in_the_game_that_plays_them(client, app):
    real, number = started_daily(client)
    for _ in range(3):  # three moves, each a hint another cookie from this address was given
        with TestClient(app) as helper:  # a fresh cookie each time, as the attack's
            browser_like(helper)
            moves = client.get(f"/api/games/{real}").json()["moves"]
            move = throwaway_hint(helper, number, moves)
        played = client.post(f"/api/games/{real}/moves", json=move)
        assert played.status_code == 200, played.text
    state = client.get(f"/api/games/{real}").json()
    assert state["hints_used"] == 3 and state["ranked"] is False
    assert state["timed_by"] == "server"
    # Played to its end (the solver's line from here), it counts for the player, unranked.
    game = Game.replay(Deal.from_number(number), "standard", 3,
                       [Move.from_dict(m) for m in state["moves"]])
    for move in solve(game).moves:
        client.post(f"/api/games/{real}/moves", json=move.to_dict())
    done = client.get(f"/api/games/{real}").json()
    assert done["status"] == "won" and done["ranked"] is False
    assert played_count(client) == "1"
    page = client.get(f"/games/{real}").text
    assert re.search(r'data-unranked-why="known">[^<]*known beforehand', page)
    summary = client.get(f"/deal/{number}").text.split("data-deal-summary", 1)[1]
    assert "Fastest win" not in summary.split("</p>", 1)[0]


def test_a_players_own_hint_counts_once_and_another_address_is_not_matched(client, app):
    real, number = started_daily(client)
    moves = client.get(f"/api/games/{real}").json()["moves"]
    own = client.post(f"/api/games/{real}/hint").json()["move"]
    assert client.post(f"/api/games/{real}/moves", json=own).status_code == 200
    state = client.get(f"/api/games/{real}").json()
    assert state["hints_used"] == 1 and state["ranked"] is True
    # Another network's hint cannot be told from the player's own finding (docs/players.md).
    moves = state["moves"]
    with TestClient(app, client=("192.0.2.7", 4000)) as elsewhere:
        browser_like(elsewhere)
        move = throwaway_hint(elsewhere, number, moves)
    assert client.post(f"/api/games/{real}/moves", json=move).status_code == 200
    state = client.get(f"/api/games/{real}").json()
    assert state["hints_used"] == 1 and state["ranked"] is True


def test_hints_on_any_deal_are_written_down_with_their_game(client, app):
    # A challenge can be of any deal (tests/web/test_challenge_knowledge.py): a hint on a deal
    # in play for no day is written down too, with the game it was given in.
    from app.store.models import GivenHint
    from tests.dailies import spare_deals
    number = spare_deals(range(3, 40))[0]
    game_id = client.post("/api/games", json={"deal": number}).json()["id"]
    assert client.post(f"/api/games/{game_id}/hint").status_code == 200
    with app.state.db.sessions() as session:
        rows = session.execute(select(GivenHint.game_id, GivenHint.player_id)).all()
    assert [row.game_id for row in rows] == [game_id]


def test_a_result_not_ranked_never_wins_on_time():
    # A challenge's answers and "beat it" compare wins, moves, then time: a time not ranked
    # (shown as none) comes after every ranked one, never as 0:00 before them.
    from app.store import Result, rank_of
    from app.web.services.results import beats
    ranked = Result("a", None, True, 40, 300, 900, 28, None)
    unranked = Result("b", None, True, 40, None, None, 28, None)
    assert rank_of(ranked) > rank_of(unranked)
    assert beats(unranked, ranked) is False and beats(ranked, unranked) is True


def test_a_challenge_shows_no_time_for_a_game_not_ranked(client, app):
    from app.store import result_of
    game_id = won_offline(client)
    with app.state.db.sessions() as session:
        record = session.get(GameRecord, game_id)
        shown = result_of(session, record)
    assert shown.won and shown.seconds is None and shown.score is None


def test_hints_given_are_kept_only_while_their_deal_can_be_in_play(client, app):
    from datetime import timedelta

    from app.store.models import GivenHint, utcnow
    from app.web.services.witness import KEPT_DAYS
    old = utcnow() - timedelta(days=KEPT_DAYS, hours=1)
    with app.state.db.session() as session:
        session.add(GivenHint(position="p" * 64, move="draw", address="a", player_id="x",
                              given_at=old))
    real, _number = started_daily(client)
    assert client.post(f"/api/games/{real}/hint").status_code == 200
    with app.state.db.sessions() as session:
        kept = session.scalars(select(GivenHint.player_id)).all()
    assert "x" not in kept and len(kept) == 1  # the old one gone, today's written down
