"""The pages beside the board, in Chromium at three phone sizes (touch) and on a desktop:
/odds fits a phone, /rules draws the pyramid, the home page's controls take a finger, no page
scrolls sideways at 360 px, axe finds nothing serious; "Try again from move N" marks the better
move on the board, and "How others did" shows once after a game on a deal's page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.engine import Deal, Game, Move
from app.engine.solver import solve

from .test_accessibility import serious, violations
from .test_board import click_move, wait_for_moves
from .test_coach import losing_game

pytestmark = pytest.mark.browser

PHONES = {"390x844": (390, 844), "360x640": (360, 640), "844x390": (844, 390)}
DESKTOP = (1280, 860)
FINGER = 44  # px: the least height of a control on a phone


def open_page(browser, server, size: tuple[int, int], touch: bool):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  has_touch=touch, is_mobile=touch, reduced_motion="reduce",
                                  base_url=server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def page_height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def open_every_fold(page) -> None:
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")


def play_by_api(page, number: int, moves, passes: int = 3) -> str:
    created = page.request.post("/api/games", data={"deal": number, "passes": passes})
    assert created.status == 201
    game_id = created.json()["id"]
    for move in moves:
        assert page.request.post(f"/api/games/{game_id}/moves", data=move.to_dict()).ok
    return game_id


@pytest.mark.parametrize("size", ["390x844", "360x640"])
def test_the_odds_fit_a_phone(browser, server, size, artifacts):
    width, height = PHONES[size]
    context, page = open_page(browser, server, (width, height), touch=True)
    try:
        page.goto("/odds")
        page.wait_for_selector("[data-odds-table]")
        # Was 9,516 px tall and 417 px wide at 390x844.
        assert page_width(page) <= width
        assert page_height(page) < 4000
        folds = page.locator("details.fold")
        assert folds.count() == 4
        assert all(fold.get_attribute("open") is None for fold in folds.all())
        page.screenshot(path=str(artifacts / f"odds-{size}.png"), full_page=True)
        # Everything open: still no sideways scroll, and no command wider than the screen.
        open_every_fold(page)
        page.wait_for_selector("[data-commands]", state="visible")
        assert page_width(page) <= width
        commands = page.locator("[data-commands]")
        box = commands.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert commands.evaluate("pre => pre.scrollWidth <= pre.clientWidth")
        page.screenshot(path=str(artifacts / f"odds-open-{size}.png"), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("size", [*PHONES, "1280x860"])
def test_the_rules_draw_the_pyramid_and_say_how_to_play_here(browser, server, size, artifacts):
    width, height = PHONES.get(size, DESKTOP)
    context, page = open_page(browser, server, (width, height), touch=size in PHONES)
    try:
        page.goto("/rules")
        drawing = page.locator("[data-pyramid-drawing] svg")
        drawing.scroll_into_view_if_needed()
        expect(drawing).to_be_visible()
        box = drawing.bounding_box()
        assert box["width"] >= min(300, width - 60) and box["x"] + box["width"] <= width
        assert page.locator("[data-pyramid-drawing] [data-row]").count() == 7
        assert page.locator("[data-pyramid-drawing] rect.dc").count() == 28
        page.screenshot(path=str(artifacts / f"rules-drawing-{size}.png"))
        here = page.locator("#how-to-play-here")
        here.scroll_into_view_if_needed()
        expect(here).to_be_visible()
        assert page_width(page) <= width
    finally:
        context.close()


@pytest.mark.parametrize("size", list(PHONES))
def test_the_home_page_s_controls_take_a_finger(browser, server, size, artifacts):
    width, height = PHONES[size]
    context, page = open_page(browser, server, (width, height), touch=True)
    try:
        page.goto("/")
        controls = page.locator("form.new-game :is(select, input[type=text], .btn, label.choice)")
        assert controls.count() >= 8
        for control in controls.all():
            box = control.bounding_box()
            assert box["height"] >= FINGER, (control.evaluate("c => c.outerHTML")[:120], box)
        select = page.locator("#difficulty").bounding_box()
        assert select["width"] >= 120  # was 97x19
        assert page_width(page) <= width
        page.screenshot(path=str(artifacts / f"home-{size}.png"), full_page=True)
    finally:
        context.close()


def test_a_difficulty_without_the_box_deals_a_winnable_deal(page):
    page.goto("/")
    page.select_option("#difficulty", "easy")
    assert not page.locator("[data-winnable-only]").is_checked()
    page.click("[data-action=start]")
    page.wait_for_selector("#board[data-game]:not([data-game=''])")
    expect(page.locator("[data-winnable-deal]")).to_be_visible()
    page.goto("/")
    assert page.locator("[data-winnable-only]").is_checked()
    assert page.locator("#difficulty").input_value() == "easy"


@pytest.fixture(scope="module")
def lost():
    return losing_game()


def test_try_again_marks_the_better_move_on_the_board(page, lost):
    number, moves, losing = lost
    page.goto("/")
    game_id = play_by_api(page, number, moves)
    better = Move.from_dict(page.request.get(f"/api/games/{game_id}/analysis")
                            .json()["better_move"])
    page.goto(f"/games/{game_id}")
    verdict = page.locator('[data-verdict="lost-at"]')
    expect(verdict).to_contain_text("instead would have kept the win")
    expect(verdict).not_to_contain_text("To remove")
    page.click('[data-action="retry"]')
    page.wait_for_url(lambda url: f"/games/{game_id}" not in url)
    page.wait_for_selector(f'#board[data-moves="{losing - 1}"]')
    if better.cards:
        for card in better.cards:
            expect(page.locator(f'#board .hinted[data-card="{card.name}"]')).to_have_count(1)
    else:
        expect(page.locator("#board .hinted")).not_to_have_count(0)
    expect(page.locator("#message")).to_contain_text(f"before move {losing}")
    # The mark goes with the next input, as a hint's does.
    click_move(page, better)
    wait_for_moves(page, losing)
    expect(page.locator("#board .hinted")).to_have_count(0)


def test_how_others_did_shows_once_after_a_game_on_a_deal_page(page):
    number = next(n for n in range(60, 200)
                  if solve(Game(Deal.from_number(n), "standard", 3)).winnable)
    line = solve(Game(Deal.from_number(number), "standard", 3)).moves
    page.goto(f"/deal/{number}")
    page.wait_for_selector("#board[data-game]")
    for count, move in enumerate(line, start=1):
        click_move(page, move)
        wait_for_moves(page, count)
    page.wait_for_selector('[data-banner="won"] [data-results] [data-deal-results]',
                           state="attached")
    page.click("[data-banner-more] > summary")  # the end's details, folded at first
    shown = page.locator("[data-deal-results]:visible")
    expect(shown).to_have_count(1)
    played = page.request.get(f"/deal/{number}").text()
    count = played.split("How others did on this deal (", 1)[1].split(" game", 1)[0]
    expect(shown.locator("summary")).to_contain_text(f"({count} game")


def changed_pages(page) -> dict[str, str]:
    """Every kind of page this work changed, for a player with games: a win, a loss, an
    abandoned game."""
    page.goto("/")
    won = play_by_api(page, 3, solve(Game(Deal.from_number(3), "standard", 3)).moves)
    number, moves, _ = losing_game()
    lost_id = play_by_api(page, number, moves)
    left = page.request.post("/api/games", data={"deal": 9}).json()["id"]
    assert page.request.post(f"/api/games/{left}/moves", data={"op": "draw"}).ok
    page.request.post("/api/games", data={"deal": 10})  # leaves deal 9: abandoned
    return {"home": "/", "odds": "/odds", "rules": "/rules", "stats": "/stats",
            "analysis": f"/games/{lost_id}/analysis", "results": f"/games/{won}/results"}


@pytest.mark.parametrize("size", ["360x640", "1280x860"])
def test_the_changed_pages_are_clean_and_never_scroll_sideways(browser, server, size, artifacts):
    width, height = PHONES.get(size, DESKTOP)
    context, page = open_page(browser, server, (width, height), touch=size in PHONES)
    try:
        checked = {}
        for name, path in changed_pages(page).items():
            page.goto(path)
            page.wait_for_load_state("networkidle")
            assert page_width(page) <= width, (name, page_width(page))
            checked[name] = violations(page)
            open_every_fold(page)
            assert page_width(page) <= width, (name, "folds open", page_width(page))
            checked[f"{name}, folds open"] = violations(page)
            page.screenshot(path=str(artifacts / f"page-{name}-{size}.png"), full_page=True)
        bad = serious(checked, f"{size} ")
        assert not bad, "\n".join(bad)
    finally:
        context.close()
