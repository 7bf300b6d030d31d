"""Screenshots of every theme, for docs/preferences.md: the board and the Settings page.

    .venv/bin/python bench/screenshots.py [--out docs/screenshots]

Starts the app (uvicorn, a temporary SQLite database) and headless Chromium, and for each
theme saves the player's preferences through the Settings form, then photographs the board of
deal 617 (a first game, with its tips, in the light theme; a few moves in, tips dismissed, in
the others), the same board on a phone, and the Settings page. One more board shows the
left-handed layout with larger cards. Then the challenge screens (Alice's win with its par and
difficulty, the link she sends opened by Bob, Bob's win beside hers) and the deal of the day's
calendar. Look at them after a change to the stylesheets.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from play_feel import start_server  # noqa: E402

DEFAULTS = {"theme": "light", "felt": "green", "back": "lattice", "motion": "auto",
            "sound": "on", "key_hints": "on"}
SHOTS = [
    # name, preferences, moves to play first (D presses), dismiss the tips
    ("light", {}, 0, False),
    ("dark", {"theme": "dark", "felt": "blue", "back": "rosette"}, 3, True),
    ("contrast", {"theme": "contrast", "back": "pyramid"}, 3, True),
    ("left-large", {"felt": "teal", "back": "pyramid", "left_handed": "on",
                    "large_cards": "on"}, 3, True),
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def shoot(browser, url: str, out: Path, name: str, choices: dict, draws: int,
          dismiss: bool) -> None:
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        if name == "left-large" and size == "phone":
            continue
        phone = size == "phone"
        context = browser.new_context(viewport=viewport, base_url=url, reduced_motion="reduce",
                                      has_touch=phone, is_mobile=phone)
        page = context.new_page()
        page.goto("/settings")
        token = page.locator('meta[name="csrf-token"]').get_attribute("content")
        answer = page.request.post("/settings", form={**DEFAULTS, **choices,
                                                      "csrf_token": token}, max_redirects=0)
        assert answer.status == 303, answer.status
        if size == "desktop" and name != "left-large":
            page.goto("/settings")
            page.screenshot(path=str(out / f"settings-{name}.png"), full_page=True)
        answer = page.request.post("/deal/617", form={"csrf_token": token}, max_redirects=0)
        page.goto(answer.headers["location"])
        page.wait_for_selector("#board[data-game]")
        if dismiss:
            page.click("[data-tips-dismiss]")
        for number in range(1, draws + 1):
            page.keyboard.press("d")
            page.wait_for_selector(f'#board[data-moves="{number}"]')
        page.wait_for_selector('html[data-inputs="0"]', state="attached")
        page.mouse.move(0, 0)
        page.screenshot(path=str(out / f"board-{name}-{size}.png"))
        context.close()


def win(page, deal: int) -> None:
    """Play a winning line of ``deal`` on the page's game through the API (its cookies)."""
    from app.engine import Deal, Game
    from app.engine.solver import solve

    game_id = page.get_attribute("#board", "data-game")
    for move in solve(Game(Deal.from_number(deal), "standard", 3)).moves:
        assert page.request.post(f"/api/games/{game_id}/moves", data=move.to_dict()).ok
    page.reload()
    page.wait_for_selector("[data-results]")


def open_deal(page, deal: int, query: str = "") -> None:
    page.goto(f"/deal/{deal}{query}")
    page.wait_for_selector("#board[data-play]")
    page.keyboard.press("d")  # the first input stores the game
    page.wait_for_selector('#board[data-game][data-moves="1"]')
    page.keyboard.press("u")
    page.wait_for_selector('#board[data-moves="0"]')
    page.wait_for_selector('html[data-inputs="0"]', state="attached")


def shoot_challenge(browser, url: str, out: Path) -> None:
    contexts = [browser.new_context(viewport=DESKTOP, base_url=url, reduced_motion="reduce")
                for _ in range(2)]
    alice, bob = (context.new_page() for context in contexts)
    for page, name in ((alice, "Alice"), (bob, "Bob")):
        page.goto("/stats")
        page.fill("#display-name", name)
        page.click('[data-action="save-name"]')
        page.wait_for_selector("[data-display-name]")
    open_deal(alice, 5)
    win(alice, 5)
    alice.screenshot(path=str(out / "challenge-1-sender-won.png"))
    link = alice.locator("a[data-challenge]").get_attribute("href")
    bob.goto(link)
    bob.wait_for_selector("[data-challenge-from]")
    bob.screenshot(path=str(out / "challenge-2-friend-opens.png"))
    bob.keyboard.press("d")
    bob.wait_for_selector('#board[data-game][data-moves="1"]')
    bob.keyboard.press("u")
    bob.wait_for_selector('#board[data-moves="0"]')
    bob.wait_for_selector('html[data-inputs="0"]', state="attached")
    win(bob, 5)
    bob.wait_for_selector("[data-challenge-result]")
    bob.locator("[data-challenge-result]").scroll_into_view_if_needed()
    bob.screenshot(path=str(out / "challenge-3-side-by-side.png"))
    alice.goto("/daily/calendar")
    alice.screenshot(path=str(out / "calendar.png"), full_page=True)
    for context in contexts:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PROJECT_DIR / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "pyramid.db")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                                     args=["--no-sandbox"])
                for name, choices, draws, dismiss in SHOTS:
                    shoot(browser, url, args.out, name, choices, draws, dismiss)
                shoot_challenge(browser, url, args.out)
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)
    print(f"saved in {args.out}")


if __name__ == "__main__":
    main()
