"""Races in the browser: two racers (one on a phone) and a watcher. The countdown
ends for both racers on their boards; a move shows on the other racer's strip and the
watcher's; the results on the race page agree with the API. Phone-size screenshots of the
race page and a racer's board in tests/artifacts/."""

from __future__ import annotations

import pytest

PHONE = {"width": 390, "height": 844}


def context_page(browser, server, viewport):
    context = browser.new_context(viewport=viewport, base_url=server.url,
                                  reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def lose_through_the_api(page, game_id: str) -> None:
    """Draw and recycle (any move when neither is left) until the game has ended."""
    for _ in range(300):
        state = page.request.get(f"/api/games/{game_id}").json()
        if state["status"] != "playing":
            return
        ops = {move["op"]: move for move in state["legal_moves"]} if "legal_moves" in state \
            else {}
        move = ops.get("draw") or ops.get("recycle") or {"op": "draw"}
        answer = page.request.post(f"/api/games/{game_id}/moves", data=move)
        if answer.status == 422:
            answer = page.request.post(f"/api/games/{game_id}/moves", data={"op": "recycle"})
        if answer.status == 422:  # neither: the game is stuck on pairs; leave it
            page.request.post("/api/games", data={"deal": 7})
            return
    raise AssertionError("the game did not end")


SAID = """kinds => {
  const strip = document.querySelector("[data-race]");
  const region = strip && strip.querySelector("[data-race-announce][aria-live='polite']");
  if (!region) return false;
  const text = region.textContent;
  const name = kind => kind.charAt(0).toUpperCase() + kind.slice(1);
  return kinds.some(kind => kind === "progress" ? / \\d+ /.test(text) :
    text.includes(strip.dataset["wordStatus" + name(kind)]));
}"""
"""Whether the live region of the page's race strip says a racer's progress (cards left) or
one of these finishes (in the page's words)."""


def test_two_racers_and_a_watcher(browser, server, artifacts):
    contexts = []
    try:
        creator_context, creator = context_page(browser, server, {"width": 1280, "height": 860})
        racer_context, racer = context_page(browser, server, PHONE)
        watcher_context, watcher = context_page(browser, server, {"width": 1024, "height": 768})
        contexts = [creator_context, racer_context, watcher_context]
        creator.goto("/")
        creator.click('[data-action="race"]')
        creator.wait_for_url("**/races/*")
        race_url = creator.url
        key = race_url.rsplit("/", 1)[1]
        racer.goto(race_url)
        racer.click('[data-action="join"]')
        racer.wait_for_selector("[data-racer='2'].is-you")
        watcher.goto(race_url)
        creator.wait_for_selector("[data-racer='2']")  # the join came through the stream
        watcher.wait_for_selector("[data-racer='2']")
        assert watcher.locator('[data-action="join"]').count() == 1  # a watcher may still join
        racer.screenshot(path=str(artifacts / "race-390x844.png"), full_page=True)
        racer.click('[data-action="ready"]')  # shown live on the others' strips
        creator.wait_for_selector("[data-racer='2'][data-ready='true']")
        watcher.wait_for_selector("[data-racer='2'][data-ready='true']")
        creator.click('[data-action="start"]')
        # The countdown ends on both racers' pages: each goes to its own board.
        watcher.wait_for_selector("[data-race][data-race-status='countdown']")
        creator.wait_for_url("**/games/*")
        racer.wait_for_url("**/games/*")
        watcher.wait_for_selector("[data-race][data-race-status='running']")
        racer.wait_for_selector("#board[data-game]")
        racer.wait_for_selector("[data-race] [data-racer='1']")
        racer.screenshot(path=str(artifacts / "race-board-390x844.png"))
        width = racer.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"]
        # A move on the phone: the others' strips show it.
        racer.keyboard.press("d")
        creator.wait_for_selector("[data-race] [data-racer='2'][data-moves='1']")
        watcher.wait_for_selector("[data-race] [data-racer='2'][data-moves='1']")
        # A screen reader hears it in the polite live region (the first news at once, then at
        # most one every few seconds; a finish at once).
        creator.wait_for_function(SAID, arg=["progress"])
        # Both games end; the race's results on the page are the API's.
        racer_game = racer.url.rsplit("/", 1)[1]
        creator_game = creator.url.rsplit("/", 1)[1]
        lose_through_the_api(racer, racer_game)
        creator.wait_for_function(SAID, arg=["won", "lost", "gone", "out"])
        lose_through_the_api(creator, creator_game)
        watcher.wait_for_selector("[data-race-page] [data-race][data-race-status='finished']")
        watcher.wait_for_selector(".racer-replay")  # the page drawn again, with the replays
        shown = watcher.request.get(f"/api/races/{key}").json()
        assert shown["status"] == "finished"
        on_page = watcher.eval_on_selector_all(
            "[data-race-page] [data-racer]",
            "rows => rows.map(r => [Number(r.dataset.racer), r.dataset.status])")
        assert on_page == [[r["id"], r["status"]] for r in shown["racers"]]
        watcher.screenshot(path=str(artifacts / "race-results-1024x768.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640},
                                      {"width": 844, "height": 390}])
def test_the_race_page_fits_a_phone(browser, server, artifacts, viewport):
    context, page = context_page(browser, server, viewport)
    try:
        page.goto("/")
        page.click('[data-action="race"]')
        page.wait_for_selector("[data-race]")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        name = f"race-{viewport['width']}x{viewport['height']}.png"
        page.screenshot(path=str(artifacts / name), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844},
                                      {"width": 360, "height": 640},
                                      {"width": 844, "height": 390}])
def test_a_racers_board_with_its_strip_fits_a_phone(browser, server, artifacts, viewport):
    context = browser.new_context(viewport=viewport, base_url=server.url, has_touch=True,
                                  is_mobile=True, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto("/")
        page.click('[data-action="race"]')
        page.click('[data-action="start"]')
        page.wait_for_url("**/games/*")
        page.wait_for_selector("#board[data-game]")
        page.wait_for_selector("[data-race] [data-racer='1'][data-status='playing']")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        box = page.locator(".pyramid").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        strip = page.locator("[data-race]").bounding_box()
        assert strip["height"] <= 40  # one line of chips, whatever the racers
        name = f"race-board-{viewport['width']}x{viewport['height']}.png"
        page.screenshot(path=str(artifacts / name))
    finally:
        context.close()


def test_the_race_page_and_a_racers_board_pass_axe(page):
    from tests.e2e.test_accessibility import serious, violations

    checked = {}
    page.goto("/")
    page.click('[data-action="race"]')
    page.wait_for_selector("[data-race] [data-racer='1']")
    checked["race, waiting"] = violations(page)
    page.click('[data-action="start"]')
    page.wait_for_url("**/games/*")
    page.wait_for_selector("[data-race] [data-racer='1'][data-status='playing']")
    checked["racer's board"] = violations(page)
    bad = serious(checked)
    assert not bad, "\n".join(bad)
