"""How fast the board's batches reach the server, played at a script's speed and at a fast
person's, and whether the game stays ranked (app/store/pace.py, docs/players.md).

    .venv/bin/python bench/batch_pace.py [--deal 617] [--goal standard]

Starts the app (uvicorn, a temporary SQLite database) and headless Chromium, and plays the
solver's winning line on the board by clicking its cards and pressing D:

- as fast as the script can (no wait between inputs), with no added latency and with 150 and
  600 ms of it (a slow network: the page keeps playing while a batch is on its way, and sends
  what was played meanwhile as the next batch);
- a fast person: an input every 300 ms (a pair is two clicks: 600 ms a pair), and every 200 ms;
- the stock drawn by holding D (the key repeats every 33 ms) and then an input every 300 ms.

For each: the batches the page sent (how many, the most moves in one, the inputs a second over
the game) and whether the server ranked the game.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import chromium as find_chromium
from play_feel import conditions, new_game, settled, start_server

from app.engine import Deal, Game, Move
from app.engine.solver import solve


def play(browser, url: str, deal: int, goal: str, *, latency: int = 0, gap: float = 0.0,
         held_draws: bool = False) -> str:
    game = Game(Deal.from_number(deal), goal, 3)
    held = [Move.draw() for _ in range(24)] if held_draws else []
    for move in held:  # the whole stock drawn first (24 cards in the standard deal)
        game.play(move)
    line = [*held, *solve(game).moves]
    context, page = new_game(browser, url, deal, goal)
    conditions(page, latency)
    batches: list[tuple[float, int]] = []
    answers: list[dict] = []

    def sent(request) -> None:
        if request.method == "POST" and "moves=" in (request.post_data or ""):
            moves = parse_qs(request.post_data).get("moves", [""])[0].split()
            batches.append((time.perf_counter(), len(moves)))

    def answered(response) -> None:
        if response.request.method == "POST" and "moves=" in (response.request.post_data or ""):
            with contextlib.suppress(Exception):  # an answer that is not JSON is not counted
                answers.append(response.json())

    page.on("request", sent)
    page.on("response", answered)
    began = time.perf_counter()
    for number, move in enumerate(line):
        if move.op.value == "remove":
            for card in move.cards:
                page.click(f'#board button[data-card="{card.name}"]')
                time.sleep(gap)
        else:
            page.keyboard.press("d")
            time.sleep(0.033 if number < len(held) else gap)
    page.wait_for_selector('#board[data-status="won"]', state="attached", timeout=120_000)
    settled(page)
    took = time.perf_counter() - began
    game_id = next(a["id"] for a in answers if a.get("id"))
    state = page.request.get(f"/api/games/{game_id}").json()
    context.close()
    most = max(count for _, count in batches)
    return (f"{len(line)} moves in {took:5.1f} s ({len(line) / took:4.1f}/s): "
            f"{len(batches)} batches, at most {most} moves in one; "
            f"ranked {state['ranked']} ({state.get('unranked_why')})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=617)
    parser.add_argument("--goal", default="standard")
    args = parser.parse_args()
    chromium = find_chromium()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "bench.db")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium,
                                                     args=["--no-sandbox"])
                for label, options in (
                        ("script, no added latency", {}),
                        ("script, +150 ms latency", {"latency": 150}),
                        ("script, +600 ms latency", {"latency": 600}),
                        ("person, an input every 300 ms", {"gap": 0.3}),
                        ("person, every 300 ms, +600 ms latency", {"gap": 0.3, "latency": 600}),
                        ("person, an input every 200 ms", {"gap": 0.2}),
                        ("D held (33 ms), then every 300 ms", {"gap": 0.3,
                                                              "held_draws": True})):
                    print(f"{label:<40} {play(browser, url, args.deal, args.goal, **options)}")
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
