"""Accessibility checked by a tool, not only by eye: axe-core (axe-playwright-python) on every
kind of page, with no serious or critical violation allowed."""

from __future__ import annotations

import pytest

from app.engine import Deal, Game
from app.engine.solver import solve

pytestmark = pytest.mark.browser

SERIOUS = {"serious", "critical"}


def violations(page) -> list[tuple[str, str, str]]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [(v["id"], v["impact"], v["nodes"][0]["html"][:160]) for v in found
            if v["impact"] in SERIOUS]


def serious(checked: dict[str, list], prefix: str = "") -> list[str]:
    """Every serious or critical violation of the pages ``checked`` (name -> violations), a
    line each, for the assertion's message."""
    return [f"{prefix}{name}: {rule} ({impact}) at {html}" for name, found in checked.items()
            for rule, impact, html in found]


def won_game(page) -> str:
    """A game won through the API (the page's own cookies), for the game-over page and its
    replay."""
    created = page.request.post("/api/games", data={"deal": 3})
    assert created.status == 201
    game_id = created.json()["id"]
    for move in solve(Game(Deal.from_number(3), "standard", 3)).moves:
        assert page.request.post(f"/api/games/{game_id}/moves", data=move.to_dict()).ok
    return game_id


def test_every_page_has_no_serious_accessibility_violation(page):
    checked = {}
    page.goto("/")
    checked["home"] = violations(page)
    page.goto("/deal/42")
    page.wait_for_selector("#board[data-game]")
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-moves="1"]')
    checked["board"] = violations(page)
    page.goto("/deal/43")
    page.wait_for_selector("[data-confirm-abandon]")
    checked["confirm"] = violations(page)
    game_id = won_game(page)
    page.goto(f"/games/{game_id}")
    page.wait_for_selector('[data-banner="won"]')
    checked["game over"] = violations(page)
    page.goto(f"/games/{game_id}/replay?step=5")
    page.wait_for_selector("#replay-stage")
    checked["replay"] = violations(page)
    page.goto("/stats")
    checked["stats"] = violations(page)
    page.goto("/rules")
    checked["rules"] = violations(page)
    page.goto("/odds")
    checked["odds"] = violations(page)
    bad = serious(checked)
    assert not bad, "\n".join(bad)
