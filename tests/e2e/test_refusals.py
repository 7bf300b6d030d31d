"""A budget's refusal on the board: a hint over the player's budget is
answered 429 with a sentence in the player's language (app/web/core/budget.py); the board shows it
where it shows its notices and plays on. The same for a fragment htmx asks for: htmx swaps no
4xx, and static/js/pyramid.js puts the refusal's sentence in the board's message line."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import Server
from .helpers import start_game

REFUSED = "Too many requests to the solver from here: wait a moment, then ask again."


@pytest.fixture(scope="module")
def stingy_server(tmp_path_factory, chromium, _migrated_sqlite):
    """A server whose players have one search, then one a minute."""
    database = tmp_path_factory.mktemp("refusals") / "pyramid.db"
    server = Server(f"sqlite:///{database}")
    server.env.update({"SEARCH_BURST": "0", "SEARCHES_PER_MINUTE": "1"})
    server.migrate(_migrated_sqlite)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def page(browser, stingy_server):
    context = browser.new_context(viewport={"width": 1280, "height": 860},
                                  reduced_motion="reduce", base_url=stingy_server.url)
    pg = context.new_page()
    pg.set_default_timeout(10_000)
    yield pg
    context.close()


def test_a_refused_hint_says_why_and_the_board_plays_on(page):
    page.add_init_script("delete window.Worker;")  # no solver on the device: the server's hint
    start_game(page, 617)
    message = page.locator("#message")
    page.keyboard.press("h")  # the one search this player has
    expect(page.locator("#board .hinted")).not_to_have_count(0)
    page.keyboard.press("h")
    expect(message.locator("[data-refused]")).to_have_text(REFUSED)
    # Nothing else changed, and the board still plays.
    assert page.get_attribute("#board", "data-moves") == "0"
    page.keyboard.press("d")
    expect(page.locator("#board")).to_have_attribute("data-moves", "1")

    # A fragment htmx asks for (a game's analysis, a search too) is refused the same way:
    # the sentence in the message line, the element that asked left as it was.
    game_id = re.search(r"/games/([\w-]+)", page.url).group(1)
    page.evaluate("""id => {
        const spot = document.createElement("div");
        spot.id = "asked"; spot.textContent = "asking";
        document.querySelector("main").append(spot);
        document.getElementById("message").replaceChildren();
        htmx.ajax("GET", `/games/${id}/analysis`, {target: "#asked", swap: "outerHTML"});
    }""", game_id)
    expect(message.locator("[data-refused]")).to_have_text(REFUSED)
    expect(page.locator("#asked")).to_have_text("asking")
