"""The difficulty facts of many deals, measured in pieces: ``pyramid facts --results DIR``.

Like the odds run (``resumable``): one file a range of ``RANGE`` deals, aligned on multiples of
it from deal 1, under ``DIR/facts/<goal>-<passes>/``, written whole or not at all, so that a
run killed at any moment leaves only finished ranges and the next run measures only what is
missing, locally (``workers``) or on a Dask cluster (``scheduler``). A file holds a line per
winnable deal of its range (``FIELDS``, space-separated; the time in milliseconds last) and
ends with ``end <first> <last> <lines>``. Deals the committed verdicts call not winnable are
skipped; deals beyond them are decided by the par search itself, which also proves a deal lost.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from app.engine import Variant

from . import resumable
from .difficulty import PLAYOUTS, Facts, measure
from .resumable import ranges, write_range
from .winnable import known_verdict

FIELDS = ("number", "par", "greedy", "playout_wins", "playout_left", "first_moves",
          "winning_first_moves", "ms")
"""The columns of a results line."""


def range_path(folder: Path, variant: Variant, first: int, last: int) -> Path:
    return folder / "facts" / variant.key / f"{first:020d}-{last:020d}.txt"


def facts_line(facts: Facts, seconds: float) -> str:
    return (f"{facts.number} {facts.par} {int(facts.greedy)} {facts.playout_wins} "
            f"{facts.playout_left} {facts.first_moves} {facts.winning_first_moves} "
            f"{1000 * seconds:.2f}")


def range_text(goal: str, passes: int, first: int, last: int) -> str:
    """The results file of deals first..last. Runs in a worker: module-level, plain values."""
    variant = Variant(goal, passes)
    lines = [f"# {variant.key} deals {first}..{last}, {PLAYOUTS} playouts: {' '.join(FIELDS)}"]
    for number in range(first, last + 1):
        if known_verdict(number, variant) is False:
            continue
        facts, seconds = measure(number, variant)
        if facts is not None:
            lines.append(facts_line(facts, seconds))
    lines.append(f"end {first} {last} {len(lines) - 1}")
    return "\n".join(lines)


def parse_range(text: str, variant: Variant, first: int,
                last: int) -> list[tuple[Facts, float]] | None:
    """The facts (and seconds) of a results file's text, or None when it is not a whole file
    of that range."""
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    if not lines or lines[-1] != f"end {first} {last} {len(lines) - 1}":
        return None
    found = []
    for line in lines[:-1]:
        parts = line.split()
        if len(parts) != len(FIELDS):
            return None
        number, par, greedy, wins, left, moves, winning = map(int, parts[:-1])
        if not first <= number <= last:
            return None
        found.append((Facts(number, variant, par, bool(greedy), wins, left, moves, winning),
                      float(parts[-1]) / 1000))
    return found


def read_range(folder: Path, variant: Variant, first: int,
               last: int) -> list[tuple[Facts, float]] | None:
    try:
        text = range_path(folder, variant, first, last).read_text(encoding="ascii")
    except FileNotFoundError:
        return None
    return parse_range(text, variant, first, last)


def done_ranges(folder: Path, variant: Variant, start: int, last: int) -> list[tuple[int, int]]:
    return [(a, b) for a, b in ranges(start, last)
            if read_range(folder, variant, a, b) is not None]


def run(variant: Variant, start: int, deals: int, folder: Path, *, workers: int | None = None,
        scheduler: str | None = None,
        progress: Callable[[int], object] | None = None) -> tuple[list[tuple[Facts, float]],
                                                                  float]:
    """Measure deals start..start+deals-1 into ``folder``, skipping the ranges already there;
    the facts (and seconds) of the winnable deals of the span, read back from the files, in
    deal order, and the seconds this run took."""
    last = start + deals - 1
    spans = ranges(start, last)
    missing = [(a, b) for a, b in spans if read_range(folder, variant, a, b) is None]

    def wanted(a: int, b: int) -> int:
        return min(b, last) - max(a, start) + 1

    if progress:
        progress(deals - sum(wanted(a, b) for a, b in missing))
    jobs = [(variant.goal.value, variant.passes, a, b) for a, b in missing]
    workers = max(1, workers or os.cpu_count() or 1)
    began = time.perf_counter()
    done = resumable.execute(jobs, range_text, workers=workers, scheduler=scheduler)
    for (_, _, a, b), text in done:
        write_range(range_path(folder, variant, a, b), text)
        if progress:
            progress(wanted(a, b))
    seconds = time.perf_counter() - began
    found: list[tuple[Facts, float]] = []
    for a, b in spans:
        part = read_range(folder, variant, a, b)
        if part is None:
            raise RuntimeError(f"{folder}: the facts of deals {a}..{b} are not all there")
        found.extend(item for item in part if start <= item[0].number <= last)
    return found, seconds


def summary(variant: Variant, start: int, deals: int, found: list[tuple[Facts, float]],
            seconds: float) -> dict:
    """What ``pyramid facts`` prints: the winnable deals measured and their averages."""
    count = len(found)
    return {
        "goal": variant.goal.value, "passes": variant.passes, "start": start, "deals": deals,
        "winnable": count,
        "mean_par": sum(f.par for f, _ in found) / count if count else None,
        "greedy_wins": sum(f.greedy for f, _ in found),
        "playout_win_share": (sum(f.playout_wins for f, _ in found)
                              / sum(f.playouts for f, _ in found)) if count else None,
        "measure_seconds": round(sum(s for _, s in found), 3),
        "run_seconds": round(seconds, 3),
    }


def summary_text(row: dict) -> str:
    variant = Variant(row["goal"], row["passes"])
    last = row["start"] + row["deals"] - 1
    lines = [f"{variant.title}, deals {row['start']:,} to {last:,}: "
             f"{row['winnable']:,} winnable measured"]
    if row["winnable"]:
        lines.append(f"Mean par {row['mean_par']:.2f}; the greedy player wins "
                     f"{row['greedy_wins']:,}; random playouts win "
                     f"{100 * row['playout_win_share']:.2f}%")
        lines.append(f"Measuring took {row['measure_seconds']:.1f} s "
                     f"({1000 * row['measure_seconds'] / row['winnable']:.1f} ms a winnable deal)")
    return "\n".join(lines)
