"""What a person does in a browser: open a deal link, play by mouse and keyboard, win, undo,
reload, and look at the board on a desktop and a phone.

Deal 3 (standard goal, 3 passes) is winnable; the solver's line is played by clicking.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from app.engine import Deal, Game, Move
from app.engine.solver import solve

from .helpers import start_game

pytestmark = pytest.mark.browser

DEAL = 3


def winning_line(number: int = DEAL) -> tuple[Move, ...]:
    solution = solve(Game(Deal.from_number(number), "standard", 3))
    assert solution.moves, "the test deal must be winnable"
    return solution.moves


def moves_on_board(page) -> int:
    return int(page.get_attribute("#board", "data-moves"))


def settled(page) -> None:
    """The board is the server's latest answer: no input queued, no request in flight."""
    page.wait_for_selector('html[data-inputs="0"]', state="attached")
    page.wait_for_selector("#board:not([aria-busy])", state="attached")


def wait_for_moves(page, count: int) -> None:
    page.wait_for_selector(f'#board[data-moves="{count}"]', state="attached")
    settled(page)


def wait_for_server_banner(page, status: str) -> None:
    """The server's end card, which replaces the one the page draws from its own engine as soon
    as the server holds every move (the page's card comes first, and may still be showing)."""
    page.wait_for_selector(f'[data-banner="{status}"]:not([data-local])')


def finish_animations(page) -> None:
    """Wait until every animation on the page has finished (cards fading out, a shake)."""
    page.evaluate("Promise.all(document.getAnimations().map(a => a.finished))")


def board_html(page) -> str:
    """The board as markup in a canonical form: each element with its attributes in order and
    its classes sorted (a morphed board keeps the attributes in another order than a fresh
    one), without the cards fading out after the last move (drawn only on the answer to that
    move, not on a reload) and without the page's own roving tabindex."""
    return page.locator("#board").evaluate(r"""board => {
        const copy = board.cloneNode(true);
        copy.querySelectorAll('.leaving').forEach(card => card.remove());
        const walk = node => {
          if (node.nodeType === Node.TEXT_NODE) return node.textContent.trim();
          if (node.nodeType !== Node.ELEMENT_NODE) return '';
          const attrs = Array.from(node.attributes)
            .filter(a => a.name !== 'tabindex')
            .map(a => a.name !== 'class' ? a.name + '=' + a.value
                      : 'class=' + a.value.split(/\s+/).filter(Boolean).sort().join(' '))
            .sort();
          return '<' + node.tagName + ' ' + attrs.join(' ') + '>'
            + Array.from(node.childNodes).map(walk).join('') + '</' + node.tagName + '>';
        };
        return walk(copy);
    }""")


def click_move(page, move: Move) -> None:
    """Play one move the way a player does: click the cards, or the Draw/Recycle control."""
    if move.op.value == "remove":
        for card in move.cards:
            page.click(f'#board button[data-card="{card.name}"]')
    else:
        page.click(f'#board [data-action="{move.op.value}"]')


def mark_page(page) -> None:
    """A flag that only survives if the page is never reloaded."""
    page.evaluate("window.__sameDocument = true")


def still_same_page(page) -> bool:
    return page.evaluate("window.__sameDocument === true")


def open_deal(page, number: int = DEAL, query: str = "") -> str:
    url = start_game(page, number, query)
    assert re.search(r"/games/[\w-]+$", url)
    return url


def test_win_a_whole_game_by_clicking(page, artifacts):
    url = open_deal(page)
    board = page.locator("#board")
    assert board.get_attribute("data-status") == "playing"
    assert board.get_attribute("data-deal") == str(DEAL)
    assert board.get_attribute("data-goal") == "standard"
    assert board.get_attribute("data-passes") == "3"
    link = page.locator("[data-deal-link]")
    assert link.get_attribute("href").endswith(f"/deal/{DEAL}?goal=standard&passes=3")
    assert link.get_attribute("href").startswith("http://127.0.0.1:")
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    mark_page(page)

    line = winning_line()
    for number, move in enumerate(line, start=1):
        click_move(page, move)
        wait_for_moves(page, number)

    assert board.get_attribute("data-status") == "won"
    wait_for_server_banner(page, "won")
    banner = page.locator(".banner")
    assert banner.is_visible()
    assert "You won!" in banner.inner_text()
    assert "The pyramid is cleared." in banner.inner_text()
    assert f"{len(line)} moves" in banner.inner_text()
    # One main action after a win; playing the deal again is under the folded details.
    assert page.locator('.banner [data-action="new"]').inner_text() == "Next deal"
    assert not page.locator('.banner [data-action="restart"]').is_visible()
    page.click(".banner [data-banner-more] > summary")
    assert page.locator('.banner [data-action="restart"]').is_visible()
    # Every move was an HTMX request: no page load, and the address never changed.
    assert still_same_page(page)
    assert navigations == []
    assert page.url == url
    assert "You won!" not in page.locator("#message").inner_text()  # the banner says it
    page.screenshot(path=str(artifacts / "won-desktop.png"))

    # "Play again" starts the same deal afresh.
    page.click('.banner [data-action="restart"]')
    page.wait_for_selector('#board[data-status="playing"][data-moves="0"]')
    assert page.url != url


def test_an_illegal_pair_explains_itself_and_undo_takes_back(page):
    open_deal(page)
    game = Game(Deal.from_number(DEAL))
    free = [c for c in game.free_cards() if not c.is_king]
    first, second = next((a, b) for i, a in enumerate(free) for b in free[i + 1:]
                         if a.rank + b.rank != 13)
    page.click(f'#board button[data-card="{first.name}"]')
    page.wait_for_selector(f'#board button[data-card="{first.name}"][aria-pressed="true"]')
    settled(page)
    assert "selected" in page.locator("#message").inner_text()
    page.click(f'#board button[data-card="{second.name}"]')
    low, high = Move.remove(first, second).cards  # the engine's words, in its order
    expected = f"{low.symbol} and {high.symbol} make {first.rank + second.rank}, not 13."
    expect(page.locator("#message [data-refused]")).to_have_text(expected)
    assert page.locator("#board button.selected").count() == 0
    assert moves_on_board(page) == 0

    # A King goes on its own; Undo brings it back.
    page.click('#board button[data-card="KS"]')
    wait_for_moves(page, 1)
    assert page.locator('#board button[data-card="KS"]').count() == 0
    page.click('#board [data-action="undo"]')
    wait_for_moves(page, 0)
    assert page.locator('#board button[data-card="KS"]').count() == 1
    assert "Took back" in page.locator("#message").inner_text()


WATCH_BOARD = """() => {
  window.boardChanges = [];
  new MutationObserver((records) => {
    for (const r of records) {
      window.boardChanges.push([r.type, r.target.dataset?.card || r.target.nodeName,
                                r.attributeName]);
    }
  }).observe(document.getElementById('board'),
             { attributes: true, childList: true, subtree: true, characterData: true });
}"""


def test_a_selection_changes_its_card_alone_as_the_whole_board_draws_it(page):
    """A press that selects or drops a card (a pyramid card, the waste's, the stock's; a press,
    a second press, Esc) changes that card's class and aria-pressed and nothing else on the
    board: drawing the whole board for it cost a slow phone its frame. The board is then the
    board drawn whole."""
    open_deal(page)
    page.keyboard.press("d")  # a card on the waste, another on the stock
    wait_for_moves(page, 1)
    game = Game(Deal.from_number(DEAL))
    game.play(Move.draw())
    pyramid = next(c for c in game.free_cards()
                   if not c.is_king and c not in (game.stock_top, game.waste_top))
    presses = [(pyramid.name, "true"), (pyramid.name, "false"), (game.waste_top.name, "true"),
               ("Escape", "false"), (game.stock_top.name, "true"), (game.stock_top.name, "false")]
    last = None
    for press, pressed in presses:
        page.evaluate(WATCH_BOARD)
        if press == "Escape":
            page.keyboard.press("Escape")
        else:
            page.click(f'#board button[data-card="{press}"]')
            last = press
        page.wait_for_selector(f'#board button[data-card="{last}"][aria-pressed="{pressed}"]')
        changes = page.evaluate("window.boardChanges")
        assert changes and all(kind == "attributes" and card == last
                               and name in ("class", "aria-pressed")
                               for kind, card, name in changes), changes
        assert page.locator("#board button.selected").count() == (pressed == "true")
        drawn = board_html(page)
        page.evaluate("window.pyramidBoard.draw()")
        assert board_html(page) == drawn
    settled(page)


def test_reload_and_server_restart_keep_the_position(page, server):
    url = open_deal(page, DEAL, "?goal=wholedeck&passes=2")
    for number, move in enumerate(winning_line()[:6], start=1):
        click_move(page, move)
        wait_for_moves(page, number)
    before = board_html(page)
    counters = page.locator("#counters [data-counter=pass]").inner_text()

    page.reload()
    page.wait_for_selector("#board")
    settled(page)
    assert page.url == url
    assert board_html(page) == before
    assert page.locator("#counters [data-counter=pass]").inner_text() == counters

    server.restart()  # a new process: nothing was kept in memory
    page.reload()
    page.wait_for_selector('#board[data-moves="6"]')
    settled(page)
    assert board_html(page) == before


def test_keyboard_play(page):
    open_deal(page)
    # Arrow keys move between free cards only.
    page.locator("#board").click(position={"x": 2, "y": 2})
    page.keyboard.press("ArrowRight")
    first = page.evaluate("document.activeElement.dataset.card")
    assert first
    page.keyboard.press("ArrowRight")
    second = page.evaluate("document.activeElement.dataset.card")
    assert second and second != first
    assert page.evaluate("!document.activeElement.disabled")

    # Enter removes a focused King; D draws; U undoes.
    page.focus('#board button[data-card="KS"]')
    page.keyboard.press("Enter")
    wait_for_moves(page, 1)
    page.keyboard.press("d")
    wait_for_moves(page, 2)
    page.keyboard.press("u")
    wait_for_moves(page, 1)
    page.keyboard.press("d")
    wait_for_moves(page, 2)
    # The solver's third move pairs two cards: Enter selects one, Space plays the other.
    pair = winning_line()[2]
    a, b = pair.cards
    page.focus(f'#board button[data-card="{a.name}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#board button[data-card="{a.name}"][aria-pressed="true"]')
    page.keyboard.press("Escape")
    page.wait_for_selector(f'#board button[data-card="{a.name}"][aria-pressed="false"]')
    settled(page)
    page.focus(f'#board button[data-card="{a.name}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#board button[data-card="{a.name}"][aria-pressed="true"]')
    page.focus(f'#board button[data-card="{b.name}"]')
    page.keyboard.press(" ")
    wait_for_moves(page, 3)
    # Focus stays on the board after the redraw, on a free card.
    assert page.evaluate("!!document.activeElement.closest('#board')")


def test_another_browser_cannot_move_in_my_game(page, browser, server):
    url = open_deal(page)
    other = browser.new_context(base_url=server.url)
    try:
        spectator = other.new_page()
        spectator.goto(url)
        assert spectator.locator("[data-spectator]").is_visible()
        assert spectator.locator('#board button[data-card="KS"]').is_disabled()
        assert spectator.locator('#board [data-action="draw"]').is_disabled()
        # The same deal link gives the other browser its own game.
        spectator.goto(f"/deal/{DEAL}")
        spectator.wait_for_selector("#board")
        assert spectator.url != url
        assert spectator.locator('#board button[data-card="KS"]').is_enabled()
    finally:
        other.close()


def test_the_forms_work_without_javascript(browser, server):
    context = browser.new_context(base_url=server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("/")
        page.check('input[name="goal"][value="wholedeck"]')
        page.fill("#deal", "3")
        page.click('[data-action="start"]')
        page.wait_for_selector('#board[data-goal="wholedeck"][data-deal="3"]')
        page.click('#board button[data-card="KS"]')
        page.wait_for_selector('#board[data-moves="1"]')
        page.click('#board [data-action="draw"]')
        page.wait_for_selector('#board[data-moves="2"]')
        a, b = winning_line()[2].cards
        page.click(f'#board button[data-card="{a.name}"]')  # selected through the URL
        assert page.url.endswith(f"?selected={a.name}")
        page.click(f'#board button[data-card="{b.name}"]')
        page.wait_for_selector('#board[data-moves="3"]')
        page.click('#board [data-action="undo"]')
        page.wait_for_selector('#board[data-moves="2"]')
    finally:
        context.close()


@pytest.mark.parametrize(("name", "viewport"), [
    ("desktop", {"width": 1280, "height": 860}),
    ("phone", {"width": 375, "height": 740}),
])
def test_screenshots(browser, server, artifacts, name, viewport):
    context = browser.new_context(viewport=viewport, base_url=server.url,
                                  device_scale_factor=2 if name == "phone" else 1)
    try:
        page = context.new_page()
        open_deal(page)
        for number, move in enumerate(winning_line()[:8], start=1):
            click_move(page, move)
            wait_for_moves(page, number)
        free = page.locator("#board button[data-card]:not([disabled])").first
        free.click()  # show a selected card
        page.wait_for_selector("#board button.selected")
        settled(page)
        finish_animations(page)
        # The whole board fits the width: no sideways scrolling on a phone.
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        box = page.locator(".pyramid").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        page.screenshot(path=str(artifacts / f"board-{name}.png"), full_page=True)
        page.goto("/")
        page.screenshot(path=str(artifacts / f"home-{name}.png"), full_page=True)
    finally:
        context.close()
