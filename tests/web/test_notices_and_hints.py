"""What the board tells the player (``app.web.core.notice``) and its hints: without JavaScript a
notice rides a signed cookie (POST -> 303 -> the message in the live region, once, on its own
board only); hints name a move, highlight it and change nothing; the board gives nothing away."""

from __future__ import annotations

import re

from app.engine import Deal, Game, Move
from app.engine.solver import Hint, hint
from app.web.views.view import describe_hint

from .helpers import HX, game_for, start_deal


def live_region(html: str) -> str:
    return html.split('id="message"', 1)[1].split("</p>", 1)[0]


def post_without_js(client, url: str, data: dict | None = None) -> str:
    """A plain form post: it must redirect to the board; returns the board shown after it."""
    response = client.post(url, data=data or {}, follow_redirects=False)
    assert response.status_code == 303, (url, data, response.text[:300])
    location = response.headers["location"]
    assert location.startswith("/games/") and "/play" not in location
    return client.get(location).text


def test_every_move_result_is_announced_without_javascript(client):
    game_id = start_deal(client, 3)
    assert "Removed K♠." in live_region(post_without_js(client, f"/games/{game_id}/play",
                                                        {"card": "KS"}))
    assert "Drew a card" in live_region(post_without_js(client, f"/games/{game_id}/play",
                                                        {"action": "draw"}))
    selected = live_region(post_without_js(client, f"/games/{game_id}/play", {"card": "7C"}))
    assert "7♣ selected" in selected
    assert "Took back: draw." in live_region(post_without_js(client, f"/games/{game_id}/undo"))
    # Shown once: a reload of the board announces nothing again.
    assert "Took back" not in live_region(client.get(f"/games/{game_id}").text)


def test_refusals_without_javascript_redirect_and_explain(client):
    # Deal 1: A♠ and 4♣ are both free and make 5.
    game_id = start_deal(client, 1)
    html = post_without_js(client, f"/games/{game_id}/play", {"card": "4C", "selected": "AS"})
    assert re.search(r"A♠ and 4♣ make 5, not 13\.", live_region(html))
    assert "data-refused" in live_region(html)
    assert 'data-tone="error"' in live_region(html)
    for data in ({"card": "ZZ"}, {"action": "cheat"}, {}):
        assert 'data-tone="error"' in live_region(
            post_without_js(client, f"/games/{game_id}/play", data))
    assert "no move to undo" in live_region(post_without_js(client, f"/games/{game_id}/undo"))
    assert game_for(client, game_id).moves == []


def test_a_flash_belongs_to_its_board_and_cannot_be_forged(client):
    first = start_deal(client, 1)
    response = client.post(f"/games/{first}/play", data={"card": "ZZ"}, follow_redirects=False)
    token = response.cookies.get("pyramid_flash")
    assert token
    client.cookies.delete("pyramid_flash")  # never shown: the board below is another one
    other = start_deal(client, 2)
    client.cookies.set("pyramid_flash", token, path=f"/games/{other}")
    assert "not a card" not in live_region(client.get(f"/games/{other}").text)
    client.cookies.delete("pyramid_flash")
    client.cookies.set("pyramid_flash", token[:-3] + "abc", path=f"/games/{first}")
    assert "not a card" not in live_region(client.get(f"/games/{first}").text)


def test_a_hidden_stock_card_is_not_located(client):
    game_id = start_deal(client, 3)
    game = game_for(client, game_id)
    hidden = game.stock[-2] if game.stock[-1] == game.stock_top else game.stock[1]
    assert hidden != game.stock_top
    response = client.post(f"/games/{game_id}/play", data={"card": hidden.name}, headers=HX)
    message = live_region(response.text)
    assert "is not a free card: only the top cards of the stock and the waste" in message
    assert "stock." not in message.split("only the top")[0]
    # After a draw, a card under the waste's top says the same.
    client.post(f"/games/{game_id}/play", data={"action": "draw"})
    client.post(f"/games/{game_id}/play", data={"action": "draw"})
    game = game_for(client, game_id)
    under = next(card for card in game.waste if card != game.waste_top)
    response = client.post(f"/games/{game_id}/play", data={"card": under.name}, headers=HX)
    assert "is not a free card" in live_region(response.text)


def test_a_hint_names_a_move_highlights_it_and_changes_nothing(client):
    game_id = start_deal(client, 1)
    before = client.get(f"/api/games/{game_id}").json()
    response = client.post(f"/games/{game_id}/hint", headers=HX)
    assert response.status_code == 200
    message = live_region(response.text)
    # The move is the solver's: the first of its winning line (a pair, on deal 1).
    move = hint(Game(Deal.from_number(1))).move
    first, second = move.cards
    said = f"Hint: remove {first.symbol} and {second.symbol}. This deal can still be won."
    assert said in message
    hinted = set(re.findall(r'class="card [^"]*\bhinted\b[^"]*"\s+data-card="(\w\w)"',
                            response.text))
    assert hinted == {first.name, second.name}
    after = client.get(f"/api/games/{game_id}").json()
    assert after["moves"] == before["moves"] == []
    assert "No games yet" in client.get("/stats").text  # a hint is not a move
    # Without JavaScript: the redirect brings the same message and highlight.
    html = post_without_js(client, f"/games/{game_id}/hint")
    assert "This deal can still be won." in live_region(html)
    assert re.search(rf'class="card [^"]*\bhinted\b[^"]*"\s+data-card="{first.name}"', html)
    # The highlight lasts one showing only.
    assert " hinted" not in client.get(f"/games/{game_id}").text


def test_a_hint_to_draw_highlights_the_draw_control(client):
    game_id = start_deal(client, 3)
    client.post(f"/games/{game_id}/play", data={"card": "KS"})
    game = game_for(client, game_id)
    response = client.post(f"/games/{game_id}/hint", headers=HX)
    from app.engine.solver import hint

    expected = hint(game).move
    if expected == Move.draw():
        assert re.search(r'class="btn pile-action hinted" data-action="draw"', response.text)
        assert "Hint: draw a card from the stock." in live_region(response.text)
    else:
        assert "Hint: remove" in live_region(response.text)


def test_hints_are_for_the_player_of_a_game_in_progress(client, other_client):
    game_id = start_deal(client, 8, passes=1)
    assert other_client.post(f"/games/{game_id}/hint").status_code == 403
    for _ in range(24):
        client.post(f"/games/{game_id}/play", data={"action": "draw"})
    response = client.post(f"/games/{game_id}/hint", headers=HX)
    assert "The game is over" in live_region(response.text)
    assert re.search(r'data-action="hint"[^>]*disabled', response.text)


def test_hint_messages_say_what_the_solver_found():
    move = Move.remove("5H", "8C")
    assert describe_hint(Hint(move, True, "")) == (
        "Hint: remove 5♥ and 8♣. This deal can still be won.")
    assert describe_hint(Hint(Move.draw(), False, "")).startswith(
        "This deal can no longer be won. Hint: draw a card from the stock")
    assert "could not decide" in describe_hint(Hint(Move.recycle(), None, ""))
    assert describe_hint(Hint(None, None, "The game is over.")) == "The game is over."


def test_the_board_offers_hint_recycle_and_a_closable_banner(client):
    game_id = start_deal(client, 8, passes=2)
    html = client.get(f"/games/{game_id}").text
    assert re.search(r'<button type="submit" class="btn" id="action-hint" data-action="hint" '
                     r'aria-keyshortcuts="H"', html)
    assert "<kbd>H</kbd> asks for a hint" in html
    assert re.search(r'data-copy-link[^>]*\shidden', html)  # shown by JavaScript only
    for _ in range(24):
        client.post(f"/games/{game_id}/play", data={"action": "draw"})
    html = client.get(f"/games/{game_id}").text
    # The empty stock is itself the Recycle button.
    assert re.search(r'<button type="submit" name="action" value="recycle" id="action-recycle"\s+'
                     r'class="empty-pile recycle"\s+data-action="recycle"', html)
    assert "aria-hidden" not in html.split('class="empty-pile recycle"', 1)[1].split(">", 1)[0]
    client.post(f"/games/{game_id}/play", data={"action": "recycle"})
    for _ in range(24):
        client.post(f"/games/{game_id}/play", data={"action": "draw"})
    html = client.get(f"/games/{game_id}").text
    assert 'data-status="lost"' in html
    assert 'data-action="recycle"' not in html and "No passes left" in html
    # The game-over banner is a <details> that its summary closes, without JavaScript.
    assert re.search(r'<details class="banner lost" data-banner="lost" open>\s*'
                     r'<summary class="banner-toggle"', html)
    assert "Show board" in html


def test_game_for_deal_8_is_lost_by_drawing():
    game = Game(Deal.from_number(8), "standard", 1)
    for _ in range(24):
        game.play(Move.draw())
    assert game.outcome() is not None and not game.outcome().won
