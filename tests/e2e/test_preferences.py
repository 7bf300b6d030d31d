"""The player's preferences in a browser: a saved theme is on the very first frame (no flash of
the default), the left-handed layout, the sound button and the cues, the first-game tips, and
axe on the Settings page and the board in every theme."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.engine import Deal, Game, Move

from .helpers import start_game
from .test_accessibility import serious, violations
from .test_board import settled, wait_for_moves

pytestmark = pytest.mark.browser

DEFAULTS = {"theme": "light", "felt": "green", "back": "lattice", "motion": "auto",
            "sound": "on", "key_hints": "on"}

LOOK = """() => {
  const html = document.documentElement, style = getComputedStyle(html);
  const body = document.body ? getComputedStyle(document.body) : null;
  return {theme: html.getAttribute('data-theme'), felt: style.getPropertyValue('--felt').trim(),
          scheme: style.colorScheme, background: body && body.backgroundImage,
          color: body && body.color};
}"""

FIRST_FRAME = f"""() => {{
  // Runs before anything of the page: how its first frame (with a body to draw) looks.
  window.__firstFrame = new Promise(resolve => {{
    const look = {LOOK};
    const wait = () => document.body ? resolve(look()) : requestAnimationFrame(wait);
    requestAnimationFrame(wait);
  }});
}}"""


def new_page(browser, server, width=1280, height=860, **options):
    context = browser.new_context(viewport={"width": width, "height": height},
                                  base_url=server.url, reduced_motion="reduce", **options)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def choose(page, **choices) -> None:
    """Save preferences as the Settings form does (None: a box left unticked)."""
    if not page.url.startswith("http"):
        page.goto("/settings")
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    form = {key: value for key, value in {**DEFAULTS, **choices}.items() if value is not None}
    answer = page.request.post("/settings", form={**form, "csrf_token": token}, max_redirects=0)
    assert answer.status == 303, answer.text()


def look(page) -> dict:
    return page.evaluate(LOOK)


def panel_colour(page) -> str:
    return page.evaluate("getComputedStyle(document.querySelector('.panel')).backgroundColor")


# --- the first paint ---------------------------------------------------------------------------
def test_a_saved_dark_theme_is_on_the_very_first_frame(browser, server):
    context, page = new_page(browser, server)
    light_context, light = new_page(browser, server)
    try:
        choose(page, theme="dark", felt="blue")
        page.add_init_script(script=f"({FIRST_FRAME})()")
        for path in ("/settings", "/rules"):
            page.goto(path, wait_until="commit")
            # What <html> carries when the page has only just begun to arrive.
            page.wait_for_function("() => document.documentElement !== null")
            assert page.evaluate("document.documentElement.getAttribute('data-theme')") == "dark"
            first = page.evaluate("window.__firstFrame")
            early = page.screenshot()
            page.wait_for_load_state("networkidle")
            assert first == look(page), path  # the first frame is drawn as the settled page
            assert first["theme"] == "dark" and first["felt"] == "#152f4d"
            assert page.screenshot() == early, path  # no frame of another look in between
            light.goto(path)
            light.wait_for_load_state("networkidle")
            assert light.screenshot() != early  # (and the check can tell the themes apart)
            assert look(light)["background"] != first["background"]
        assert panel_colour(page) != panel_colour(light)
    finally:
        context.close()
        light_context.close()


def test_the_board_is_drawn_in_the_players_choices_from_its_first_frame(browser, server):
    context, page = new_page(browser, server)
    try:
        choose(page, theme="contrast", back="rosette", large_cards="on", key_hints=None)
        page.add_init_script(script=f"({FIRST_FRAME})()")
        start_game(page, 3)
        first = page.evaluate("window.__firstFrame")
        assert first["theme"] == "contrast" and first == look(page)
        back = page.locator("#board [data-stock-back]")
        assert "url(" in back.evaluate("b => getComputedStyle(b).backgroundImage")
        assert page.locator("#board .key-badge").first.is_hidden()
        assert page.locator("[data-keyboard-help]").is_hidden()
        large = page.locator("#board .card.in-pyramid").first.bounding_box()["width"]
        choose(page, theme="contrast", back="rosette", key_hints=None)
        page.reload()
        assert page.locator("#board .card.in-pyramid").first.bounding_box()["width"] < large
    finally:
        context.close()


# --- the left hand -----------------------------------------------------------------------------
@pytest.mark.parametrize(("width", "height", "phone"),
                         [(1280, 860, False), (844, 390, True), (390, 844, True)])
def test_the_left_handed_layout_puts_the_stock_left_of_the_pyramid(browser, server, width,
                                                                     height, phone):
    context, page = new_page(browser, server, width, height, has_touch=phone, is_mobile=phone)
    try:
        start_game(page, 3)
        right = page.locator("#board .stock").bounding_box()
        fits = page.evaluate("[document.documentElement.scrollWidth,"
                             " document.documentElement.scrollHeight]")
        choose(page, left_handed="on")
        page.reload()
        page.wait_for_selector("html[data-hand=left] #board[data-game]")
        stock = page.locator("#board .stock").bounding_box()
        pyramid = page.locator("#board .pyramid").bounding_box()
        if width > height:  # beside the pyramid: on its left now
            assert stock["x"] + stock["width"] <= pyramid["x"]
        else:  # under it: at its left edge rather than centred
            assert abs(stock["x"] - pyramid["x"]) <= 12 and stock["x"] < right["x"]
        size = page.evaluate("[document.documentElement.scrollWidth,"
                             " document.documentElement.scrollHeight]")
        assert size == fits, size  # the page is no bigger for it
    finally:
        context.close()


# --- sound ---------------------------------------------------------------------------------------
def test_sounds_follow_the_play_and_the_button_turns_them_off(page):
    start_game(page, 3)
    sound = page.evaluate_handle("window.pyramidSound")
    # The audio context is made ahead, once the page is still (making it at the first press
    # would cost that press its frame), but nothing plays before the player's first input.
    page.wait_for_function("() => window.pyramidSound.made()")
    assert page.evaluate("s => [s.played.length, s.started()]", sound) == [0, False]
    page.keyboard.press("d")
    wait_for_moves(page, 1)
    # The input wakes it.
    page.wait_for_function("() => window.pyramidSound.started()")
    page.evaluate("s => { s.played.length = 0; }", sound)
    page.keyboard.press("d")
    wait_for_moves(page, 2)
    game = Game(Deal.from_number(3), "standard", 3)
    for move in (Move.draw(), Move.draw()):
        game.play(move)
    kings = [card for card in game.free_cards() if card.is_king]
    if kings:
        page.click(f'#board button[data-card="{kings[0].name}"]')
        wait_for_moves(page, 3)
        game.play(Move.remove(kings[0]))
    played = page.evaluate("s => s.played.slice()", sound)
    assert played == (["draw", "king"] if kings else ["draw"]), played
    # A refused move: two free cards that do not make 13.
    free = [card for card in game.free_cards() if not card.is_king]
    first, other = next((a, b) for a in free for b in free if a.rank + b.rank != 13 and a != b)
    page.click(f'#board button[data-card="{first.name}"]')
    page.click(f'#board button[data-card="{other.name}"]')
    expect(page.locator("#message [data-refused]")).to_be_visible()
    settled(page)
    assert page.evaluate("s => s.played[s.played.length - 1]", sound) == "refused"

    # One click turns it off: the speaker button shown is the one that does.
    expect(page.locator('[data-sound-toggle="on"]')).to_be_hidden()
    page.click('[data-sound-toggle="off"]')
    expect(page.locator("html")).to_have_attribute("data-sound", "off")
    expect(page.locator('[data-sound-toggle="off"]')).to_be_hidden()
    expect(page.locator('[data-sound-toggle="on"]')).to_be_visible()
    before = page.evaluate("s => s.played.length", sound)
    page.keyboard.press("d")
    settled(page)
    assert page.evaluate("s => s.played.length", sound) == before  # silent now
    # Saved for the player: the next page is drawn with it.
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-sound", "off")
    expect(page.locator('[data-sound-toggle="on"]')).to_be_visible()


def test_a_win_plays_its_cue_once(page):
    from app.engine import Deal, Game
    from app.engine.solver import solve

    start_game(page, 3)
    game_id = page.url.rsplit("/", 1)[1]
    line = solve(Game(Deal.from_number(3), "standard", 3)).moves
    for move in line[:-1]:  # all but the last move through the API
        assert page.request.post(f"/api/games/{game_id}/moves", data=move.to_dict()).ok
    page.reload()
    page.wait_for_selector(f'#board[data-moves="{len(line) - 1}"]')
    page.mouse.click(2, 300)  # an input on the felt wakes the audio
    page.wait_for_function("() => window.pyramidSound.started()")
    last = line[-1]
    if last.op.value == "remove":
        for card in last.cards:
            page.click(f'#board button[data-card="{card.name}"]')
    else:
        page.click(f'#board [data-action="{last.op.value}"]')
    page.wait_for_selector('#board[data-status="won"]')
    settled(page)
    played = page.evaluate("window.pyramidSound.played.slice()")
    assert played.count("win") == 1 and played[-1] == "win"


# --- the first game's tips ---------------------------------------------------------------------
def covered_by_a_tip(page) -> list[str]:
    """Free cards and controls whose centre a tip covers (a tip takes no clicks, but a card
    hidden under one would still be hard to see)."""
    return page.evaluate("""() => Array.from(document.querySelectorAll(
        '#board button:not([disabled]):not([data-tips-dismiss]), .controls button'))
      .filter(el => { const r = el.getBoundingClientRect();
        return Array.from(document.querySelectorAll('.tips')).some(tip => {
          const t = tip.getBoundingClientRect();
          const x = r.left + r.width / 2, y = r.top + r.height / 2;
          return t.width && x >= t.left && x <= t.right && y >= t.top && y <= t.bottom; }); })
      .map(el => el.dataset.card || el.dataset.action || el.textContent.trim())""")


@pytest.mark.parametrize(("width", "height"), [(1280, 860), (360, 640), (844, 390)])
def test_a_first_game_shows_three_tips_until_dismissed(browser, server, width, height):
    context, page = new_page(browser, server, width, height)
    try:
        start_game(page, 3)
        tips = page.locator(".tips")
        expect(tips).to_have_count(3)
        for tip in ("pairs", "kings", "stock"):
            expect(page.locator(f'[data-tip="{tip}"]')).to_be_visible()
        assert covered_by_a_tip(page) == []
        size = page.evaluate("[document.documentElement.scrollWidth,"
                             " document.documentElement.scrollHeight]")
        assert size[0] == width, size  # nothing sticks out sideways
        # Each leaves once done (the stock's after a draw); the others stay, until dismissed.
        page.keyboard.press("d")
        wait_for_moves(page, 1)
        expect(page.locator('[data-tip="stock"]')).to_be_hidden()
        expect(page.locator('[data-tip="pairs"]')).to_be_visible()
        size = page.evaluate("[document.documentElement.scrollWidth,"
                             " document.documentElement.scrollHeight]")
        dismiss = page.locator("[data-tips-dismiss]:visible").first
        saved_at = dismiss.get_attribute("formaction")
        with page.expect_response(lambda r: r.request.method == "POST"
                                  and r.url.endswith(saved_at)) as answer:
            dismiss.click()
        expect(page.locator("html")).not_to_have_attribute("data-tips", "shown")
        for tip in ("pairs", "kings", "stock"):
            expect(page.locator(f'[data-tip="{tip}"]')).to_be_hidden()
        assert page.locator("#board").get_attribute("data-moves") == "1"  # not a move
        # The tips took no room: the page is the same size without them.
        assert page.evaluate("[document.documentElement.scrollWidth,"
                             " document.documentElement.scrollHeight]") == size
        assert answer.value.ok  # kept for the player: the next page is drawn without them
        page.reload()
        expect(page.locator('[data-tip="pairs"]')).to_be_hidden()
        page.keyboard.press("d")  # the board plays on as before
        wait_for_moves(page, 2)
    finally:
        context.close()


def test_the_tips_are_gone_on_the_next_game(page):
    start_game(page, 3)
    expect(page.locator('[data-tip="pairs"]')).to_be_visible()
    page.keyboard.press("d")
    wait_for_moves(page, 1)
    page.click('.controls [data-action="new"]')
    abandon = page.locator('[data-action="abandon"]')
    if abandon.count():  # a game in progress with moves: asked first
        abandon.click()
    page.wait_for_selector('#board[data-moves="0"]')
    assert page.locator("html").get_attribute("data-tips") is None
    expect(page.locator('[data-tip="pairs"]')).to_be_hidden()


def test_without_javascript_the_tips_and_the_sound_button_are_plain_forms(browser, server):
    context, page = new_page(browser, server, java_script_enabled=False)
    try:
        page.goto("/")
        start_game(page, 3)
        page.click('[data-sound-toggle="off"]')
        assert page.locator("html").get_attribute("data-sound") == "off"
        assert "/games/" in page.url
        page.click("[data-tips-dismiss]")
        assert page.locator("html").get_attribute("data-tips") is None
        assert "/games/" in page.url and page.locator("#board").get_attribute("data-moves") == "0"
    finally:
        context.close()


# --- accessibility in every theme -------------------------------------------------------------
@pytest.mark.parametrize("theme", ["light", "dark", "contrast"])
def test_settings_and_board_have_no_serious_accessibility_violation(browser, server, theme):
    context, page = new_page(browser, server)
    try:
        choose(page, theme=theme, back="pyramid", felt="red" if theme == "dark" else "green")
        checked = {}
        page.goto("/settings")
        checked["settings"] = violations(page)
        start_game(page, 42)
        page.keyboard.press("d")
        wait_for_moves(page, 1)
        checked["board with tips"] = violations(page)
        bad = serious(checked, f"{theme} ")
        assert not bad, "\n".join(bad)
    finally:
        context.close()
