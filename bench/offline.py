"""Play with no network, timed in Chromium (issue 35's targets).

    .venv/bin/python bench/offline.py [--games 10] [--moves 50] [--rounds 5]

Starts the app as bench/play_feel.py does, then:

- **first visit**: every response of a first visit to a board (the page, its styles and
  scripts, and what the service worker keeps for play without network), each compressed with
  gzip as a server or proxy would send it; the total, and what the page itself asked for
  (copy this script and play_feel.py into an older checkout and run it there with
  ``--first-visit-only`` to compare);
- **offline reload**: a game with moves, the network cut, the page reloaded: the time from the
  reload to the board drawn with every move (``--rounds`` times);
- **sync**: ``--games`` games of up to ``--moves`` moves each begun and played with no
  network (random deals, "New game" offline), then the network back: the time until the
  server holds every game and every move.

Prints medians and the machine's speed.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import chromium as find_chromium
from machine import speed_line
from play_feel import new_game, settled, start_server

PLAY = """([moves]) => {
  const board = window.pyramidBoard;
  for (let i = 0; i < moves && board.local.playing; i++) {
    const legal = board.local.game.legalMoves();  // a pair now and then, else the stock
    const removal = i % 4 === 0 && legal.find((m) => m.cards.length);
    board.step(removal || legal[legal.length - 1]);
  }
  return board.local.game.moves.length;
}"""


def first_visit(browser, url: str) -> tuple[int, int, int]:
    """(gzip bytes of everything fetched, of the page's own needs, responses)."""
    context = browser.new_context(base_url=url)
    page = context.new_page()
    sizes: dict[str, int] = {}
    shell: set[str] = set()

    responses = []
    context.on("response", lambda response: responses.append(response))
    page.goto("/deal/617")
    page.wait_for_selector("#board[data-play]")
    page.wait_for_load_state("networkidle")
    if page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length"):
        page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                               timeout=30_000)
        page.wait_for_load_state("networkidle")
    for response in responses:
        try:
            body = response.body()
        except Exception:  # a redirect has no body
            continue
        sizes[response.url] = max(sizes.get(response.url, 0), len(gzip.compress(body, 6)))
        if response.request.service_worker is None:
            shell.add(response.url)
    context.close()
    own = sum(size for address, size in sizes.items() if address in shell)
    return sum(sizes.values()), own, len(sizes)


def offline_reload(browser, url: str) -> float:
    context, page = new_game(browser, url, 42, "standard")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    for _ in range(8):
        page.keyboard.press("d")
    settled(page)
    context.set_offline(True)
    page.keyboard.press("d")
    began = time.perf_counter()
    page.reload()
    page.wait_for_selector('#board[data-moves="9"]', state="attached")
    took = time.perf_counter() - began
    context.close()
    return took


def sync(browser, url: str, games: int, moves: int) -> tuple[float, int, int]:
    context = browser.new_context(base_url=url)
    page = context.new_page()
    page.goto("/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    context.set_offline(True)
    played = 0
    for _ in range(games):
        page.goto("/")
        page.click("[data-action=start]")
        page.wait_for_selector("[data-ask-leave]:not([hidden]), "
                               "#board[data-play]:not([data-shell])")
        if page.locator("[data-ask-leave]:not([hidden])").count():
            page.click('[data-ask-leave] [data-answer="yes"]')
        page.wait_for_selector("#board[data-play]:not([data-shell])")
        page.wait_for_function("() => !!window.pyramidBoard")
        played += page.evaluate(PLAY, [moves])
    began = time.perf_counter()
    context.set_offline(False)
    page.wait_for_function("""(games) => {
        const kept = Object.values(JSON.parse(localStorage.getItem('pyramid.games.v1')).games);
        return kept.filter(g => g.id && !g.steps.length).length >= games;
    }""", arg=games, timeout=120_000, polling=20)
    took = time.perf_counter() - began
    context.close()
    return took, games, played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--first-visit-only", action="store_true",
                        help="only the first visit's download (for an older checkout)")
    args = parser.parse_args()
    chromium = find_chromium()
    from playwright.sync_api import sync_playwright

    print(speed_line())
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "bench.db")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium,
                                                     args=["--no-sandbox"])
                total, own, count = first_visit(browser, url)
                print(f"first visit, gzip: {total / 1024:.1f} KiB in {count} responses "
                      f"(the page's own: {own / 1024:.1f} KiB; the rest is the worker's shell)")
                if args.first_visit_only:
                    return
                reloads = [1000 * offline_reload(browser, url) for _ in range(args.rounds)]
                print(f"offline reload to the board drawn: median "
                      f"{statistics.median(reloads):.0f} ms, max {max(reloads):.0f} ms "
                      f"(n={len(reloads)})")
                took, games, played = sync(browser, url, args.games, args.moves)
                print(f"sync: {games} games, {played} moves played offline, on the server "
                      f"{took * 1000:.0f} ms after the network came back")
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)
    print(speed_line())


if __name__ == "__main__":
    main()
