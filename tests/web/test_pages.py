"""The HTML pages: home, deal links, the board, moves by form and by HTMX, rules, statistics."""

from __future__ import annotations

import re
from html import unescape

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.engine import Card, Move
from app.store.models import GameRecord, Player

from .helpers import HX, bad_pair, covered_card, game_for, start_deal

# Deal 3 (standard, 3 passes): KS is free at the start, 7C and 6D make 13 after a draw.


def test_home_page_has_the_new_game_form_and_links(client):
    page = client.get("/")
    assert page.status_code == 200
    html = page.text
    assert '<form method="post" action="/games"' in html
    assert 'name="goal" value="standard"' in html and 'name="goal" value="wholedeck"' in html
    assert all(f'name="passes" value="{n}"' in html for n in (1, 2, 3))
    assert 'name="deal"' in html
    assert 'href="/rules"' in html and 'href="/stats"' in html
    assert "data-continue" not in html  # nothing to continue yet


def test_home_links_to_the_game_in_progress(client):
    game_id = start_deal(client, 3)
    html = client.get("/").text
    assert f'href="/games/{game_id}"' in html
    assert "Continue your game" in html


def test_new_game_form_with_a_deal_number(client):
    response = client.post("/games", data={"goal": "wholedeck", "passes": "2", "deal": "1,234"},
                           follow_redirects=False)
    assert response.status_code == 303
    board = client.get(response.headers["location"]).text
    assert 'data-deal="1234"' in board
    assert 'data-goal="wholedeck"' in board and 'data-passes="2"' in board


def test_new_game_form_without_a_deal_number_deals_at_random(client):
    response = client.post("/games", data={"goal": "standard", "passes": "3", "deal": ""})
    assert response.status_code == 200
    deal = re.search(r'data-deal="(\d+)"', response.text)
    assert deal and 1 <= int(deal.group(1)) <= 1_000_000_000


def test_new_game_form_rejects_bad_input_and_keeps_what_was_typed(client):
    for data, words in [
        ({"goal": "standard", "passes": "3", "deal": "forty-two"}, "not a deal number"),
        ({"goal": "standard", "passes": "3", "deal": "0"}, "out of range"),
        ({"goal": "easy", "passes": "3", "deal": "7"}, "goal must be"),
        ({"goal": "standard", "passes": "4", "deal": "7"},
         "passes must be a whole number from 1 to 3"),
    ]:
        response = client.post("/games", data=data)
        assert response.status_code == 400, data
        assert words in response.text
        assert 'role="alert"' in response.text
        assert f'value="{data["deal"]}"' in response.text  # nothing typed is lost


def test_deal_link_shows_the_deal_with_its_rules_and_stores_nothing(client, app):
    response = client.get("/deal/42?goal=wholedeck&passes=1", follow_redirects=False)
    assert response.status_code == 200
    html = response.text
    assert 'data-deal="42"' in html and 'data-goal="wholedeck"' in html
    assert 'data-passes="1"' in html and 'data-status="playing"' in html
    assert 'data-play="/deal/42/play?goal=wholedeck&amp;passes=1"' in html
    assert games_stored(app) == 0


def test_a_deal_pages_first_input_starts_the_game(client, other_client, app):
    client.get("/deal/42?goal=wholedeck&passes=1")
    answer = client.post("/deal/42/play?goal=wholedeck&passes=1",
                         data={"moves": "draw", "version": "0", "input": "tab0000000:1"},
                         headers={"HX-Request": "true"})
    assert answer.status_code == 200
    path = answer.headers["HX-Replace-Url"]
    game_id = path.rsplit("/", 1)[1]
    state = client.get(f"/api/games/{game_id}").json()
    assert (state["deal"], state["goal"], state["passes"]) == (42, "wholedeck", 1)
    assert state["moves"] == [{"op": "draw"}] and games_stored(app) == 1
    assert f'data-game="{game_id}"' in answer.text
    # With that game in progress, another deal page's first input goes to the question first.
    asked = client.post("/deal/43/play", data={"action": "draw"}, follow_redirects=False)
    assert asked.status_code == 303 and asked.headers["location"].startswith("/deal/43")
    assert "data-confirm-abandon" in client.get(asked.headers["location"]).text
    # Without JavaScript: the first form post starts it, and the redirect goes to the game.
    plain = other_client.post("/deal/43/play", data={"action": "draw"}, follow_redirects=False)
    assert plain.status_code == 303 and plain.headers["location"].startswith("/games/")
    assert games_stored(app) == 2


def test_cookie_less_visits_to_deal_links_leave_no_row(app):
    """Link previews, crawlers and prefetching open links without cookies, again and again."""
    with TestClient(app) as anonymous:
        for number in range(1, 41):
            assert anonymous.get(f"/deal/{number}").status_code == 200
            anonymous.cookies.clear()
            assert anonymous.get("/daily").status_code == 200
            anonymous.cookies.clear()
    assert games_stored(app) == 0 and players_stored(app) == 0


def test_deal_link_defaults_to_standard_with_three_passes(client):
    html = client.get("/deal/42").text
    assert 'data-goal="standard"' in html and 'data-passes="3"' in html


def test_opening_a_deal_link_twice_does_not_pile_up_empty_games(client):
    assert start_deal(client, 8) == start_deal(client, 8)
    untouched = start_deal(client, 10)
    again = client.get("/deal/10", follow_redirects=False)  # shows the untouched game
    assert again.status_code == 303 and again.headers["location"] == f"/games/{untouched}"
    first = start_deal(client, 9)
    client.post(f"/games/{first}/play", data={"action": "draw"})
    asked = client.get("/deal/9", follow_redirects=False)  # a game with moves: ask first
    assert asked.status_code == 200 and "data-confirm-abandon" in asked.text
    started = client.post("/deal/9", data={"goal": "standard", "passes": "3"},
                          follow_redirects=False)
    assert started.status_code == 303
    assert started.headers["location"] != f"/games/{first}"  # a game with moves is not reused


def test_bad_deal_links_get_a_friendly_page(client):
    for url, status in [("/deal/abc", 404), ("/deal/0", 404), ("/deal/" + "9" * 21, 404),
                        ("/deal/5?goal=easy", 400), ("/deal/5?passes=4", 400),
                        ("/deal/5?passes=two", 400)]:
        response = client.get(url)
        assert response.status_code == status, url
        assert "text/html" in response.headers["content-type"]
        assert 'class="panel error"' in response.text
        assert 'href="/"' in response.text


def test_board_shows_every_hook(client):
    game_id = start_deal(client, 3)
    html = client.get(f"/games/{game_id}").text
    # The free cards (the bottom row and the stock's top card) are buttons with data-card and a
    # name; a covered card is drawn as a card, no button, named with what covers it.
    game = game_for(client, game_id)
    cards = re.findall(r'<button type="submit" name="card" value="(\w\w)"', html)
    assert sorted(cards) == sorted(card.name for card in game.free_cards())
    assert 'data-card="KS" aria-label="King of spades, free"' in html
    covered = covered_card(game)
    assert re.search(rf'<span class="card [^"]*covered[^"]*" id="card-{covered.name}" '
                     rf'data-card="{covered.name}" role="img"\s+aria-label="[^"]*, covered by ',
                     html)
    assert not re.search(r'data-card="KS"[^>]*\sdisabled', html)
    for action in ("draw", "undo", "new", "restart"):
        assert f'data-action="{action}"' in html
    link = re.search(r'<a data-deal-link href="([^"]+)"', html)
    assert link and unescape(link.group(1)) == "http://testserver/deal/3?goal=standard&passes=3"
    assert 'aria-live="polite"' in html
    assert re.search(r'data-counter="pass">1 of 3<', html)
    assert re.search(r'data-count="stock">24<', html)
    assert "htmx-2.0.11.min.js" in html


def test_unknown_game_is_a_friendly_404(client):
    response = client.get("/games/nope")
    assert response.status_code == 404
    assert "No such game" in response.text


def test_a_king_is_removed_with_one_click(client):
    game_id = start_deal(client, 3)
    response = client.post(f"/games/{game_id}/play", data={"card": "KS"}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == f"/games/{game_id}"
    assert game_for(client, game_id).moves == [Move.remove("KS")]


def test_without_javascript_the_first_card_is_selected_through_the_url(client):
    game_id = start_deal(client, 3)
    client.post(f"/games/{game_id}/play", data={"action": "draw"})
    response = client.post(f"/games/{game_id}/play", data={"card": "7C"}, follow_redirects=False)
    assert response.headers["location"] == f"/games/{game_id}?selected=7C"
    board = client.get(response.headers["location"]).text
    assert re.search(r'data-card="7C"[^>]*aria-pressed="true"', board)
    assert '<input type="hidden" name="selected" value="7C">' in board
    # The second card sends both: 7 + 6 = 13.
    response = client.post(f"/games/{game_id}/play", data={"card": "6D", "selected": "7C"},
                           follow_redirects=False)
    assert response.status_code == 303
    assert game_for(client, game_id).moves[-1] == Move.remove("6D", "7C")


def test_clicking_the_selected_card_again_clears_the_selection(client):
    game_id = start_deal(client, 3)
    response = client.post(f"/games/{game_id}/play", data={"card": "AD", "selected": "AD"},
                           headers=HX)
    assert '<input type="hidden" name="selected" value="">' in response.text
    assert "no longer selected" in response.text
    assert game_for(client, game_id).moves == []


def test_an_illegal_pair_says_why_and_changes_nothing(client):
    game_id = start_deal(client, 3)
    a, b = bad_pair(game_for(client, game_id))
    first, second = Move.remove(a, b).cards  # the engine's words, in the engine's order
    expected = f"{first.symbol} and {second.symbol} make {a.rank + b.rank}, not 13."
    response = client.post(f"/games/{game_id}/play", data={"card": b.name, "selected": a.name},
                           headers=HX)
    assert response.status_code == 200  # a refusal is a message on the board, not an error
    assert 'data-tone="error" data-refused' in response.text
    assert expected in response.text
    for card in (a, b):  # the refused cards shake
        assert re.search(rf'id="card-{card.name}"\s+class="[^"]*\brefused\b', response.text)
    assert '<input type="hidden" name="selected" value="">' in response.text
    assert game_for(client, game_id).moves == []
    # Without JavaScript: POST -> 303 back to the board, the message flashed into the live
    # region once (a reload neither re-posts nor repeats it).
    refused = client.post(f"/games/{game_id}/play", data={"card": b.name, "selected": a.name},
                          follow_redirects=False)
    assert refused.status_code == 303 and refused.headers["location"] == f"/games/{game_id}"
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200 and "<html" in page.text
    live = page.text.split('id="message"', 1)[1].split("</p>", 1)[0]
    assert "not 13" in live and 'data-tone="error"' in live
    page = client.get(f"/games/{game_id}").text
    shown = re.sub(r'<script type="application/json" id="words">.*?</script>', "", page, flags=re.S)
    assert "not 13" not in shown  # (the page's script sentences hold the words, not the board)


def test_a_covered_card_cannot_be_selected(client):
    game_id = start_deal(client, 3)
    covered = covered_card(game_for(client, game_id))
    response = client.post(f"/games/{game_id}/play", data={"card": covered.name}, headers=HX)
    assert response.status_code == 200 and 'data-tone="error"' in response.text
    assert "covered" in response.text
    assert game_for(client, game_id).moves == []


def test_bad_card_names_and_actions_are_refused(client):
    game_id = start_deal(client, 3)
    for data in ({"card": "ZZ"}, {"card": "KS", "selected": "1X"}, {"action": "cheat"}, {}):
        response = client.post(f"/games/{game_id}/play", data=data, headers=HX)
        assert response.status_code == 200, data
        assert 'id="message"' in response.text and 'data-tone="error"' in response.text
        plain = client.post(f"/games/{game_id}/play", data=data, follow_redirects=False)
        assert plain.status_code == 303, data
    too_long = client.post(f"/games/{game_id}/play", data={"card": "KSKS"})
    assert too_long.status_code == 400 and 'class="panel error"' in too_long.text
    assert game_for(client, game_id).moves == []


def test_an_htmx_move_returns_only_the_board_and_out_of_band_updates(client):
    game_id = start_deal(client, 3)
    response = client.post(f"/games/{game_id}/play", data={"card": "KS"}, headers=HX)
    assert response.status_code == 200
    html = response.text
    assert "<html" not in html and "<header" not in html
    assert html.lstrip().startswith('<section id="board"')
    assert '<dl id="counters" class="counters" hx-swap-oob="true">' in html
    assert ('id="message" class="message" role="status" aria-live="polite" '
            'hx-swap-oob="innerHTML"') in html
    assert "Removed K♠." in html
    assert 'data-counter="moves">1<' in html
    # The removed King fades out on the new board itself: nothing waits for an animation.
    assert 'data-leaving="KS"' in html and "HX-Trigger" not in response.headers
    assert not re.search(r'<button[^>]*data-card="KS"', html)  # no control any more...
    assert re.search(r'class="card black discarded" data-card="KS"', html)  # ...removed


def test_draw_and_recycle(client):
    game_id = start_deal(client, 3, passes=2)
    for _ in range(24):
        assert client.post(f"/games/{game_id}/play", data={"action": "draw"},
                           headers=HX).status_code == 200
    html = client.get(f"/games/{game_id}").text
    assert 'data-action="recycle"' in html and 'data-action="draw"' not in html
    response = client.post(f"/games/{game_id}/play", data={"action": "recycle"}, headers=HX)
    assert "next pass" in response.text
    assert 'data-counter="pass">2 of 2<' in response.text
    # A second recycle is not allowed with 2 passes: the engine's reason comes back.
    for _ in range(24):
        client.post(f"/games/{game_id}/play", data={"action": "draw"}, headers=HX)
    refused = client.post(f"/games/{game_id}/play", data={"action": "recycle"}, headers=HX)
    game = game_for(client, game_id)
    if game.outcome() is None:
        assert refused.status_code == 200 and "No passes left" in refused.text
    else:
        assert refused.status_code == 200 and "over" in refused.text
    assert 'data-tone="error"' in refused.text


def test_undo_by_htmx_and_by_form(client):
    game_id = start_deal(client, 3)
    client.post(f"/games/{game_id}/play", data={"card": "KS"})
    client.post(f"/games/{game_id}/play", data={"action": "draw"})
    response = client.post(f"/games/{game_id}/undo", headers=HX)
    assert "Took back: draw." in response.text
    assert game_for(client, game_id).moves == [Move.remove("KS")]
    response = client.post(f"/games/{game_id}/undo", follow_redirects=False)
    assert response.status_code == 303
    assert game_for(client, game_id).moves == []
    nothing = client.post(f"/games/{game_id}/undo", headers=HX)
    assert nothing.status_code == 200 and "no move to undo" in nothing.text
    plain = client.post(f"/games/{game_id}/undo")  # without JavaScript: redirect + message
    assert plain.url.path == f"/games/{game_id}" and plain.history[0].status_code == 303
    assert "no move to undo" in plain.text


def test_restart_starts_the_same_deal_afresh(client):
    game_id = start_deal(client, 3, goal="wholedeck", passes=1)
    client.post(f"/games/{game_id}/play", data={"card": "KS"})
    asked = client.post(f"/games/{game_id}/restart", follow_redirects=False)
    assert asked.status_code == 200 and "It counts as a loss" in asked.text  # ask first
    assert game_for(client, game_id).moves  # nothing abandoned yet
    response = client.post(f"/games/{game_id}/restart", data={"confirm": "1"},
                           follow_redirects=False)
    assert response.status_code == 303
    new_id = response.headers["location"].rsplit("/", 1)[1]
    assert new_id != game_id
    state = client.get(f"/api/games/{new_id}").json()
    assert (state["deal"], state["goal"], state["passes"], state["moves"]) == (
        3, "wholedeck", 1, [])
    assert client.get("/").text.count("data-continue") == 1


def test_new_game_button_keeps_the_rules(client):
    game_id = start_deal(client, 3, goal="wholedeck", passes=2)
    html = client.get(f"/games/{game_id}").text
    assert '<input type="hidden" name="goal" value="wholedeck">' in html
    response = client.post("/games", data={"goal": "wholedeck", "passes": "2"})
    assert 'data-goal="wholedeck"' in response.text and 'data-passes="2"' in response.text


def test_another_browser_can_look_but_not_move(client, other_client):
    game_id = start_deal(client, 3)
    html = other_client.get(f"/games/{game_id}").text
    assert "data-spectator" in html
    assert not re.search(r'data-card="KS"[^>]*aria-pressed', html)  # not playable
    assert re.search(r'data-card="KS"[^>]*\sdisabled', html)
    for url, data in [(f"/games/{game_id}/play", {"card": "KS"}),
                      (f"/games/{game_id}/play", {"action": "draw"}),
                      (f"/games/{game_id}/undo", {}), (f"/games/{game_id}/restart", {})]:
        response = other_client.post(url, data=data)
        assert response.status_code == 403, url
        assert "Not your game" in response.text
    assert game_for(client, game_id).moves == []
    # The same deal link gives the other browser its own game.
    assert start_deal(other_client, 3) != game_id


def test_a_won_game_shows_the_banner(client):
    from app.engine import Deal, Game
    from app.engine.solver import solve

    game_id = start_deal(client, 3)
    line = solve(Game(Deal.from_number(3), "standard", 3)).moves
    for move in line:
        if move.op.value == "remove":
            data = {"card": move.cards[-1].name}
            if len(move.cards) == 2:
                data["selected"] = move.cards[0].name
        else:
            data = {"action": move.op.value}
        assert client.post(f"/games/{game_id}/play", data=data,
                           follow_redirects=False).status_code == 303, move
    html = client.get(f"/games/{game_id}").text
    assert 'data-status="won"' in html
    assert 'data-banner="won"' in html and "You won!" in html
    assert "The pyramid is cleared." in html
    assert f"{len(line)} moves" in html
    assert "Play this deal again" in html and "New game" in html
    assert re.search(r'data-action="undo"[^>]*disabled', html)
    refused = client.post(f"/games/{game_id}/play", data={"action": "draw"}, headers=HX)
    assert refused.status_code == 200 and "The game is over" in refused.text
    stats = client.get("/stats").text
    variant = stats.split('data-figures="standard-3"', 1)[1].split("</dl>", 1)[0]
    assert re.search(r'data-figure="played">1<', variant)
    assert re.search(r'data-figure="won">1<', variant)


def test_rules_page_renders_the_projects_rules(client):
    response = client.get("/rules")
    assert response.status_code == 200
    assert "<h1>How to play Pyramid</h1>" in response.text
    assert "<table>" in response.text and "What is Whole deck?" in response.text
    assert "no card anywhere in the stock or the waste (at any depth" in response.text


def test_stats_page_without_games(client):
    response = client.get("/stats")
    assert response.status_code == 200 and "No games yet" in response.text


def test_unknown_page_is_friendly(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert 'class="panel error"' in response.text


def test_static_files_are_served(client):
    htmx = client.get("/static/vendor/htmx-2.0.11.min.js")
    assert htmx.status_code == 200 and "htmx" in htmx.text[:200]
    assert client.get("/static/css/pyramid.css").status_code == 200
    assert client.get("/static/js/pyramid.js").status_code == 200


def test_card_symbols_in_messages():
    from app.web.views.view import with_symbols

    assert with_symbols("7H is covered by TD and KS.") == "7♥ is covered by 10♦ and K♠."
    assert with_symbols("5C and 7H make 12, not 13.") == "5♣ and 7♥ make 12, not 13."
    assert Card.parse("QH").long_name == "Queen of hearts"


def test_home_page_shows_the_solvers_odds_from_the_committed_results(client):
    import json

    from app.settings import PROJECT_DIR
    rows = json.loads((PROJECT_DIR / "app" / "data" / "odds.json").read_text())
    whole_one_pass = next(r for r in rows if r["goal"] == "wholedeck" and r["passes"] == 1)
    html = client.get("/").text
    assert "How often can a deal be won?" in html
    assert f"{100 * whole_one_pass['wins'] / whole_one_pass['deals']:.1f}%" in html


def games_stored(app) -> int:
    with app.state.db.sessions() as session:
        return session.scalar(select(func.count()).select_from(GameRecord))


def players_stored(app) -> int:
    with app.state.db.sessions() as session:
        return session.scalar(select(func.count()).select_from(Player))
