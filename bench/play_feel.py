"""Click to redrawn board: how long a player waits after each click, in Chromium.

Starts the app (uvicorn, a temporary SQLite database), opens a deal link in headless Chromium
and plays the solver's winning line by clicking, as a player does. For every click it measures,
inside the page, the time from the click to the board that the server's answer drew
(``<html data-inputs="0">``: nothing queued, nothing in flight), and to the next frame after it
(the board on screen). Prints median, p90 and max, with and without reduced motion.

    .venv/bin/python bench/play_feel.py [--deal 617] [--goal wholedeck] [--rounds 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))

from app.engine import Deal, Game  # noqa: E402
from app.engine.solver import solve  # noqa: E402

CLICK_AND_WAIT = """
async (selector) => {
  const root = document.documentElement;
  const settled = () => root.dataset.inputs === "0" && !document.querySelector("#board[aria-busy]");
  const start = performance.now();
  const done = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (settled()) { observer.disconnect(); resolve(performance.now() - start); }
    });
    observer.observe(root, { attributes: true, subtree: true, childList: true });
  });
  document.querySelector(selector).click();
  const swapped = await done;
  const painted = await new Promise((resolve) =>
    requestAnimationFrame(() => resolve(performance.now() - start)));
  return [swapped, painted];
}
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(database: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "ENVIRONMENT": "test",
           "SECRET_KEY": "bench-secret-key-0123456789abcdefghij"}
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


def selectors(move) -> list[str]:
    if move.op.value == "remove":
        return [f'#board button[data-card="{card.name}"]' for card in move.cards]
    if move.op.value == "draw":
        return ["#board [data-action=draw]"]
    return ["#board [data-action=recycle]"]


def play(browser, url: str, deal: int, goal: str, reduced: bool) -> list[tuple[float, float]]:
    line = solve(Game(Deal.from_number(deal), goal, 3)).moves
    if not line:
        raise SystemExit(f"deal {deal} is not winnable with the {goal} goal")
    context = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=url,
                                  reduced_motion="reduce" if reduced else "no-preference")
    page = context.new_page()
    page.goto(f"/deal/{deal}?goal={goal}&passes=3")
    page.wait_for_selector('html[data-inputs="0"]', state="attached")
    times = []
    for move in line:
        for selector in selectors(move):
            times.append(tuple(page.evaluate(CLICK_AND_WAIT, selector)))
    assert page.get_attribute("#board", "data-status") == "won"
    context.close()
    return times


def report(label: str, times: list[tuple[float, float]]) -> None:
    for index, name in ((0, "to the swapped board"), (1, "to the next frame")):
        values = sorted(t[index] for t in times)
        p90 = values[int(0.9 * (len(values) - 1))]
        print(f"{label:<22} {name:<22} median {statistics.median(values):6.1f} ms   "
              f"p90 {p90:6.1f} ms   max {values[-1]:6.1f} ms   (n={len(values)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=617)
    parser.add_argument("--goal", default="wholedeck")
    parser.add_argument("--rounds", type=int, default=1, help="games per motion setting")
    args = parser.parse_args()
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if not chromium:
        raise SystemExit("no Chromium: apt-get install chromium, or set CHROMIUM")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "bench.db")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium,
                                                     args=["--no-sandbox"])
                for reduced in (False, True):
                    times: list[tuple[float, float]] = []
                    for _ in range(args.rounds):
                        times += play(browser, url, args.deal, args.goal, reduced)
                    report("reduced motion" if reduced else "with motion", times)
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
