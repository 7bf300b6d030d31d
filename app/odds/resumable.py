"""A long odds run in pieces: results appended by deal range, a rerun skips what is done, and the
work can go to a Dask cluster, so that 10^8 deals are a matter of machines, not code.

``pyramid odds --results DIR`` keeps one small file a range of ``RANGE`` deals, under
``DIR/<player>/<goal>-<passes>/``, holding the range's verdicts one letter a deal (``W``, ``L``,
``?``; with the greedy player ``W`` won, ``L`` lost). A file is written whole or not at all (to
a temporary name, then renamed), so a run killed at any moment leaves only finished ranges,
and the next run, with the same or a wider range of deals, solves only what is missing. The
ranges are aligned on multiples of ``RANGE`` from deal 1 and always solved whole, whatever
``--start`` and ``--deals`` are, so runs of different extents share their files.

Where the work runs: local worker processes (``workers``), or a Dask cluster (``scheduler``,
``tcp://host:8786``), whose workers need this package installed. Each range is solved on its
own from its deals' first positions, so the letters are the same wherever and in whatever
order the ranges are solved.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from app.engine import Variant

from .run import PLAYERS, VERDICT_LETTERS, Odds, greedy_chunk, solve_chunk

RANGE = 2_000
"""Deals a results file holds: about 5 to 30 seconds of solving, 2 kB of letters."""


def ranges(start: int, last: int) -> list[tuple[int, int]]:
    """The whole aligned ranges (first, last) that cover deals ``start``..``last``."""
    return [(n * RANGE + 1, (n + 1) * RANGE)
            for n in range((start - 1) // RANGE, (last - 1) // RANGE + 1)]


def range_file(folder: Path, variant: Variant, player: str, first: int, last: int) -> Path:
    return folder / player / variant.key / f"{first:020d}-{last:020d}.txt"


def range_letters(goal: str, passes: int, first: int, last: int, node_limit: int | None,
                  player: str) -> str:
    """The verdicts of deals first..last, one letter each. Runs in a worker (a local process
    or a Dask worker): module-level, and its arguments are plain values."""
    work = solve_chunk if player == "solver" else greedy_chunk
    letters = {value.value: letter for value, letter in VERDICT_LETTERS.items()}
    return "".join(letters[verdict] for _, verdict, _ in
                   work(goal, passes, first, last + 1, node_limit))


def write_range(path: Path, letters: str) -> None:
    """Whole or not at all: a reader (or a later run) never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + f".{os.getpid()}.partial")
    partial.write_text(letters + "\n", encoding="ascii")
    partial.replace(path)


def read_range(path: Path, first: int, last: int) -> str | None:
    """A finished range's letters, or None when the file is missing or not whole."""
    try:
        letters = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    if len(letters) != last - first + 1 or set(letters) - set("WL?"):
        return None
    return letters


def _local(jobs: list[tuple], workers: int,
           work: Callable[..., str] | None = None) -> Iterator[tuple[tuple, str]]:
    """Each job's answer, ``work(*job)`` (by default ``range_letters``), in worker processes,
    as they finish."""
    work = work or range_letters
    if workers == 1:
        for job in jobs:
            yield job, work(*job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(work, *job): job for job in jobs}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _dask(jobs: list[tuple], scheduler: str,
          work: Callable[..., str] | None = None) -> Iterator[tuple[tuple, str]]:
    from dask.distributed import Client
    from dask.distributed import as_completed as completed

    work = work or range_letters
    with Client(scheduler) as client:
        futures = {client.submit(work, *job, pure=False): job for job in jobs}
        for future in completed(futures):
            yield futures[future], future.result()


def execute(jobs: list[tuple], work: Callable[..., str], *, workers: int = 1,
            scheduler: str | None = None) -> Iterator[tuple[tuple, str]]:
    """Each job with its answer ``work(*job)``, as they finish: in up to ``workers`` local
    processes, or on the Dask cluster at ``scheduler``. ``work`` must be a module-level
    function of plain values (it is pickled to the workers)."""
    if scheduler:
        return _dask(jobs, scheduler, work)
    return _local(jobs, max(1, min(workers, len(jobs))), work)


def run(variant: Variant, start: int, deals: int, folder: Path, *, workers: int | None = None,
        scheduler: str | None = None, node_limit: int | None = None, player: str = "solver",
        progress: Callable[[int], object] | None = None) -> Odds:
    """Solve deals start..start+deals-1 into ``folder``, skipping the ranges already there, and
    return the odds of the whole span (read back from the files)."""
    if player not in PLAYERS:
        raise ValueError(f"player must be 'solver' or 'greedy', not {player!r}")
    last = start + deals - 1
    spans = ranges(start, last)
    missing = [(first, end) for first, end in spans
               if read_range(range_file(folder, variant, player, first, end), first, end) is None]

    def wanted(first: int, end: int) -> int:
        return min(end, last) - max(first, start) + 1

    if progress:
        progress(deals - sum(wanted(first, end) for first, end in missing))
    jobs = [(variant.goal.value, variant.passes, first, end, node_limit, player)
            for first, end in missing]
    workers = max(1, workers or os.cpu_count() or 1)
    began = time.perf_counter()
    done = _dask(jobs, scheduler) if scheduler else _local(jobs, min(workers, len(jobs) or 1))
    for (_, _, first, end, _, _), letters in done:
        write_range(range_file(folder, variant, player, first, end), letters)
        if progress:
            progress(wanted(first, end))
    seconds = time.perf_counter() - began
    whole = "".join(read_range(range_file(folder, variant, player, first, end), first, end)
                    or "" for first, end in spans)
    offset = start - spans[0][0]
    letters = whole[offset:offset + deals]
    if len(whole) != len(spans) * RANGE or len(letters) != deals:
        raise RuntimeError(f"{folder}: the results of deals {start}..{last} are not all there")
    return Odds.from_letters(variant, start, letters, seconds=seconds,
                             workers=1 if scheduler else workers, player=player)


def bitset(letters: str) -> bytes:
    """The winnable deals as bits, deal ``start + i`` at bit ``i % 8`` of byte ``i // 8``."""
    data = bytearray((len(letters) + 7) // 8)
    for index, letter in enumerate(letters):
        if letter == "W":
            data[index >> 3] |= 1 << (index & 7)
    return bytes(data)
