"""Frames while cards fly, on a slow phone's CPU (issue 36: no frame over 50 ms).

    .venv/bin/python bench/motion.py [--deal 617] [--rate 4] [--moves 40]

Starts the app as bench/play_feel.py does, opens a deal at 390x844 (touch) with motion on,
slows Chromium's CPU ``--rate`` times (``Emulation.setCPUThrottlingRate``), and plays the
solver's winning line, one input at a time, each once the last one's flights have landed. The
page records the gap between successive animation frames (``requestAnimationFrame``) while
cards are in flight (from each press until its flights land), and, separately, the frame the
press itself was drawn in. Prints the median, p95 and worst frame gaps, and the machine's
speed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from machine import chromium as find_chromium
from machine import speed_line
from play_feel import settled, start_server

from app.engine import Deal, Game
from app.engine.solver import solve

WATCH = """() => {
  window.frameGaps = []; window.pressFrames = [];
  if (window.SOUND_OFF) document.documentElement.dataset.sound = "off";
  let last = null;
  const tick = (now) => {
    const flying = document.querySelector('.card.flying');
    if (last !== null && flying) {
      window.frameGaps.push(now - last);
      window.frameMoves = window.frameMoves || [];
      window.frameMoves.push(document.getElementById('board').dataset.moves);
    }
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=617)
    parser.add_argument("--rate", type=float, default=4)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    chromium = find_chromium()
    from playwright.sync_api import sync_playwright

    line = solve(Game(Deal.from_number(args.deal), "wholedeck", 3)).moves[:args.moves]
    print(speed_line())
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "bench.db")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium,
                                                     args=["--no-sandbox"])
                context = browser.new_context(
                    viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                    reduced_motion="no-preference", base_url=url)
                page = context.new_page()
                page.goto(f"/deal/{args.deal}?goal=wholedeck&passes=3")
                page.wait_for_function("() => !!window.pyramidBoard")
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.rate})
                if os.environ.get("SOUND_OFF"):
                    page.evaluate("() => { window.SOUND_OFF = true; }")
                page.evaluate(WATCH)
                for number, move in enumerate(line, start=1):
                    page.wait_for_function("() => !document.querySelector('.card.flying')",
                                           polling=100)
                    if move.op.value == "remove":
                        for card in move.cards:
                            page.tap(f'#board button[data-card="{card.name}"]')
                    else:
                        page.keyboard.press("d")
                    page.wait_for_function(
                        "n => document.getElementById('board').dataset.moves === String(n)",
                        arg=number, polling=100)
                page.wait_for_function("() => !document.querySelector('.card.flying')",
                                       polling=100)
                settled(page)
                gaps = page.evaluate("window.frameGaps")
                moves_at = page.evaluate("window.frameMoves")
                feel = page.evaluate("window.pyramidFeel")
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)
    print(f"frames while cards fly, CPU slowed {args.rate:g}x: median "
          f"{statistics.median(gaps):.1f} ms, p95 {percentile(gaps, .95):.1f} ms, worst "
          f"{max(gaps):.1f} ms ({len(gaps)} frames, {len(line)} inputs)")
    slow = sorted(((gap, index) for index, gap in enumerate(gaps) if gap > 34), reverse=True)
    print(f"frames over 34 ms: {len(slow)} ("
          + ", ".join(f"{gap:.0f} ms at move {moves_at[index]}" for gap, index in slow[:5]) + ")")
    print(f"press to painted, same run: median {statistics.median(feel):.1f} ms, p95 "
          f"{percentile(feel, .95):.1f} ms, worst {max(feel):.1f} ms")
    print(speed_line())


if __name__ == "__main__":
    main()
