"""The statistics' routes: /stats, history, export, reset, the display name, and replays; and the
counting rules as a player meets them (finish, retry, restart, leave, another player); the
deal of the day's results and streak on /stats."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime, timedelta

import pytest

from app import odds
from app.engine import Deal, Game, Move, Variant
from app.engine.solver import solve
from app.store import Database
from app.store.models import GameRecord
from app.web.core import utcday
from app.web.core.player import PlayerCookie
from app.web.services import starting
from tests.store.store_helpers import add_daily

from .helpers import HX

WIN_DEAL = 5


@pytest.fixture(scope="module")
def win_line() -> list[Move]:
    line = solve(Game(Deal.from_number(WIN_DEAL), "standard", 3)).moves
    assert line
    return list(line)


def lose_line(number: int = 1) -> list[Move]:
    game = Game(Deal.from_number(number), "standard", 1)
    while not game.is_over():
        legal = game.legal_moves
        game.play(Move.draw() if Move.draw() in legal else legal[0])
    assert not game.outcome().won
    return list(game.moves)


def create(client, **body) -> str:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def play(client, game_id: str, moves) -> dict:
    for move in moves:
        response = client.post(f"/api/games/{game_id}/moves", json=move.to_dict())
        assert response.status_code == 200, response.text
    return response.json()


def win(client, line) -> str:
    game_id = create(client, deal=WIN_DEAL)
    assert play(client, game_id, line)["status"] == "won"
    return game_id


def lose(client) -> str:
    game_id = create(client, deal=1, passes=1)
    assert play(client, game_id, lose_line())["status"] == "lost"
    return game_id


def figure(html: str, scope: str, key: str) -> str:
    block = html.split(f'data-figures="{scope}"', 1)[1].split("</dl>", 1)[0]
    match = re.search(rf'data-figure="{key}">([^<]*)', block)
    assert match, (scope, key)
    return match.group(1).strip()


def player_id(client, app) -> str:
    settings = app.state.settings
    return PlayerCookie(settings).read(client.cookies.get(settings.cookie_name))


def test_an_empty_statistics_page_says_so(client):
    html = client.get("/stats").text
    assert "No games yet" in html
    assert "6 rule sets, not played yet" in html  # folded in one line
    assert "NaN" not in html and "0%" not in html
    assert "Your finished games will be listed here" in html


def test_finishing_a_game_updates_the_page(client, win_line):
    game_id = win(client, win_line)
    html = client.get("/stats").text
    assert figure(html, "total", "played") == "1" and figure(html, "total", "won") == "1"
    assert figure(html, "standard-3", "win-rate") == "100%"
    assert figure(html, "standard-3", "fewest-moves") == str(len(win_line))
    assert figure(html, "standard-3", "average-cleared").startswith("28.0")
    assert figure(html, "standard-3", "current-streak") == "1 win"
    assert html.count('data-result="won"') == 1
    assert f'href="/games/{game_id}/replay"' in html
    assert f'href="/deal/{WIN_DEAL}?goal=standard&amp;passes=3"' in html
    lose(client)
    html = client.get("/stats").text
    assert figure(html, "total", "played") == "2" and figure(html, "total", "win-rate") == "50%"
    assert figure(html, "standard-1", "current-streak") == "1 loss"
    assert figure(html, "total", "current-streak") == "1 loss"
    rows = re.findall(r'<tr data-game="([\w-]+)"', html)
    assert rows[1] == game_id  # newest first


def test_the_same_finished_game_posted_twice_is_counted_once(client, win_line):
    game_id = create(client, deal=WIN_DEAL)
    play(client, game_id, win_line[:-1])
    last = win_line[-1]
    assert client.post(f"/api/games/{game_id}/moves", json=last.to_dict()).status_code == 200
    # A double click, a retry after a network error, a second tab: all too late.
    for _ in range(2):
        again = client.post(f"/api/games/{game_id}/moves", json=last.to_dict())
        assert again.status_code == 422 and "over" in again.json()["detail"]
    form = {"card": last.cards[-1].name} if last.op.value == "remove" else {"action": "draw"}
    board = client.post(f"/games/{game_id}/play", data=form, headers=HX)
    assert board.status_code == 200 and 'data-tone="error"' in board.text  # refused
    assert client.post(f"/api/games/{game_id}/undo").status_code == 422
    # Play again twice (a double click): one fresh game, and the win is still counted once.
    first = client.post(f"/games/{game_id}/restart", follow_redirects=False)
    second = client.post(f"/games/{game_id}/restart", follow_redirects=False)
    assert first.headers["location"] == second.headers["location"]
    html = client.get("/stats").text
    assert figure(html, "total", "played") == "1" and figure(html, "total", "won") == "1"
    assert client.get(f"/api/games/{game_id}").json()["status"] == "won"


def test_a_loss_is_final_no_undo_after_the_end(client):
    game_id = lose(client)
    refused = client.post(f"/api/games/{game_id}/undo")
    assert refused.status_code == 422 and "final" in refused.json()["detail"]
    page = client.get(f"/games/{game_id}").text
    assert re.search(r'data-action="undo"[^>]*disabled', page)
    html = client.get("/stats").text
    assert figure(html, "total", "played") == "1" and figure(html, "total", "won") == "0"


def test_leaving_a_game_with_moves_abandons_it_once(client):
    empty = create(client, deal=2)
    started = create(client, deal=3)  # leaves `empty`, which had no moves: nothing counts
    assert client.get(f"/api/games/{empty}").json()["status"] == "playing"
    play(client, started, [Move.draw()])
    asked = client.get("/deal/4?goal=wholedeck&passes=2", follow_redirects=False)
    assert asked.status_code == 200 and "data-confirm-abandon" in asked.text  # a GET asks
    assert client.get(f"/api/games/{started}").json()["status"] == "playing"
    response = client.post("/deal/4", data={"goal": "wholedeck", "passes": "2"},
                           follow_redirects=False)
    fresh = response.headers["location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{started}").json()
    assert state["status"] == "abandoned" and "abandoned" in state["reason"]
    # Reopening the link (same untouched deal) and restarting the fresh game change nothing.
    client.get("/deal/4?goal=wholedeck&passes=2")
    client.post(f"/games/{fresh}/restart")
    html = client.get("/stats").text
    assert figure(html, "total", "played") == "1"
    assert figure(html, "standard-3", "current-streak") == "1 game abandoned"  # no loss
    assert 'result-abandoned">Abandoned' in html
    # The abandoned game takes no more moves and no undo; its board says why.
    refused = client.post(f"/api/games/{started}/moves", json={"op": "draw"})
    assert refused.status_code == 422 and "abandoned" in refused.json()["detail"]
    assert client.post(f"/api/games/{started}/undo").status_code == 422
    board = client.get(f"/games/{started}").text
    assert 'data-banner="abandoned"' in board and 'data-status="abandoned"' in board


def test_restart_with_moves_abandons_and_counts(client):
    game_id = create(client, deal=3)
    play(client, game_id, [Move.draw(), Move.draw()])
    fresh = client.post(f"/games/{game_id}/restart", data={"confirm": "1"},
                        follow_redirects=False).headers["location"]
    again = client.post(f"/games/{game_id}/restart", follow_redirects=False).headers["location"]
    assert fresh == again
    html = client.get("/stats").text
    assert figure(html, "total", "played") == "1" and figure(html, "total", "won") == "0"


def test_another_players_games_never_appear(client, other_client, win_line):
    theirs = win(other_client, win_line)
    other_client.post("/stats/name", data={"name": "Bea"})
    html = client.get("/stats").text
    assert "No games yet" in html and theirs not in html and "Bea" not in html
    assert client.get("/stats/export.csv").text.count("\n") == 1  # the header only
    assert client.get("/stats/export.json").json()["games"] == []
    mine = lose(client)
    html = client.get("/stats").text
    assert mine in html and theirs not in html
    assert figure(html, "total", "won") == "0"
    # Resetting mine leaves theirs alone.
    client.post("/stats/reset", data={"confirm": "yes"})
    assert figure(other_client.get("/stats").text, "total", "played") == "1"


def test_history_is_paginated_newest_first(client, app):
    client.get("/stats")  # the first visit issues the player cookie
    pid = player_id(client, app)
    start = datetime(2026, 5, 1, tzinfo=UTC)
    database = Database(app.state.settings.database_url)
    with database.session() as session:
        for n in range(45):
            moment = start + timedelta(minutes=n)
            session.add(GameRecord(
                id=f"h{n:03d}", player_id=pid, deal_number=str(n + 1), goal="standard",
                passes=3, moves="draw", move_count=1, undo_count=0, status="lost", cleared=0,
                seconds=30, created_at=moment, updated_at=moment, finished_at=moment,
                seq=n + 1, streak=n + 1, streak_all=n + 1))
    database.dispose()
    first = client.get("/stats").text
    assert re.findall(r'<tr data-game="(h\d+)"', first)[:2] == ["h044", "h043"]
    assert 'aria-current="page">1<' in first and 'href="/stats?page=3#history"' in first
    third = client.get("/stats?page=3", headers={**HX, "HX-Target": "history"})
    assert third.text.lstrip().startswith('<section id="history"')
    oldest = [f"h{n:03d}" for n in range(4, -1, -1)]
    assert re.findall(r'<tr data-game="(h\d+)"', third.text) == oldest
    beyond = client.get("/stats?page=99").text  # past the end: the last page
    assert 'aria-current="page">3<' in beyond
    assert client.get("/stats?page=0").status_code == 400


def test_export_csv_and_json(client, win_line):
    game_id = win(client, win_line)
    lose(client)
    response = client.get("/stats/export.csv")
    assert response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [r["result"] for r in rows] == ["won", "lost"]
    assert rows[0]["id"] == game_id and rows[0]["deal"] == str(WIN_DEAL)
    assert rows[0]["cards_cleared"] == "28" and rows[0]["moves"] == str(len(win_line))
    assert rows[0]["move_list"].split() == [m.to_text() for m in win_line]
    data = client.get("/stats/export.json").json()
    assert [g["result"] for g in data["games"]] == ["won", "lost"]
    assert data["games"][1]["passes"] == 1 and data["games"][0]["replay"].endswith(
        f"/games/{game_id}/replay")


def test_reset_needs_a_real_confirmation(client, win_line):
    win(client, win_line)
    in_progress = create(client, deal=9)
    play(client, in_progress, [Move.draw()])
    confirm = client.get("/stats/reset")
    assert confirm.status_code == 200 and "delete my 1 game" in confirm.text
    assert 'name="confirm" value="yes"' in confirm.text
    unconfirmed = client.post("/stats/reset", follow_redirects=False)
    assert unconfirmed.status_code == 303 and unconfirmed.headers["location"] == "/stats/reset"
    assert figure(client.get("/stats").text, "total", "played") == "1"
    done = client.post("/stats/reset", data={"confirm": "yes"}, follow_redirects=False)
    assert done.headers["location"] == "/stats?reset=1"
    html = client.get(done.headers["location"]).text
    assert "1 game deleted" in html and "No games yet" in html
    # The game in progress stays, and counts once it ends.
    assert client.get(f"/api/games/{in_progress}").json()["status"] == "playing"


def test_display_name_is_escaped_everywhere(client, other_client, win_line):
    name = "<script>alert(1)</script>"
    assert client.post("/stats/name", data={"name": f"  {name} "},
                       follow_redirects=False).status_code == 303
    html = client.get("/stats").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and name not in html
    game_id = win(client, win_line)
    replay = other_client.get(f"/games/{game_id}/replay").text
    assert "played by <span" in replay and "&lt;script&gt;" in replay and name not in replay
    too_long = client.post("/stats/name", data={"name": "x" * 41})
    assert too_long.status_code == 400 and "at most 40" in too_long.text
    control = client.post("/stats/name", data={"name": "a\x00b"})
    assert control.status_code == 400
    client.post("/stats/name", data={"name": "   "})
    assert "Your statistics" in client.get("/stats").text


def test_replay_steps_through_a_finished_game(client, other_client, app, win_line):
    game_id = win(client, win_line)
    owner = player_id(client, app)
    # Anyone with the link may watch; the owner's id appears nowhere.
    page = other_client.get(f"/games/{game_id}/replay")
    assert page.status_code == 200 and owner not in page.text
    assert 'data-step="0"' in page.text and f'data-last="{len(win_line)}"' in page.text
    assert "played by an anonymous player" in page.text
    assert 'data-status="playing"' in page.text and "The deal, before move 1" in page.text
    assert "data-action=" not in page.text.split('id="board"', 1)[1].split("</section>")[0]
    step = other_client.get(f"/games/{game_id}/replay?step=3")
    assert 'data-step="3"' in step.text
    assert re.search(r'data-step-link="3" aria-current="step"', step.text)
    assert f'href="/games/{game_id}/replay?step=4"' in step.text
    end = other_client.get(f"/games/{game_id}/replay?step=9999")
    assert f'data-step="{len(win_line)}"' in end.text and 'data-status="won"' in end.text
    fragment = other_client.get(f"/games/{game_id}/replay?step=2", headers=HX)
    assert fragment.text.lstrip().startswith('<div id="replay-stage"')
    autoplay = other_client.get(f"/games/{game_id}/replay?step=2&play=1").text
    assert "<noscript><meta http-equiv=\"refresh\"" in autoplay and "step=3&amp;play=1" in autoplay
    assert other_client.get(f"/games/{game_id}/replay?step=-1").status_code == 400
    # From the board and the history, the replay is one click away.
    assert f'href="/games/{game_id}/replay"' in client.get(f"/games/{game_id}").text


def test_games_in_progress_have_no_replay(client, other_client):
    game_id = create(client, deal=3)
    play(client, game_id, [Move.draw()])
    for who in (client, other_client):
        response = who.get(f"/games/{game_id}/replay?step=1")
        assert response.status_code == 409 and "still being played" in response.text
        assert "data-step" not in response.text
    assert client.get("/games/nope/replay").status_code == 404


def test_a_replay_shows_an_abandoned_game_to_where_it_was_left(client):
    game_id = create(client, deal=3)
    play(client, game_id, [Move.draw(), Move.draw()])
    create(client, deal=4)
    page = client.get(f"/games/{game_id}/replay?step=2").text
    assert 'data-result="abandoned"' in page and 'data-last="2"' in page


def test_the_api_reports_abandoned_games_in_its_schema(client):
    schema = client.get("/openapi.json").json()
    status = schema["components"]["schemas"]["GameState"]["properties"]["status"]
    assert "abandoned" in str(status)


def test_the_stats_page_shows_the_daily_results_and_streak(client, app):
    html = client.get("/stats").text
    assert "data-daily-empty" in html
    assert 'href="/daily"' in html
    pid = player_id(client, app)
    today = utcday.today().date()  # the daily calendar's date
    database = Database(app.state.settings.database_url)
    try:
        with database.session() as session:
            add_daily(session, pid, today, "won", deal=4242)
            add_daily(session, pid, today - timedelta(days=1), "won", goal="wholedeck")
            add_daily(session, pid, today - timedelta(days=2), "lost", passes=1)
    finally:
        database.dispose()
    html = client.get("/stats").text
    block = html.split("data-daily", 1)[1].split("</section>", 1)[0]
    assert re.search(r'data-figure="daily-streak">2 days', block)
    assert re.search(r'data-figure="daily-longest">2 days', block)
    assert re.search(r'data-figure="daily-days-won">2<', block)
    assert block.count("data-daily-day=") == 3
    assert f'data-daily-day="{today.isoformat()}"' in block
    assert "#4242" in block and "result-won" in block and "result-lost" in block
    assert "Whole-deck goal, 3 passes" in block  # the rule set's name (app.web.core.names)


def lose_winnable(client) -> str:
    """Deal 2, one pass, can be won; drawing first throws the win away."""
    game_id = create(client, deal=2, passes=1)
    assert play(client, game_id, lose_line(2))["status"] == "lost"
    return game_id


def test_try_again_from_the_losing_move_is_a_game_not_counted(client, other_client):
    lost_id = lose_winnable(client)
    analysis = client.get(f"/games/{lost_id}/analysis").text
    match = re.search(r'name="before" value="(\d+)"', analysis)
    assert match and 'data-action="retry"' in analysis
    before = int(match.group(1))
    moved = client.post(f"/games/{lost_id}/retry", data={"before": str(before)},
                        follow_redirects=False)
    assert moved.status_code == 303, moved.text
    retry_id = moved.headers["location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{retry_id}").json()
    # The position before the losing move, the same deal and rules, not counted.
    assert state["status"] == "playing" and not state["counted"]
    assert state["moves"] == [m.to_dict() for m in lose_line(2)[:before - 1]]
    assert (state["deal"], state["goal"], state["passes"]) == (2, "standard", 1)
    assert "data-not-counted" in client.get(f"/games/{retry_id}").text
    # Played to its end, it stays out of the statistics: one game, one loss.
    play(client, retry_id, lose_line(2)[before - 1:])
    html = client.get("/stats").text
    assert figure(html, "total", "played") == "1"
    assert html.count("data-game=") == 1
    # An ended game only, and only its player's.
    assert other_client.post(f"/games/{lost_id}/retry", data={"before": "1"}).status_code == 403
    playing = create(client, deal=7)
    refused = client.post(f"/games/{playing}/retry", data={"before": "1"})
    assert refused.status_code == 409 and "Undo" in refused.text


def test_try_again_asks_before_abandoning_a_game_in_progress(client):
    lost_id = lose(client)
    other = create(client, deal=9)
    client.post(f"/api/games/{other}/moves", json={"op": "draw"})
    asked = client.post(f"/games/{lost_id}/retry", data={"before": "3"})
    assert asked.status_code == 200 and "data-confirm-abandon" in asked.text
    assert client.get(f"/api/games/{other}").json()["status"] == "playing"
    for bad in ("0", "x", ""):
        refused = client.post(f"/games/{lost_id}/retry", data={"before": bad})
        assert refused.status_code == 400 and "before" in refused.text
    done = client.post(f"/games/{lost_id}/retry", data={"before": "3", "confirm": "1"},
                       follow_redirects=False)
    assert done.status_code == 303
    assert client.get(f"/api/games/{other}").json()["status"] == "abandoned"


def test_a_won_deal_of_the_day_shows_the_result_and_plays_again_not_counted(client):
    today = starting.today().date()  # the daily calendar's date
    number = odds.daily_deal(today, Variant("standard", 3))
    line = solve(Game(Deal.from_number(number), "standard", 3)).moves
    # Begun as the board's first batch begins it: a pair is one move (a card posted alone
    # would only select it, on the days the line begins with a pair).
    started = client.post("/daily/play?goal=standard&passes=3",
                          headers={"Accept": "application/json"},
                          data={"moves": line[0].to_text(), "version": "0",
                                "input": "tabDailyWon:1"})
    assert started.status_code == 200, started.text
    daily_id = started.json()["id"]
    state = client.get(f"/api/games/{daily_id}").json()
    done = [Move.from_dict(m) for m in state["moves"]]
    game = Game.replay(Deal.from_number(number), "standard", 3, done)
    rest = solve(game).moves
    assert play(client, daily_id, rest)["status"] == "won"
    page = client.get("/daily?goal=standard&passes=3")
    assert page.status_code == 200 and "data-daily-won" in page.text
    assert f'/games/{daily_id}/replay' in page.text
    # Other rules are another deal of the day, not yet won.
    assert "data-daily-won" not in client.get("/daily?goal=wholedeck&passes=3").text
    again = client.post("/daily/again", data={"goal": "standard", "passes": "3"},
                        follow_redirects=False)
    assert again.status_code == 303
    again_state = client.get(again.headers["location"].replace("/games/", "/api/games/")).json()
    assert again_state["deal"] == number and again_state["daily"] is None
    assert not again_state["counted"]
    html = client.get("/stats").text
    assert figure(html, "total", "played") == "1"
