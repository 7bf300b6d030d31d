"""The disk's flush latency, the machine's other speed that a figure can depend on.

    .venv/bin/python bench/disk.py [--seconds 30] [--folder /var/lib/postgresql]

A database that acknowledges a commit only once it is on disk (PostgreSQL's default,
``synchronous_commit = on``) waits for one ``fdatasync`` of its write-ahead log per commit
(or per group of commits), so a request that commits can never be faster than the disk's
flush. The CPU's speed travels between machines as ``bench/machine.py``'s loop; this is the
same for the disk: 8 kB written and flushed every 20 ms, as a commit's WAL record is, in a
file of ``--folder`` (put it on the database's disk), and the flushes' p50 / p99 / max.

``FlushProbe`` runs that in a process of its own beside a bench (``bench/crowd.py``), so that
a slow request can be set against the flushes that stalled at the same moment.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import percentile

BLOCK = b"\0" * 8192
EVERY = 0.02


def probe(folder: str, seconds: float) -> list[tuple[float, float]]:
    """Flush 8 kB every ``EVERY`` s for ``seconds``: (monotonic start, duration) each."""
    flushes = []
    descriptor, path = tempfile.mkstemp(prefix="pyramid-flush-", dir=folder)
    try:
        until = time.monotonic() + seconds
        block = 0
        while time.monotonic() < until:
            os.pwrite(descriptor, BLOCK, (block % 128) * len(BLOCK))
            block += 1
            began = time.monotonic()
            os.fdatasync(descriptor)
            flushes.append((began, time.monotonic() - began))
            time.sleep(EVERY)
    finally:
        os.close(descriptor)
        os.unlink(path)
    return flushes


def _run(folder: str, seconds: float, out) -> None:
    out.put(probe(folder, seconds))


class FlushProbe:
    """``probe`` in a forked process for the length of a bench's window."""

    def __init__(self, folder: str, seconds: float) -> None:
        context = multiprocessing.get_context("fork")
        self._out = context.Queue()
        self._process = context.Process(target=_run, args=(folder, seconds, self._out))
        self._process.start()

    def flushes(self) -> list[tuple[float, float]]:
        """Wait for the probe to end and return its flushes."""
        flushes = self._out.get()
        self._process.join()
        return flushes


def summary(flushes: list[tuple[float, float]], stall: float = 0.05) -> str:
    times = [took for _, took in flushes]
    if not times:
        return "no flushes"
    stalls = sum(1 for took in times if took > stall)
    return (f"fdatasync of 8 kB p50 / p99 / max {percentile(times, .5):.2f} / "
            f"{percentile(times, .99):.1f} / {percentile(times, 1):.1f} ms "
            f"(n={len(times)}; {stalls} over {1000 * stall:.0f} ms)")


def overlapping(requests: list[tuple[float, float]], flushes: list[tuple[float, float]],
                slow: float = 0.05) -> tuple[int, int]:
    """Of the requests over ``slow`` seconds, how many overlap a flush over ``slow`` seconds
    (both as (monotonic start, duration), from one machine's clock)."""
    stalls = [(began, began + took) for began, took in flushes if took > slow]
    slow_ones = [(began, began + took) for began, took in requests if took > slow]
    hit = sum(1 for start, end in slow_ones
              if any(s < end and start < e for s, e in stalls))
    return len(slow_ones), hit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--folder", default=tempfile.gettempdir(),
                        help="where the probe's file goes: the database's disk")
    args = parser.parse_args()
    print(f"flushing in {Path(args.folder).resolve()} for {args.seconds:g} s")
    print(summary(probe(args.folder, args.seconds)))


if __name__ == "__main__":
    main()
