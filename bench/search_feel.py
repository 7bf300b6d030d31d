"""The board while the device's solver searches (issue 45: "the board's press-to-paint unchanged
while a search runs, no frame over 50 ms"), in Chromium with the CPU slowed (4x by default).

    .venv/bin/python bench/search_feel.py [--cpu 4] [--presses 30] [--deal 62644]

Starts the app as bench/play_feel.py does and opens deal ``--deal`` (whole deck, 2 passes: the
worker's verdict search of a position there takes about a second natively). The page is
instrumented before its scripts run: every ``requestAnimationFrame`` timestamp (the frame
gaps), Chromium's long animation frames (``PerformanceObserver``, ``long-animation-frame``)
and the worker's questions (each search's start and its answer or its end by a newer
position). Then, CPU slowed:

- **presses during a search**: a draw (a new position, so a new search, asked once the draw
  is painted), then card presses (select, deselect: the position unchanged) a tenth of a
  second apart while that search runs; again until ``--presses`` card presses are made;
- the same with no worker at all (no search), for comparison.

Prints, for each: press to paint (the press event to the frame that shows it,
``window.pyramidFeel``) of the card presses and of the draws, the frame gaps while a search
ran (median, p95, max, how many over 50 ms), the long animation frames then, and the machine's
speed and load (``uptime``) before and after.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from device_hints import open_game, p95
from machine import chromium as find_chromium
from machine import speed_line
from play_feel import conditions, start_server

WATCH = """(() => {
  window.benchSearches = [];
  window.benchFrames = [];
  window.benchLong = [];
  const Real = window.Worker;
  if (Real) {
    const last = () => window.benchSearches[window.benchSearches.length - 1];
    window.Worker = class extends Real {
      constructor(...args) {
        super(...args);
        this.addEventListener("message", () => {
          const s = last();
          if (s && s.end === undefined) s.end = performance.now();
        });
      }
      postMessage(message, ...rest) {
        window.benchSearches.push({ start: performance.now(), kind: message && message.kind });
        return super.postMessage(message, ...rest);
      }
      terminate() {
        const s = last();
        if (s && s.end === undefined) { s.end = performance.now(); s.stale = true; }
        return super.terminate();
      }
    };
  }
  const tick = (t) => { window.benchFrames.push(t); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.benchLong.push({ start: e.startTime, duration: e.duration,
          blocking: e.blockingDuration || 0,
          scripts: (e.scripts || []).map((s) => ({ invoker: s.invoker,
            source: (s.sourceURL || "").split("/").pop(), name: s.sourceFunctionName,
            duration: Math.round(s.duration) })) });
      }
    }).observe({ type: "long-animation-frame", buffered: true });
  } catch (error) { window.benchLong = null; }
})();"""

SEARCHING = """() => {
  const s = window.benchSearches[window.benchSearches.length - 1];
  return Boolean(s && s.end === undefined);
}"""

# A free pyramid card that pairs with nothing when pressed alone (not a King): pressed twice,
# it is selected then deselected, and the position stays the same.
CARD = """() => {
  const free = [...document.querySelectorAll('#board .pyramid button[data-card]:not([disabled])')]
    .find((b) => !b.dataset.card.startsWith('K'));
  return free ? free.dataset.card : null;
}"""


def feel_count(page) -> int:
    return page.evaluate("window.pyramidFeel.length")


def press_card(page, name: str) -> None:
    """One press on a card, waited for until its frame is painted."""
    count = feel_count(page)
    page.click(f'#board button[data-card="{name}"]')
    page.wait_for_function("(n) => window.pyramidFeel.length > n", arg=count)



def draw(page, moves: int, worker: bool = True) -> None:
    """Press D, the game's ``moves``-th move, and wait until it is painted and, with a worker,
    until the new position's search is asked (once the draw is painted)."""
    count = feel_count(page)
    asked = page.evaluate("window.benchSearches.length")
    page.keyboard.press("d")
    page.wait_for_selector(f'#board[data-moves="{moves}"]', state="attached")
    page.wait_for_function("(n) => window.pyramidFeel.length > n", arg=count)
    if worker:
        page.wait_for_function("(n) => window.benchSearches.length > n", arg=asked)

def session(browser, url: str, deal: int, cpu: float, presses: int, worker: bool) -> dict:
    context, page = open_game(browser, url, deal, "wholedeck", 2, 0, worker)
    if worker:  # the board's first verdict done: the searches measured are the presses'
        page.wait_for_selector("[data-verdict-note][data-device-verdict]", state="attached",
                               timeout=120_000)
    page.evaluate("window.pyramidFeel = []")
    conditions(page, 0, cpu, offline=True)
    began = page.evaluate("performance.now()")  # what the page did before is not measured
    card_feel: list[float] = []
    draw_feel: list[float] = []
    windows: list[tuple[float, float]] = []
    draws = 0
    while len(card_feel) < presses and draws < 48:
        draws += 1
        draw(page, draws, worker)
        draw_feel.append(page.evaluate("window.pyramidFeel[window.pyramidFeel.length - 1]"))
        card = page.evaluate(CARD)
        while card and len(card_feel) < presses and (not worker or page.evaluate(SEARCHING)):
            for _ in range(2):
                count = feel_count(page)
                press_card(page, card)
                card_feel.append(page.evaluate(f"window.pyramidFeel[{count}]"))
            page.wait_for_timeout(100)  # a bench, not a test: presses a tenth of a second apart
            if not worker and len(card_feel) % 6 == 0:
                break  # a few presses a position, as while a search runs
    frames = page.evaluate("window.benchFrames")
    searches = page.evaluate("window.benchSearches")
    long = page.evaluate("window.benchLong")
    context.close()
    if worker:
        windows = [(s["start"], s["end"]) for s in searches
                   if s.get("end") is not None and s["start"] >= began]
    else:  # no search: the whole measured stretch
        windows = [(began, frames[-1])]
    gaps = [b - a for a, b in pairwise(frames)
            if any(start <= a and b <= end for start, end in windows)]
    during = [e for e in (long or []) if any(start <= e["start"] <= end for start, end in windows)]
    return {"card": card_feel, "draw": draw_feel, "gaps": gaps, "long": during,
            "searches": len(windows), "searched_ms": sum(end - start for start, end in windows),
            "loaf": long is not None}


def said(label: str, values: list[float]) -> str:
    if not values:
        return f"{label:<44} (none)"
    return (f"{label:<44} median {statistics.median(values):7.1f} ms   p95 {p95(values):7.1f} ms"
            f"   max {max(values):7.1f} ms   (n={len(values)})")


def report(title: str, found: dict) -> None:
    print(f"-- {title}: {found['searches']} searches, {found['searched_ms'] / 1000:.1f} s "
          "searching" if title.startswith("worker") else f"-- {title}")
    print(said("  press to paint, card presses", found["card"]))
    print(said("  press to paint, draws (a new search each)", found["draw"]))
    print(said("  frame gaps (requestAnimationFrame)", found["gaps"]))
    over = sum(1 for gap in found["gaps"] if gap > 50)
    print(f"  frames over 50 ms: {over} of {len(found['gaps'])}")
    if found["loaf"]:
        durations = [e["duration"] for e in found["long"]]
        blocking = [e["blocking"] for e in found["long"]]
        print(f"  long animation frames: {len(durations)}"
              + (f", longest {max(durations):.0f} ms, most blocking {max(blocking):.0f} ms"
                 if durations else ""))
        # What ran in them (Chromium's attribution): the scripts' total time by where they are.
        where: dict[str, float] = {}
        for entry in found["long"]:
            for script in entry["scripts"]:
                key = f"{script['source'] or '?'} ({script['invoker'].split('/')[-1]})"
                where[key] = where.get(key, 0) + script["duration"]
        for key, total in sorted(where.items(), key=lambda item: -item[1])[:4]:
            print(f"    {total:6.0f} ms in {key}")
        unattributed = sum(e["duration"] for e in found["long"]) - sum(where.values())
        print(f"    {unattributed:6.0f} ms not in any script (style, layout, paint, waiting)")



def instrumented_browser(playwright, chromium: str):
    """Chromium whose every new context runs ``WATCH`` before the page's scripts."""
    browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
    original = browser.new_context

    def instrumented(**kwargs):
        context = original(**kwargs)
        context.add_init_script(WATCH)
        return context

    browser.new_context = instrumented
    return browser

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", type=float, default=4, help="Chromium's CPU slow-down")
    parser.add_argument("--presses", type=int, default=30, help="card presses a run")
    parser.add_argument("--deal", type=int, default=62644)
    args = parser.parse_args()
    chromium = find_chromium()
    from playwright.sync_api import sync_playwright

    print(speed_line())
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "bench.db")
        try:
            with sync_playwright() as playwright:
                browser = instrumented_browser(playwright, chromium)
                print(f"deal {args.deal}, whole deck, 2 passes; CPU slowed {args.cpu:g}x")
                report("worker searching", session(browser, url, args.deal, args.cpu,
                                                   args.presses, True))
                report("no worker (no search)", session(browser, url, args.deal, args.cpu,
                                                        args.presses, False))
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)
    print(speed_line())
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
