"""The player's language in a real browser.

- In the pseudo-language (tests/i18n/pseudo.py: every catalog message's letters accented),
  everything the board draws and announces while it is played, on the page's own engine and
  with the server, comes from the catalogs: no plain English word in the board's texts, its
  accessible names or its live region.
- The language chosen on the Settings page draws the next pages in it, and the board's
  announcements ([aria-live]) follow.
- Every language (German the longest) at 360x640 with touch: no page scrolls sideways and no
  button's words spill out of it; Japanese and German pages are axe clean.
"""

from __future__ import annotations

import pytest

from app.engine import Deal, Game
from app.engine.solver import solve
from tests.i18n.pseudo import english_left
from tests.web.test_stats_pages import lose_line

from .conftest import Server
from .helpers import start_game
from .test_accessibility import serious, violations, won_game
from .test_play_feel import settled

pytestmark = pytest.mark.browser

TEXTS = """() => {
  const texts = [];
  const main = document.querySelector("main");
  for (const el of [main, ...main.querySelectorAll("*")]) {
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = el.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  texts.push(...main.innerText.split("\\n"));
  for (const region of document.querySelectorAll("[aria-live]")) texts.push(region.textContent);
  return texts.filter((text) => text.trim());
}"""


@pytest.fixture(scope="module")
def pseudo_server(tmp_path_factory, chromium, _migrated_sqlite):
    database = tmp_path_factory.mktemp("pseudo") / "pyramid.db"
    server = Server(f"sqlite:///{database}", app="tests.i18n.pseudo_server:app")
    server.migrate(_migrated_sqlite)
    server.start()
    yield server
    server.stop()


def phone(browser, server, width=390, height=844, locale="en-US", **extra):
    context = browser.new_context(viewport={"width": width, "height": height},
                                  base_url=server.url, has_touch=True, is_mobile=True,
                                  reduced_motion="reduce", locale=locale, **extra)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def no_english(page, when: str) -> None:
    left = english_left(page.evaluate(TEXTS))
    assert not left, f"{when}: words not from the catalogs: {left}"


def said(page) -> str:
    return page.locator("#message").text_content() or ""


def test_the_board_draws_and_says_everything_from_the_catalogs(browser, pseudo_server):
    context, page = phone(browser, pseudo_server)
    try:
        start_game(page, 5)
        settled(page)
        no_english(page, "a new game")
        line = solve(Game(Deal.from_number(5), "standard", 3)).moves
        game = Game(Deal.from_number(5), "standard", 3)
        pair = next(m for m in line if len(m.cards) == 2)
        before = line[:line.index(pair)]
        for move in before:  # up to the first pair: the solver's own moves, as a player taps
            press(page, move)
            game.play(move)
        first = pair.cards[0].name
        page.locator(f'#board button[data-card="{first}"]').click()
        page.wait_for_function("() => document.querySelector('#message').textContent.trim()")
        no_english(page, "a card chosen")
        page.locator(f'#board button[data-card="{pair.cards[1].name}"]').click()
        settled(page)
        game.play(pair)
        no_english(page, "a pair removed")
        covered = next(c for i, c in enumerate(game.pyramid)
                       if c is not None and not game.is_free_position(i))
        assert page.locator(f'#board [data-card="{covered.name}"]').count()
        page.keyboard.press("d")
        settled(page)
        no_english(page, "a card drawn")
        page.keyboard.press("u")
        settled(page)
        no_english(page, "a move taken back")
        context.set_offline(True)
        page.keyboard.press("d")
        page.wait_for_selector("html[data-offline-now]", state="attached")
        no_english(page, "offline")
        context.set_offline(False)
    finally:
        context.close()


def press(page, move) -> None:
    """Play ``move`` as a player taps it."""
    if move.op.value == "draw" or move.op.value == "recycle":
        page.keyboard.press("d")
    else:
        for card in move.cards:
            page.locator(f'#board button[data-card="{card.name}"]').click()
    settled(page)


def test_the_language_chosen_draws_the_pages_and_the_announcements(browser, server):
    context, page = phone(browser, server, locale="en-US")
    try:
        page.goto("/settings")
        assert page.locator("html").get_attribute("lang") == "en"
        options = page.locator("select[name=language] option")
        assert sorted(options.evaluate_all("os => os.map(o => o.value)")) == sorted(
            ["en", "de", "fr", "es", "ja", "ru"])
        page.select_option("select[name=language]", "de")
        page.locator("form[data-settings] [type=submit], form [type=submit]").first.click()
        page.wait_for_selector('html[lang="de"]')
        start_game(page, 5)
        settled(page)
        assert page.locator("html").get_attribute("lang") == "de"
        page.keyboard.press("d")
        settled(page)
        spoken = said(page)
        assert spoken and "Drew" not in spoken, spoken
    finally:
        context.close()


PAGES = ["/", "/rules", "/odds", "/settings", "/stats", "/daily", "/daily/calendar",
         "/learn", "/deal/1234", "/no-such-page"]


def every_kind_of_page(page) -> dict[str, str]:
    """The pages above, and a board, a won game's end, its replay and results, a lost game's
    analysis (the game pages of the player ``page`` is), by a name for their pictures that
    stays the same from run to run."""
    board = start_game(page, 5)
    settled(page)
    won = won_game(page)
    lost = lost_game(page)
    return {**{path.strip("/").replace("/", "-") or "home": path for path in PAGES},
            "board": board, "won": f"/games/{won}", "won-replay": f"/games/{won}/replay?step=5",
            "won-results": f"/games/{won}/results", "lost-analysis": f"/games/{lost}/analysis"}


def lost_game(page) -> str:
    """A game lost (through the API, the page's own cookies)."""
    created = page.request.post("/api/games", data={"deal": 1, "passes": 1})
    assert created.status == 201
    game_id = created.json()["id"]
    for move in lose_line(1):
        assert page.request.post(f"/api/games/{game_id}/moves", data=move.to_dict()).ok
    return game_id


SPILLED = """() => [...document.querySelectorAll(
    'main button, main .btn, main label, nav a, main summary')]
  .filter((el) => el.offsetParent && el.getClientRects().length)
  .filter((el) => {
    // Its words inside its box (a label wrapped past it, or clipped, shows here), and the
    // box on the screen.
    if (el.scrollWidth > el.clientWidth + 1) return true;
    const box = el.getBoundingClientRect();
    if (box.left < -1 || box.right > innerWidth + 1) return true;
    const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const rects = [];
    for (let text = texts.nextNode(); text; text = texts.nextNode()) {
      // (words kept for a screen reader in a 1 px box are no label on the screen)
      if (text.parentElement.getBoundingClientRect().width <= 1) continue;
      const words = document.createRange();
      words.selectNodeContents(text);
      rects.push(...words.getClientRects());
    }
    return rects.filter((r) => r.width > 1 && r.height > 1)
      .some((r) => r.left < box.left - 1 || r.right > box.right + 1
                   || r.top < box.top - 1 || r.bottom > box.bottom + 1);
  })
  .map((el) => el.outerHTML.slice(0, 120))"""


AXE_CHECKED = ("de", "ja")
"""Long German words and Japanese script, in a screen reader's and a checker's eyes: on these
every kind of page is also checked with axe (no serious or critical violation: names,
contrast, lang), on the same visit."""


@pytest.mark.parametrize("language", ["de", "fr", "es", "ja", "ru"])
def test_every_language_fits_a_small_phone(browser, server, artifacts, language):
    """German is the longest; Russian and French close behind; Japanese has no spaces to
    break at. One browser page a language visits every kind of page, then plays a move (the
    board's every control shown): no page scrolls sideways, no button's words leave it; in
    ``AXE_CHECKED`` languages, no page has a serious accessibility violation."""
    context, page = phone(browser, server, width=360, height=640, locale=language)
    checked = {}
    try:
        for name, path in every_kind_of_page(page).items():
            page.goto(path)
            page.wait_for_selector("main")
            page.wait_for_load_state("load")
            assert page.locator("html").get_attribute("lang") == language, path
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
            assert not page.evaluate(SPILLED), (path, page.evaluate(SPILLED))
            if language in AXE_CHECKED:
                checked[path] = violations(page)
            page.screenshot(path=str(artifacts / f"{language}-360-{name}.png"))
        assert not serious(checked, f"{language} "), serious(checked, f"{language} ")
        start_game(page, 5)
        page.locator("[data-stock-back]").tap()
        page.wait_for_selector('#board[data-moves="1"]')
        page.wait_for_selector('[data-action="pause"]:not([hidden])')
        assert not page.evaluate(SPILLED), ("board", page.evaluate(SPILLED))
        assert page.evaluate("document.documentElement.scrollHeight") <= 640
    finally:
        context.close()
