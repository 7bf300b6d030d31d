"""What a returning player expects, in Chromium: pause by button, by P and by
leaving the tab; a challenge from one browser to another and back."""

from __future__ import annotations

import re

from app.engine import Deal, Game
from app.engine.solver import solve

from .helpers import start_game


def settled(page) -> None:
    page.wait_for_selector('html[data-inputs="0"]', state="attached")
    page.wait_for_selector("#board:not([aria-busy])", state="attached")


def clock(page) -> str:
    return page.locator("[data-elapsed]").inner_text()


def test_pause_hides_the_cards_and_stops_the_clock_and_p_resumes(page):
    url = start_game(page, 42)
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-moves="1"]')
    settled(page)
    page.click('[data-action="pause"]')
    page.wait_for_selector("#board[data-paused]")
    assert page.locator("[data-paused-cover]").is_visible()
    assert not page.locator("#board .pyramid").is_visible()
    shown = clock(page)
    # Keys do nothing while paused, but P.
    page.keyboard.press("d")
    settled(page)  # no input was queued: the key did nothing
    assert page.locator("#board").get_attribute("data-moves") == "1"
    # The server has it too: a reload shows the game paused, at the time the page stopped the
    # clock or the one the server did when the pause reached it (a second or two later on a
    # busy machine or a slow network), give or take the second being drawn.
    page.goto(url)
    page.wait_for_selector("#board[data-paused]")
    game = re.search(r"/games/([\w-]+)", url).group(1)
    held = page.request.get(f"/api/games/{game}").json()["elapsed_seconds"]

    def seconds(text: str) -> int:
        minutes, rest = text.split(":")
        return int(minutes) * 60 + int(rest)

    assert 0 <= held - seconds(shown) <= 5, (shown, held)
    assert seconds(shown) - 1 <= seconds(clock(page)) <= held + 1, (shown, clock(page), held)
    page.keyboard.press("p")
    page.wait_for_selector("#board:not([data-paused])")
    assert page.locator("#board .pyramid").is_visible()
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-moves="2"]')


def test_leaving_the_tab_pauses(page):
    start_game(page, 43)
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-moves="1"]')
    settled(page)
    # What the browser does when the tab is hidden.
    page.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    page.wait_for_selector("#board[data-paused]")
    game = re.search(r"/games/([\w-]+)", page.url).group(1)
    page.wait_for_function(
        """async (id) => {
            const html = await (await fetch('/games/' + id)).text();
            return / data-paused>/.test(html);
        }""", arg=game)


def test_a_challenge_round_trip_between_two_browsers(browser, server):
    line = solve(Game(Deal.from_number(5), "standard", 3)).moves
    alice = browser.new_context(base_url=server.url).new_page()
    bob = browser.new_context(base_url=server.url).new_page()
    try:
        alice.goto("/stats")
        alice.fill("#display-name", "Alice")
        alice.click('[data-action="save-name"]')
        alice.wait_for_selector("[data-display-name]")
        start_game(alice, 5)
        for move in line:
            alice.request.post(
                re.sub(r"/games/", "/api/games/", alice.url) + "/moves", data=move.to_dict())
        alice.reload()
        link = alice.locator("a[data-challenge]").get_attribute("href")
        assert "challenge=" in link
        bob.goto(link)
        said = bob.locator("[data-challenge-from]").inner_text()
        assert "Alice won this deal in" in said and f"{len(line)} moves" in said
        # Bob plays the same deal with his mouse: the first move starts his game.
        for move in line:
            if move.op.value in ("draw", "recycle"):
                bob.keyboard.press("d")  # D draws, or recycles an empty stock
            else:
                for card in move.cards:
                    bob.click(f'#board button[data-card="{card.name}"]')
            settled(bob)
        bob.wait_for_selector('[data-banner="won"]')
        bob.wait_for_selector("[data-challenge-result]")
        assert "Alice" in bob.locator("[data-challenge-result]").inner_text()
        alice.reload()
        alice.click("[data-banner-more] > summary")  # her game's details: the answers
        alice.wait_for_selector("[data-challenge-answers]")
        assert "won in" in alice.locator("[data-challenge-answers]").inner_text()
    finally:
        alice.context.close()
        bob.context.close()
