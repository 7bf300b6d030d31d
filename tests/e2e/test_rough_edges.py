"""The last rough edges a demanding player found: redo, online and offline; the
focus after a keyboard win. Every wait is for what is checked."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.engine import Deal, Move

from .helpers import start_game
from .test_accessibility import violations
from .test_board import click_move, winning_line
from .test_coach import losing_game
from .test_offline import controlled, wait_until
from .test_play_feel import board_matches_server, settled

pytestmark = pytest.mark.browser


def moves_are(page, count: int) -> None:
    page.wait_for_selector(f'#board[data-moves="{count}"]', state="attached")


# --- redo --------------------------------------------------------------------------------------
@pytest.mark.offline
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


# --- the same deal again, from the end card drawn here -----------------------------------------
@pytest.mark.offline
def test_offline_a_lost_game_s_end_card_plays_the_deal_again(page):
    game = start_game(page, 8, "?passes=1")  # lost once the stock is drawn out
    settled(page)
    page.context.set_offline(True)
    for number in range(1, 25):
        page.keyboard.press("d")
        moves_are(page, number)
    banner = page.locator('[data-banner="lost"][data-local]')
    expect(banner).to_be_visible()
    banner.locator('[data-action="again"]').click()
    moves_are(page, 0)
    expect(page.locator("#board")).to_have_attribute("data-status", "playing")
    expect(page.locator("[data-banner]")).to_have_count(0)
    assert page.get_attribute("#board", "data-deal") == "8"
    page.keyboard.press("d")
    moves_are(page, 1)
    # The network back: the lost game and the new one are both the server's.
    page.context.set_offline(False)
    settled(page)
    wait_until(page, "() => !!document.querySelector('#board').dataset.game", "the new game")
    state = board_matches_server(page)
    assert state["moves"] == [Move.draw().to_dict()] and state["passes"] == 1
    lost = page.request.get(f"/api/games/{game.rsplit('/', 1)[1]}").json()
    assert lost["status"] == "lost" and len(lost["moves"]) == 24


# --- a game left offline for another --------------------------------------------------------
def pyramid_shown(page) -> set[str]:
    return set(page.eval_on_selector_all("#board .pyramid [data-card]",
                                         "els => els.map(e => e.dataset.card)"))


@pytest.mark.offline
def test_offline_the_deal_asked_for_is_behind_the_question_and_the_game_left_is_over(page):
    game_a = start_game(page, 42)
    page.keyboard.press("d")
    moves_are(page, 1)
    settled(page)
    controlled(page)
    page.goto("/")
    wait_until(page, "() => !!localStorage.getItem('pyramid.pack.v1')", "the offline pack")
    today = page.evaluate("() => new Date().toISOString().slice(0, 10)")
    daily = page.evaluate("day => (JSON.parse(localStorage.getItem('pyramid.pack.v1')).days"
                          " || []).find(d => d.date === day)?.deals?.['standard-3']", today)
    page.context.set_offline(True)

    # The deal of the day, then a deal link: each is on the board behind the question.
    asked = "[data-ask-leave]:not([hidden])"
    assert daily, "the pack has the deal of the day"
    page.goto("/daily")
    page.wait_for_selector(asked)
    expect(page.locator(".deal-info h1")).to_have_text(f"Deal #{daily}")
    assert pyramid_shown(page) == {c.name for c in Deal.from_number(int(daily)).pyramid}
    page.click('[data-ask-leave] [data-answer="no"]')
    page.wait_for_url(game_a)
    page.goto("/deal/1234?goal=standard&passes=3")
    page.wait_for_selector(asked)
    expect(page.locator(".deal-info h1")).to_have_text("Deal #1234")
    assert pyramid_shown(page) == {c.name for c in Deal.from_number(1234).pyramid}
    assert page.get_attribute("#board", "data-deal") == "1234"
    page.click('[data-ask-leave] [data-answer="yes"]')
    page.wait_for_selector("#board[data-play]:not([data-shell])")
    page.keyboard.press("d")
    moves_are(page, 1)

    # The game left, opened again (offline, then with the network back): over, not playable.
    page.goto(game_a)
    page.wait_for_selector('#board[data-status="abandoned"]')
    page.context.set_offline(False)
    page.wait_for_selector("[data-banner]:not([data-local])")
    settled(page)
    assert page.request.get(game_a.replace("/games/", "/api/games/")).json()["status"] \
        == "abandoned"
    assert page.get_attribute("#board", "data-status") == "abandoned"
    for action in ("undo", "hint"):
        expect(page.locator(f'#board [data-action="{action}"]')).to_be_disabled()
    expect(page.locator('#board [data-action="pause"]')).to_be_hidden()


# --- the first removal flies as the later ones do, on a busy CPU ------------------------------
FLIGHT_FRAMES = """card => {
  const seen = window.flightFrames = [];
  const tick = () => {
    const copy = document.querySelector('.card.flying[data-card="' + card + '"]');
    if (copy && document.getElementById('board').dataset.moves !== '0') {
      seen.push([Math.round(copy.getBoundingClientRect().top), window.pyramidSound.made()]);
    }
    if (!copy && seen.length) return;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def test_the_first_removal_flies_its_whole_flight_on_a_busy_cpu(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, reduced_motion="no-preference",
                                  base_url=server.url)
    try:
        page = context.new_page()
        page.goto("/deal/617?goal=wholedeck&passes=3")  # the game is stored by its first move
        page.wait_for_function("() => !!window.pyramidBoard")
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 6})
        page.wait_for_function("() => !document.querySelector('.card.flying')", polling=100)
        page.evaluate(FLIGHT_FRAMES, "KD")
        page.tap('#board button[data-card="KD"]')
        page.wait_for_function("() => window.flightFrames.length"
                               " && !document.querySelector('.card.flying')", polling=100)
        seen = page.evaluate("window.flightFrames")
        # Nothing heavy starts while it flies: the sound's audio context (made once the page
        # is still: before the press, or after the flight) and the board redrawn as stored
        # wait for it to land.
        assert len({made for _, made in seen}) == 1, seen
        page.wait_for_function("() => window.pyramidSound.started()")
        assert len({top for top, _ in seen}) >= 8, seen  # it travels, frame after frame
    finally:
        context.close()


# --- the first game's tips on phones -------------------------------------------------------------
TIPS_OVERLAP = """() => {
  const box = (el) => el.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const tips = [...document.querySelectorAll('[data-tip]')].filter((t) => box(t).width);
  const things = [...document.querySelectorAll(
    '#board .card, #board .card-back, #board .pile-label, .board-actions .btn')]
    .filter((el) => box(el).width);
  const found = [];
  const name = (el) => el.dataset.tip || el.dataset.card || el.dataset.action || el.className;
  for (const tip of tips) {
    const close = tip.querySelector('[data-tips-dismiss]');
    for (const part of [tip, close]) {
      for (const thing of [...things, ...tips]) {
        if (thing !== tip && meets(box(part), box(thing))) {
          found.push(`${tip.dataset.tip} covers ${name(thing)}`);
        }
      }
    }
    const c = box(close);
    if (c.width < 44 || c.height < 44) found.push(`${name(tip)}'s close: ${c.width}x${c.height}`);
    if (c.left < 0 || c.right > innerWidth) found.push(`${name(tip)}'s close is off the screen`);
  }
  return {tips: tips.length, found};
}"""


def choose_language(page, language: str) -> None:
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    answer = page.request.post("/settings", max_redirects=0, form={
        "theme": "light", "felt": "green", "back": "lattice", "motion": "auto", "sound": "on",
        "key_hints": "on", "language": language, "csrf_token": token})
    assert answer.status == 303


@pytest.mark.parametrize(("width", "height", "languages"), [
    (360, 640, ("en", "de", "fr", "es", "ja", "ru")), (390, 844, ("de",)), (844, 390, ("de",))])
def test_the_first_games_tips_cover_no_card_and_take_a_finger(browser, server, artifacts, width,
                                                             height, languages):
    context = browser.new_context(viewport={"width": width, "height": height},
                                  base_url=server.url, has_touch=True, is_mobile=True,
                                  reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto("/")
        for language in languages:  # one page for every language: the suite stays fast
            choose_language(page, language)
            start_game(page, 3)
            expect(page.locator("html")).to_have_attribute("lang", language)
            for tip in ("pairs", "kings", "stock"):
                expect(page.locator(f'[data-tip="{tip}"]')).to_be_visible()
            seen = page.evaluate(TIPS_OVERLAP)
            assert seen == {"tips": 3, "found": []}, (language, seen)
            # On a touch screen the King's tip says "tap", never "click".
            king = page.locator('[data-tip="kings"]').inner_text()
            page.screenshot(path=str(artifacts / f"tips-{language}-{width}x{height}.png"))
            if language == "en":
                assert "tap" in king and "click" not in king, king
    finally:
        context.close()


# --- phones: bigger cards, Pause, the sideways phone, the pages -----------------------------------
PYRAMID_FITS = """() => {
  const pyramid = document.querySelector('#board .pyramid').getBoundingClientRect();
  const cards = [...document.querySelectorAll('#board .card.in-pyramid')];
  const width = Math.min(...cards.map((c) => c.getBoundingClientRect().width));
  // Each free card's index (its top corner) is its own, not under a neighbour.
  const hidden = cards.filter((c) => !c.disabled).filter((c) => {
    const index = c.querySelector('.corner.top').getBoundingClientRect();
    const x = index.left + index.width / 2, y = index.top + index.height / 2;
    const hit = document.elementFromPoint(x, y);
    return !c.contains(hit);
  }).map((c) => c.dataset.card);
  const rank = parseFloat(getComputedStyle(cards[0].querySelector('.rank')).fontSize);
  return {left: pyramid.left, right: innerWidth - pyramid.right, width, hidden, rank};
}"""


@pytest.mark.parametrize(("width", "height"), [(360, 640), (390, 844)])
def test_a_phone_held_upright_has_big_cards_off_the_edges_and_a_pause_button(
        browser, server, artifacts, width, height):
    context = browser.new_context(viewport={"width": width, "height": height},
                                  base_url=server.url, has_touch=True, is_mobile=True,
                                  reduced_motion="reduce", device_scale_factor=2)
    try:
        page = context.new_page()
        page.goto("/")
        choose_language(page, "de")  # the longest words: the row of controls still holds
        start_game(page, 3)
        settled(page)
        fits = page.evaluate(PYRAMID_FITS)
        assert fits["width"] >= 50 and fits["rank"] >= 14, fits
        assert fits["left"] >= 4 and fits["right"] >= 4, fits  # nothing touches an edge
        assert fits["hidden"] == [], fits
        page.locator("[data-stock-back]").tap()
        moves_are(page, 1)
        pause = page.locator('[data-action="pause"]')
        expect(pause).to_be_visible()
        row = [box["y"] for box in (page.locator(f'[data-action="{name}"]').first.bounding_box()
                                    for name in ("undo", "redo", "hint", "pause", "restart"))]
        assert len(set(row)) == 1, row  # one row, Pause in it
        box = pause.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
        assert box["y"] + box["height"] <= height and box["x"] + box["width"] <= width
        assert page.evaluate("document.documentElement.scrollHeight") <= height
        pause.tap()
        expect(page.locator("[data-paused-cover]")).to_be_visible()
        page.screenshot(path=str(artifacts / f"paused-de-{width}x{height}.png"))
    finally:
        context.close()


def lose_a_winnable_deal(page) -> None:
    number, moves, _ = losing_game()
    start_game(page, number)
    game_id = page.url.rsplit("/", 1)[1]
    for move in moves[:-1]:
        assert page.request.post(f"/api/games/{game_id}/moves", data=move.to_dict()).ok
    page.reload()
    moves_are(page, len(moves) - 1)
    click_move(page, moves[-1])
    page.wait_for_selector('[data-banner="lost"]:not([data-local])')
    page.wait_for_selector('[data-banner] [data-verdict="lost-at"]')


def test_the_loss_card_is_short_and_sideways_it_leaves_the_counters_alone(browser, server,
                                                                         artifacts):
    for width, height in ((360, 640), (844, 390)):
        context = browser.new_context(viewport={"width": width, "height": height},
                                      base_url=server.url, has_touch=True, is_mobile=True,
                                      reduced_motion="reduce")
        try:
            page = context.new_page()
            lose_a_winnable_deal(page)
            banner = page.locator("[data-banner]")
            buttons = page.locator("[data-banner] .btn:visible")
            # The try again and a new game; the replays and the rest folded away.
            assert buttons.count() == 2, buttons.all_inner_texts()
            expect(page.locator('[data-banner] [data-action="retry"]')).to_be_visible()
            page.screenshot(path=str(artifacts / f"lost-{width}x{height}.png"))
            if width == 360:
                tall = banner.evaluate("b => b.scrollHeight")
                assert tall < 520, tall
            else:
                counters = page.locator(".counters").bounding_box()
                cleared = page.locator('[data-counter="cleared"]').bounding_box()
                moves = page.locator('[data-counter="moves"]').bounding_box()
                assert cleared["y"] == moves["y"], (cleared, moves)  # one line
                card = banner.bounding_box()
                assert card["x"] >= counters["x"] + counters["width"], (card, counters)
            page.click("[data-analysis-more] > summary")
            expect(page.locator("[data-replay-to-loss]")).to_be_visible()
        finally:
            context.close()


def test_the_pages_a_player_reads(browser, server):
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True,
                                  is_mobile=True, base_url=server.url)
    try:
        page = context.new_page()
        page.goto("/offline")
        page.wait_for_selector("[data-needs-network]")
        assert page.locator("h1").count() == 1
        page.goto("/rules")
        assert page.locator("table th:empty").count() == 0
        assert page.locator("table th").first.inner_text().strip()
        page.goto("/odds")
        # (a closed fold's text is not rendered: its innerText is empty)
        shown = page.evaluate("() => [...document.querySelectorAll('main code, main pre')]"
                              ".map((el) => el.innerText.trim()).filter(Boolean)")
        assert shown == [], shown  # no command line before a developer opens its fold
        lose_a_winnable_deal(page)
        game_id = page.url.rsplit("/", 1)[1]
        losing = losing_game()[2]
        for query in (f"step={losing}", f"win_from={losing - 1}&step={losing + 2}"):
            page.goto(f"/games/{game_id}/replay?{query}")
            page.wait_for_selector("#replay-stage")
            found = violations(page)
            assert not found, (query, found)
    finally:
        context.close()
