"""What a press costs the board's thread while the device's solver searches: a CPU profile and a
timeline trace of the presses bench/search_feel.py makes, in Chromium with the CPU slowed.

    .venv/bin/python bench/press_profile.py [--cpu 4] [--presses 24] [--deal 62644] [--keep DIR]

Starts the app and opens deal ``--deal`` (whole deck, 2 passes) as bench/search_feel.py does,
waits for the worker's first verdict, cuts the network and slows the CPU; then, through a CDP
session, records Chromium's sampling profiler (``Profiler``, a sample every 0.1 ms) and a
timeline trace (``devtools.timeline``) while it makes draws (D) and, while each draw's search
runs, card presses (select, deselect) until ``--presses`` are made. Prints:

- each kind of event (pointerdown: the card presses; keydown: the draws): how long the browser
  spent dispatching it (the trace's EventDispatch, wall time) and how long the board's own
  listener ran in it (static/js/board/input.js; the rest is the test driver's own listeners);
- the frame after a card press, by phase (style, layout, paint, layerize, commit: the trace's
  events in the 120 ms after it, medians);
- where the board's script time went (the profile's time under input.js's listeners, inclusive,
  per press), and the audio context's making (sound.js ``audio``) if it happened meanwhile.

``--keep DIR`` keeps profile.cpuprofile and trace.json there (Chromium's DevTools opens both).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from device_hints import open_game, p95
from machine import chromium as find_chromium
from machine import speed_line
from play_feel import conditions, start_server
from search_feel import CARD, SEARCHING, draw, feel_count, instrumented_browser, press_card

PROJECT_DIR = Path(__file__).resolve().parent.parent

PHASES = ("UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit")


def record(browser, url: str, deal: int, cpu: float, presses: int,
           folder: Path) -> tuple[list[float], int]:
    context, page = open_game(browser, url, deal, "wholedeck", 2, 0, True)
    page.wait_for_selector("[data-verdict-note][data-device-verdict]", state="attached",
                           timeout=120_000)
    page.evaluate("window.pyramidFeel = []")
    conditions(page, 0, cpu, offline=True)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 100})
    browser.start_tracing(page=page, path=str(folder / "trace.json"),
                          categories=["devtools.timeline", "disabled-by-default-devtools.timeline"])
    cdp.send("Profiler.start")
    feel: list[float] = []
    draws = 0
    while len(feel) < presses and draws < 48:
        draws += 1
        draw(page, draws)
        card = page.evaluate(CARD)
        while card and len(feel) < presses and page.evaluate(SEARCHING):
            for _ in range(2):
                count = feel_count(page)
                press_card(page, card)
                feel.append(page.evaluate(f"window.pyramidFeel[{count}]"))
            page.wait_for_timeout(100)  # a bench, not a test: presses a tenth of a second apart
    profile = cdp.send("Profiler.stop")["profile"]
    browser.stop_tracing()
    (folder / "profile.cpuprofile").write_text(json.dumps(profile))
    context.close()
    return feel, draws


def main_thread(events: list[dict]) -> list[dict]:
    """The page's main thread: the one that dispatched the input events."""
    dispatching = Counter((e["pid"], e["tid"]) for e in events if e.get("name") == "EventDispatch")
    thread = dispatching.most_common(1)[0][0]
    return sorted((e for e in events if (e.get("pid"), e.get("tid")) == thread
                   and e.get("ph") == "X"), key=lambda e: e["ts"])


def said(label: str, values: list[float]) -> str:
    if not values:
        return f"  {label:<48} (none)"
    return (f"  {label:<48} median {statistics.median(values):6.1f} ms   p95 {p95(values):6.1f} ms"
            f"   max {max(values):6.1f} ms   (n={len(values)})")


def events_report(events: list[dict]) -> None:
    ours = "board/input.js"
    for kind, what in (("pointerdown", "card presses"), ("keydown", "draws (D)")):
        dispatched = [e for e in events if e["name"] == "EventDispatch"
                      and e["args"].get("data", {}).get("type") == kind]
        board = []
        for event in dispatched:
            end = event["ts"] + event["dur"]
            board.append(sum(e["dur"] for e in events if e["name"] == "FunctionCall"
                             and event["ts"] <= e["ts"] < end
                             and e["args"].get("data", {}).get("url", "").endswith(ours)) / 1000)
        print(said(f"{what}: {kind} dispatched", [e["dur"] / 1000 for e in dispatched]))
        print(said(f"{what}: the board's listener in it", board))
        if kind == "pointerdown":
            phases = defaultdict(list)
            for event in dispatched:
                window = [e for e in events if event["ts"] <= e["ts"] < event["ts"] + 120_000]
                for phase in PHASES:
                    phases[phase].append(sum(e["dur"] for e in window if e["name"] == phase) / 1000)
            print("  the 120 ms after a card press, medians: " + ", ".join(
                f"{phase} {statistics.median(values):.1f}" for phase, values in phases.items())
                + " ms")


def listener_lines() -> dict[str, int]:
    """The lines of input.js where its pointerdown and keydown listeners begin (the profile names
    a listener by its line)."""
    source = (PROJECT_DIR / "static/js/board/input.js").read_text().splitlines()
    return {kind: next(number for number, line in enumerate(source, start=1)
                       if f'document.addEventListener("{kind}"' in line)
            for kind in ("pointerdown", "keydown")}


def profile_report(profile: dict, presses: int, draws: int) -> None:
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}

    def name(node: dict) -> str:
        frame = node["callFrame"]
        return (f"{frame['functionName'] or '(anonymous)'} "
                f"{frame['url'].rsplit('/', 1)[-1]}:{frame['lineNumber'] + 1}")

    lines = listener_lines()
    roots = {f"(anonymous) input.js:{line}": kind for kind, line in lines.items()}
    spent: dict[str, Counter[str]] = {"pointerdown": Counter(), "keydown": Counter(),
                                      "audio": Counter()}
    for sample, delta in zip(profile["samples"], [*profile["timeDeltas"][1:], 0], strict=True):
        chain, node = [], sample
        while node is not None:
            chain.append(name(nodes[node]))
            node = parent.get(node)
        under = next((roots[n] for n in chain if n in roots), None)
        if under is None and any(n.startswith("audio sound.js") for n in chain):
            under = "audio"
        if under is None:
            continue
        for function in dict.fromkeys(chain):  # each function once a sample, callers first out
            spent[under][function] += delta
    for kind, count, what in (("pointerdown", presses, "card press"), ("keydown", draws, "draw")):
        print(f"  the board's {kind} listener (CPU profile, inclusive ms per {what}, {count}):")
        for function, micros in spent[kind].most_common(14):
            if ".js:" in function:
                print(f"    {micros / 1000 / max(count, 1):6.2f}  {function}")
    if spent["audio"]:
        made = max(spent["audio"].values()) / 1000
        print(f"  sound.js making its audio context (audio(), once): {made:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", type=float, default=4, help="Chromium's CPU slow-down")
    parser.add_argument("--presses", type=int, default=24, help="card presses")
    parser.add_argument("--deal", type=int, default=62644)
    parser.add_argument("--keep", type=Path, help="keep the profile and the trace here")
    args = parser.parse_args()
    chromium = find_chromium()
    from playwright.sync_api import sync_playwright

    print(speed_line())
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    with tempfile.TemporaryDirectory() as folder:
        keep = args.keep or Path(folder)
        keep.mkdir(parents=True, exist_ok=True)
        process, url = start_server(Path(folder) / "bench.db")
        try:
            with sync_playwright() as playwright:
                browser = instrumented_browser(playwright, chromium)
                feel, draws = record(browser, url, args.deal, args.cpu, args.presses, keep)
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)
        print(f"deal {args.deal}, whole deck, 2 passes; CPU slowed {args.cpu:g}x; the worker "
              "searching")
        print(said("press to paint, card presses", feel))
        trace = json.loads((keep / "trace.json").read_text())
        events_report(main_thread(trace["traceEvents"] if isinstance(trace, dict) else trace))
        profile_report(json.loads((keep / "profile.cpuprofile").read_text()), len(feel), draws)
    print(speed_line())
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
