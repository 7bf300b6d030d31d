"""Press to painted board: how long a player waits for each input, in Chromium.

    .venv/bin/python bench/play_feel.py [--deal 617] [--goal wholedeck] [--rounds 2]

Starts the app (uvicorn, a temporary SQLite database), starts a deal in headless Chromium and
plays the solver's winning line by clicking its cards and pressing D, as a player does. The
page plays each input with its own engine and measures, for every press, the time from the
real ``pointerdown`` (or key) event's timestamp to the first frame painted after the board
showed it (``window.pyramidFeel``).

Runs: no added latency, 150 ms added (Chromium's network emulation), no network at all (the
moves kept on the device, sent once the network is back), and the CPU slowed four times (a
phone's speed). Then ten D presses in a row with 300 ms of latency: the time from the first
press until the server holds them all (``<html data-inputs="0">``). Prints medians, p90 and
max, and the machine's speed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import free_port  # noqa: E402
from machine import chromium as find_chromium  # noqa: E402
from machine import speed_line  # noqa: E402

from app.engine import Deal, Game  # noqa: E402
from app.engine.solver import solve  # noqa: E402

SECRET = "bench-secret-key-0123456789abcdefghij"


def start_server(database: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "ENVIRONMENT": "test",
           "SECRET_KEY": SECRET}
    subprocess.run([sys.executable, "-m", "app.prestart"], cwd=PROJECT_DIR, env=env, check=True,
                   capture_output=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port",
         str(port), "--log-level", "warning"], cwd=PROJECT_DIR, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def conditions(page, latency_ms: int, cpu_rate: float = 1, offline: bool = False) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency_ms, "downloadThroughput": -1,
        "uploadThroughput": -1})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu_rate})
    page.context.set_offline(offline)


def settled(page) -> None:
    page.wait_for_selector('html[data-inputs="0"]', state="attached", timeout=60_000)


def new_game(browser, url: str, deal: int, goal: str):
    context = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=url,
                                  reduced_motion="reduce")
    page = context.new_page()
    page.goto("/")
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    started = page.request.post(f"/deal/{deal}", form={"goal": goal, "passes": "3",
                                                       "csrf_token": token}, max_redirects=0)
    page.goto(started.headers["location"])
    settled(page)
    return context, page


def play(browser, url: str, deal: int, goal: str, latency: int, cpu_rate: float = 1,
         offline: bool = False) -> list[float]:
    line = solve(Game(Deal.from_number(deal), goal, 3)).moves
    context, page = new_game(browser, url, deal, goal)
    conditions(page, latency, cpu_rate, offline)
    for number, move in enumerate(line, start=1):
        if move.op.value == "remove":
            for card in move.cards:
                page.click(f'#board button[data-card="{card.name}"]')
        else:
            page.keyboard.press("d")
        page.wait_for_selector(f'#board[data-moves="{number}"]', state="attached")
    page.wait_for_selector('#board[data-status="won"]')
    context.set_offline(False)
    settled(page)
    feel = page.evaluate("window.pyramidFeel")
    context.close()
    return feel


def ten_draws(browser, url: str, latency: int) -> float:
    context, page = new_game(browser, url, 42, "standard")
    conditions(page, latency)
    began = time.perf_counter()
    for _ in range(10):
        page.keyboard.press("d")
    settled(page)
    took = time.perf_counter() - began
    assert page.locator('[data-count="waste"]').inner_text() == "10"
    context.close()
    return took


def line(label: str, values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (f"{label:<44} median {statistics.median(ordered):6.1f} ms   p90 {p90:6.1f} ms   "
            f"max {ordered[-1]:6.1f} ms   (n={len(ordered)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=617)
    parser.add_argument("--goal", default="wholedeck")
    parser.add_argument("--rounds", type=int, default=2, help="games per condition")
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
                for label, latency, cpu, offline in (
                        ("no added latency", 0, 1, False), ("+150 ms latency", 150, 1, False),
                        ("no network", 0, 1, True), ("CPU slowed 4x", 0, 4, False)):
                    feel = []
                    for _ in range(args.rounds):
                        feel += play(browser, url, args.deal, args.goal, latency, cpu, offline)
                    print(line(f"press to painted, {label}", feel))
                draws = [1000 * ten_draws(browser, url, 300) for _ in range(5)]
                print(line("ten D presses to in step, +300 ms latency", draws))
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
