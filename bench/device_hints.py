"""Hints from the solver on the device, timed in Chromium (issue 45's targets).

    .venv/bin/python bench/device_hints.py [--positions 5] [--moves 10]
    .venv/bin/python bench/device_hints.py --served 5 [--hints 15]

Starts the app as bench/play_feel.py does, then, with the network cut:

- **hint**: for each rule set, ``--positions`` deals played ``--moves`` moves into the solver's
  winning line (through the API, then the board reloaded), the worker's verdict on the position
  awaited; then the hint asked (the board's own input) and timed from the ask to #board's
  ``data-hint-from="device"``: at full speed and with Chromium's CPU slowed 4x;
- **press to paint while a search runs**: deal 62644, whole deck, 2 passes, whose verdict
  search from the start takes about a second: ten draws pressed while the worker searches
  (each press starting a search of the new position), each press timed to its painted frame
  (``window.pyramidFeel``), beside deal 617 (searches of a millisecond) and the same with no
  worker (no search at all).

Prints medians and p95s, and the machine's speed. ``--served DEALS`` counts instead where the
hints a player asks online are answered (the issue's "hints served by the server per 100
asked, under 10"): DEALS deals of each rule set from their start, a hint asked and played,
``--hints`` times a game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import chromium as find_chromium
from machine import speed_line
from play_feel import conditions, settled, start_server

from app.engine import VARIANTS, Deal, Game
from app.engine.solver import solve

ASK = """() => new Promise((resolve) => {
  const board = document.getElementById("board");
  delete board.dataset.hintFrom;
  const began = performance.now();
  const seen = new MutationObserver(() => {
    if (!board.dataset.hintFrom) return;
    seen.disconnect();
    resolve([performance.now() - began, board.dataset.hintFrom]);
  });
  seen.observe(board, { attributes: true });
  window.pyramidBoard.take({ kind: "hint" });
})"""


def open_game(browser, url: str, deal: int, goal: str, passes: int, moves: int,
              worker: bool = True):
    context = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=url,
                                  reduced_motion="reduce")
    if not worker:
        context.add_init_script("delete window.Worker;")
    page = context.new_page()
    page.goto("/")
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    started = page.request.post(f"/deal/{deal}", form={"goal": goal, "passes": str(passes),
                                                       "csrf_token": token}, max_redirects=0)
    location = started.headers["location"]
    game_id = location.rstrip("/").split("/")[-1]
    line = solve(Game(Deal.from_number(deal), goal, passes)).moves or ()
    for move in line[:moves]:
        assert page.request.post(f"/api/games/{game_id}/moves", data=move.to_dict()).ok
    page.goto(location)
    settled(page)
    return context, page


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def said(label: str, values: list[float]) -> str:
    return (f"{label:<52} median {statistics.median(values):7.1f} ms   p95 {p95(values):7.1f} ms"
            f"   max {max(values):7.1f} ms   (n={len(values)})")


def hints(browser, url: str, positions: int, moves: int, cpu: float) -> list[float]:
    took = []
    for variant in VARIANTS:
        deal = 1
        found = 0
        while found < positions:
            deal += 1
            game = Game(Deal.from_number(deal), variant.goal, variant.passes)
            if not solve(game).winnable:
                continue
            found += 1
            context, page = open_game(browser, url, deal, variant.goal.value, variant.passes,
                                      moves)
            page.wait_for_selector("[data-verdict-note][data-device-verdict]", state="attached")
            conditions(page, 0, cpu, offline=True)
            ms, source = page.evaluate(ASK)
            assert source == "device", source
            took.append(ms)
            context.close()
    return took


def served(browser, url: str, deals: int, hints_a_game: int) -> dict[str, int]:
    """Online, as a player asks: on ``deals`` deals of each rule set (winnable or not), from the
    deal's start, a hint asked (the H key) and its move played (N), ``hints_a_game`` times or
    to the game's end; each hint counted by where it came from (``data-hint-from``)."""
    counted = {"device": 0, "server": 0}
    for variant in VARIANTS:
        for deal in range(101, 101 + deals):
            context, page = open_game(browser, url, deal, variant.goal.value, variant.passes, 0)
            for number in range(1, hints_a_game + 1):
                if page.get_attribute("#board", "data-status") != "playing":
                    break
                _ms, source = page.evaluate(ASK)
                counted[source] += 1
                page.keyboard.press("n")
                page.wait_for_selector(f'#board[data-moves="{number}"]', state="attached")
            context.close()
    return counted


def presses(browser, url: str, worker: bool, deal: int = 62644) -> list[float]:
    context, page = open_game(browser, url, deal, "wholedeck", 2, 0, worker)
    page.evaluate("window.pyramidFeel = []")
    for number in range(1, 11):
        page.keyboard.press("d")
        page.wait_for_selector(f'#board[data-moves="{number}"]', state="attached")
        page.wait_for_timeout(100)  # a bench, not a test: presses a tenth of a second apart
    feel = page.evaluate("window.pyramidFeel")
    context.close()
    return feel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=5, help="deals a rule set")
    parser.add_argument("--moves", type=int, default=10, help="moves into the winning line")
    parser.add_argument("--served", type=int, default=0, metavar="DEALS",
                        help="only count hints served by the server, on DEALS deals a rule set")
    parser.add_argument("--hints", type=int, default=15, help="hints a game, with --served")
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
                if args.served:
                    counted = served(browser, url, args.served, args.hints)
                    asked = sum(counted.values())
                    print(f"hints asked online: {asked}, answered on the device "
                          f"{counted['device']}, by the server {counted['server']} "
                          f"({100 * counted['server'] / asked:.1f} per 100 asked)")
                for cpu in (1, 4) if not args.served else ():
                    print(said(f"hint on the device, {args.moves} moves in, CPU {cpu}x",
                               hints(browser, url, args.positions, args.moves, cpu)))
                if not args.served:
                    print(said("press to paint, searching (62644 wholedeck 2)",
                               presses(browser, url, True)))
                    print(said("press to paint, quick searches (617 wholedeck 2)",
                               presses(browser, url, True, 617)))
                    print(said("press to paint, no worker", presses(browser, url, False)))
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)
    print(speed_line())


if __name__ == "__main__":
    main()
