"""The last rough edges a demanding player found (issue 47): redo, online and offline; the
focus after a keyboard win. Every wait is for what is checked."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.engine import Move

from .helpers import start_game
from .test_board import winning_line
from .test_offline import controlled
from .test_play_feel import board_matches_server, settled

pytestmark = pytest.mark.browser


def moves_are(page, count: int) -> None:
    page.wait_for_selector(f'#board[data-moves="{count}"]', state="attached")


# --- redo --------------------------------------------------------------------------------------
def test_redo_plays_again_what_undo_took_back_online_and_offline(page):
    start_game(page, 3)  # the King of spades is free from the start
    settled(page)
    redo = page.locator('[data-action="redo"]')
    expect(redo).to_be_visible()
    expect(redo).to_be_disabled()
    page.click('#board button[data-card="KS"]')
    page.keyboard.press("d")
    moves_are(page, 2)
    page.keyboard.press("u")
    page.keyboard.press("u")
    moves_are(page, 0)
    expect(redo).to_be_enabled()
    page.click('[data-action="redo"]')  # the King again
    moves_are(page, 1)
    assert page.locator('#board .pyramid button[data-card="KS"]').count() == 0
    page.keyboard.press("r")  # and the draw
    moves_are(page, 2)
    expect(redo).to_be_disabled()
    settled(page)
    state = board_matches_server(page)
    assert state["moves"] == [Move.remove("KS").to_dict(), Move.draw().to_dict()]

    # Offline: the same, kept on the device and saved when the network is back.
    controlled(page)
    page.context.set_offline(True)
    page.keyboard.press("u")
    moves_are(page, 1)
    page.keyboard.press("r")
    moves_are(page, 2)
    page.keyboard.press("u")
    moves_are(page, 1)
    # A new move starts a new line: what redo could play is gone.
    page.keyboard.press("d")
    moves_are(page, 2)
    expect(redo).to_be_disabled()
    page.keyboard.press("r")
    expect(page.locator("#message [data-refused]")).to_contain_text("redo")
    assert page.get_attribute("#board", "data-moves") == "2"
    page.context.set_offline(False)
    settled(page)
    state = board_matches_server(page)
    assert state["moves"] == [Move.remove("KS").to_dict(), Move.draw().to_dict()]


def test_without_javascript_there_is_no_redo_to_press(browser, server):
    context = browser.new_context(base_url=server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("/")
        start_game(page, 3)
        expect(page.locator('[data-action="redo"]')).to_be_hidden()
        expect(page.locator('[data-action="undo"]')).to_be_visible()
    finally:
        context.close()


# --- the focus after a keyboard win -------------------------------------------------------------
def test_after_a_keyboard_win_the_focus_is_on_the_end_cards_first_control(page):
    start_game(page, 3)
    settled(page)
    for number, move in enumerate(winning_line(), start=1):
        if move.op.value == "remove":
            for card in move.cards:
                page.focus(f'#board button[data-card="{card.name}"]')
                page.keyboard.press("Enter")
        else:
            page.keyboard.press("d")
        moves_are(page, number)
    page.wait_for_selector("[data-banner]:not([data-local])")
    settled(page)
    first = page.locator('.banner .banner-actions [data-action="new"]')
    expect(first).to_be_focused()
    page.keyboard.press("Tab")  # the next Tab goes on from the end card, not the page's top
    assert page.evaluate("document.querySelector('[data-banner]').contains("
                         "document.activeElement)")
