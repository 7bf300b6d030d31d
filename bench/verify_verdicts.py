"""Compare the solver's verdicts with the committed ones, deal by deal, and time every solve.

    python bench/verify_verdicts.py [--deals 100000] [--start 1] [--goal G] [--passes P]
                                    [--workers 1] [--out FILE] [--slowest N]

``app/data/verdicts/{goal}-{passes}.txt.gz`` hold one letter per deal (W winnable, L not) for
deals 1..100,000 in each variant, made by an earlier solver: the regression oracle (where the
project keeps them as ``app/data/winnable/{goal}-{passes}.bits`` instead, one bit a deal, deal
``1 + i`` at bit ``i % 8`` of byte ``i // 8``, every deal decided, those are read). Each deal
is dealt once and solved in every variant asked for; any verdict that differs is printed
(``DIFF``) and the exit status is 1. Per variant it prints the deals compared, the differences
and the decision time per deal (mean, median, 99th percentile, maximum and its deal), each also
as a multiple of the machine's speed: the time of the fixed pure-Python loop
``sum(range(10**6))`` (median of 5), measured at the start and the end.

One worker by default, as the bench is meant to run beside other work on a shared machine;
``--workers N`` splits the deals into N interleaved slices in N processes; ``--slowest N``
lists each variant's N slowest deals with their times.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.engine import Deal, Game  # noqa: E402
from app.engine.solver import solve  # noqa: E402

VERDICTS = ROOT / "app" / "data" / "verdicts"
WINNABLE = ROOT / "app" / "data" / "winnable"


def machine_speed() -> float:
    """Seconds for ``sum(range(10**6))``, median of 5: the unit the figures are also given in."""
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        sum(range(10**6))
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def expected(goal: str, passes: int) -> str:
    """The committed verdicts of a variant as letters, deal 1 first."""
    letters = VERDICTS / f"{goal}-{passes}.txt.gz"
    if letters.exists():
        with gzip.open(letters, "rt", encoding="ascii") as f:
            return f.read().strip()
    bits = (WINNABLE / f"{goal}-{passes}.bits").read_bytes()
    return "".join("W" if byte >> i & 1 else "L" for byte in bits for i in range(8))


def run_slice(numbers: range, variants: list[tuple[str, int]]) -> dict:
    """Solve every deal of ``numbers`` in every variant: seconds, verdicts and the differences."""
    oracle = {v: expected(*v) for v in variants}
    seconds: dict = {v: [] for v in variants}
    diffs = []
    for number in numbers:
        deal = Deal.from_number(number)
        for variant in variants:
            game = Game(deal, *variant)
            t0 = time.perf_counter()
            solution = solve(game)
            seconds[variant].append((time.perf_counter() - t0, number))
            letter = {True: "W", False: "L", None: "?"}[solution.winnable]
            if letter != oracle[variant][number - 1]:
                diffs.append((variant, number, letter, oracle[variant][number - 1]))
    return {"seconds": seconds, "diffs": diffs}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--goal", choices=["standard", "wholedeck"], action="append")
    parser.add_argument("--passes", type=int, choices=[1, 2, 3], action="append")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", help="also write the report to this file")
    parser.add_argument("--slowest", type=int, default=0, metavar="N",
                        help="also list each variant's N slowest deals")
    args = parser.parse_args()
    variants = [(g, p) for g in args.goal or ["standard", "wholedeck"]
                for p in args.passes or [1, 2, 3]]
    last = args.start + args.deals - 1
    covered = min(len(expected(*variant)) for variant in variants)
    if last > covered:
        parser.error(f"the committed verdicts cover deals 1..{covered:,}")
    unit = machine_speed()
    began = time.perf_counter()
    slices = [range(args.start + i, last + 1, args.workers) for i in range(args.workers)]
    if args.workers == 1:
        results = [run_slice(slices[0], variants)]
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(run_slice, slices, [variants] * args.workers))
    wall = time.perf_counter() - began
    unit_after = machine_speed()
    lines = [f"deals {args.start}..{last}, {args.workers} worker(s), {wall:.0f} s in all; "
             f"machine speed: sum(range(10**6)) = {1000 * unit:.1f} ms at the start, "
             f"{1000 * unit_after:.1f} ms at the end (x: multiples of the first)",
             f"{'variant':<14}{'deals':>8}{'diffs':>6}{'mean ms':>9}{'(x)':>7}{'median':>8}"
             f"{'p99 ms':>8}{'(x)':>7}{'max ms':>8}{'(x)':>7}{'deal':>7}"]
    diffs = [d for r in results for d in r["diffs"]]
    for variant in variants:
        timed = [t for r in results for t in r["seconds"][variant]]
        secs = [t for t, _ in timed]
        slowest, deal = max(timed)
        mean, p99 = statistics.mean(secs), percentile(secs, 0.99)
        n_diff = sum(d[0] == variant for d in diffs)
        lines.append(f"{variant[0] + f' {variant[1]}p':<14}{len(secs):>8}{n_diff:>6}"
                     f"{1000 * mean:>9.3f}{mean / unit:>7.3f}{1000 * statistics.median(secs):>8.3f}"
                     f"{1000 * p99:>8.1f}{p99 / unit:>7.2f}{1000 * slowest:>8.1f}"
                     f"{slowest / unit:>7.2f}{deal:>7}")
    for variant in variants if args.slowest else []:
        timed = sorted((t for r in results for t in r["seconds"][variant]), reverse=True)
        listed = ", ".join(f"{deal} {1000 * t:.0f}" for t, deal in timed[:args.slowest])
        lines.append(f"slowest {variant[0]} {variant[1]}p (deal ms): {listed}")
    for (goal, passes), number, got, want in diffs:
        lines.append(f"DIFF {goal} {passes}p deal {number}: solver {got}, committed {want}")
    lines.append(f"differences: {len(diffs)}")
    report = "\n".join(lines)
    print(report)
    if args.out:
        Path(args.out).write_text(report + "\n")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
