"""Hints, the closable game-over banner, the board without JavaScript, the page fitting a
desktop screen, and screenshots of each (look at them: tests/artifacts/)."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from playwright.sync_api import expect

from .test_board import open_deal, wait_for_moves, wait_for_server_banner

pytestmark = pytest.mark.browser

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 812}}


def new_page(browser, server, viewport, **options):
    context = browser.new_context(viewport=viewport, base_url=server.url,
                                  reduced_motion="reduce",
                                  device_scale_factor=2 if viewport["width"] < 500 else 1,
                                  **options)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


@pytest.mark.parametrize("name", ["desktop", "phone"])
def test_hint_then_screenshot(browser, server, artifacts, name):
    context, page = new_page(browser, server, VIEWPORTS[name])
    try:
        open_deal(page, 1)
        page.click('#board [data-action="hint"]')
        expect(page.locator("#message")).to_contain_text("Hint:")
        message = page.locator("#message").inner_text()
        assert "This deal can still be won." in message
        assert page.locator("#board .card.hinted").count() == 2
        assert page.locator('#board [data-action="hint"]').is_enabled()
        # H asks again, from the keyboard.
        page.evaluate("document.querySelector('#message').textContent = ''")
        page.keyboard.press("h")
        expect(page.locator("#message")).to_contain_text("Hint:")
        assert page.locator("[data-copy-link]").is_visible()  # JavaScript shows it
        if name == "desktop":
            # The whole board, down to the keyboard help, fits the screen without scrolling.
            height = page.evaluate("document.documentElement.scrollHeight")
            assert height <= VIEWPORTS[name]["height"], height
            assert page.locator(".keys summary").bounding_box()["y"] < VIEWPORTS[name]["height"]
        page.screenshot(path=str(artifacts / f"hint-{name}.png"), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("name", ["desktop", "phone"])
def test_the_game_over_banner_can_be_closed_to_see_the_board(browser, server, artifacts, name):
    context, page = new_page(browser, server, VIEWPORTS[name])
    try:
        open_deal(page, 8, "?passes=1")
        for number in range(1, 24):
            page.click('#board [data-action="draw"]')
            wait_for_moves(page, number)
        # The last draw with no network: the page's own end card, which the player folds; the
        # server's card that replaces it once the network is back stays folded.
        page.context.set_offline(True)
        page.click('#board [data-action="draw"]')
        page.wait_for_selector('[data-banner="lost"][data-local]')
        page.click("[data-banner-toggle]")
        page.context.set_offline(False)
        wait_for_server_banner(page, "lost")
        banner = page.locator("[data-banner=lost]")
        assert not banner.locator("h2").is_visible()
        # Every pyramid card is now visible, none hidden under the banner.
        for card in page.locator("#board .pyramid .card[data-card]").all():
            box = card.bounding_box()
            top = page.evaluate(
                "([x, y]) => document.elementFromPoint(x, y).closest('[data-card]')"
                "?.dataset.card", [box["x"] + box["width"] / 2, box["y"] + 4])
            assert top == card.get_attribute("data-card")
        page.screenshot(path=str(artifacts / f"lost-banner-closed-{name}.png"), full_page=True)
        page.click("[data-banner-toggle]")  # and it opens again
        assert banner.locator("h2").is_visible() and "Game over" in banner.inner_text()
        page.screenshot(path=str(artifacts / f"lost-{name}.png"), full_page=True)
    finally:
        context.close()


def test_without_javascript_a_refused_move_redirects_and_explains(browser, server):
    context, page = new_page(browser, server, VIEWPORTS["desktop"], java_script_enabled=False)
    try:
        url = open_deal(page, 1)
        assert not page.locator("[data-copy-link]").is_visible()  # no dead button
        page.click('#board button[data-card="AS"]')
        assert "A♠ selected" in page.locator("#message").inner_text()
        page.click('#board button[data-card="4C"]')
        assert page.url == url  # POST -> 303 -> the board: reloading re-posts nothing
        assert re.search(r"make 5, not 13\.", page.locator("#message [data-refused]").inner_text())
        page.reload()
        assert page.url == url and page.locator("#message").inner_text().strip() == ""
        page.click('#board [data-action="hint"]')
        assert "This deal can still be won." in page.locator("#message").inner_text()
        assert page.locator("#board .card.hinted").count() == 2
        page.click('#board button[data-card="AS"]')
        page.click('#board button[data-card="QH"]')
        assert "Removed" in page.locator("#message").inner_text()
        assert page.get_attribute("#board", "data-moves") == "1"
    finally:
        context.close()


@pytest.mark.parametrize("name", ["desktop", "phone"])
def test_error_page_and_api_docs_screenshots(browser, server, artifacts, name):
    context, page = new_page(browser, server, VIEWPORTS[name])
    try:
        page.goto("/deal/0")
        text = page.locator(".panel.error p").first.inner_text()
        assert text[0].isupper()
        buttons = page.locator(".error-actions .btn").all()
        boxes = [b.bounding_box() for b in buttons]
        for a, b in pairwise(boxes):  # never touching
            apart = b["x"] >= a["x"] + a["width"] + 4 or b["y"] >= a["y"] + a["height"] + 4
            assert apart, (a, b)
        page.screenshot(path=str(artifacts / f"error-{name}.png"), full_page=True)
        outside = []
        page.on("request", lambda request: outside.append(request.url)
                if not request.url.startswith(server.url) else None)
        page.goto("/docs")
        page.wait_for_selector(".swagger-ui .opblock", timeout=15_000)
        assert outside == []
        page.screenshot(path=str(artifacts / f"docs-{name}.png"))
    finally:
        context.close()
