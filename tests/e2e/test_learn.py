"""Learn in a minute: a first visit may take a short guided game on a fixed deal, a
pair, a King, a draw and a recycle each pointed at on the board; skippable; never stored or
counted."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def marked(page) -> list[str]:
    return page.eval_on_selector_all(
        "#board .hinted", "els => els.map(e => e.dataset.card || e.dataset.action)")


def test_a_guided_game_points_at_each_step_and_stores_nothing(page):
    page.goto("/")
    page.click("[data-learn-link]")  # offered to a player who has not finished a game
    page.wait_for_function("() => !!window.pyramidBoard")
    step = page.locator("[data-learn-step]")
    assert sorted(marked(page)) == ["5H", "8D"]
    page.click('#board button[data-card="8D"]')
    page.click('#board button[data-card="5H"]')
    expect(step).to_contain_text("King")
    assert marked(page) == ["KD"]
    page.click('#board button[data-card="KD"]')
    expect(step).to_contain_text("Draw")
    page.keyboard.press("d")
    expect(step).to_contain_text("Draw the rest")
    page.click("[data-learn-rest]")
    expect(step).to_contain_text("Recycle")
    assert page.locator('[data-count="stock"]').inner_text() == "0"
    page.click('[data-action="recycle"]')
    expect(page.locator("[data-learn-done]")).to_be_visible()
    assert page.evaluate("localStorage.getItem('pyramid.games.v1')") is None
    assert page.locator("#board").get_attribute("data-game") == ""
    page.goto("/stats")  # nothing counted
    assert "data-figure=\"played\"" not in page.content() or page.locator(
        '[data-figures="total"] [data-figure="played"]').inner_text().strip() == "0"
    page.goto("/")
    assert page.locator("[data-continue]").count() == 0  # no game in progress either


def test_the_guided_game_can_be_skipped(page):
    page.goto("/learn")
    page.wait_for_function("() => !!window.pyramidBoard")
    page.click("[data-learn-skip]")
    page.wait_for_selector("form.new-game")  # the home page's new game
    assert "/learn" not in page.url
