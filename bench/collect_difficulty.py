"""Assemble the committed par and difficulty data (app/data/) from a ``pyramid facts --results``
folder.

    python bench/collect_difficulty.py --results data/facts-run --deals 100000
    python bench/collect_difficulty.py --results data/facts-run --deals 100000 \
        --deals-of standard-2=40000,standard-3=20000

The run behind it, resumable (a rerun measures only what is missing), 10,000 deals at a time so
that every rule set has a complete prefix at any moment:

    for deals in 10000 20000 30000 40000 50000 60000 70000 80000 90000 100000; do
      for goal in standard wholedeck; do for passes in 1 2 3; do
        pyramid facts --goal $goal --passes $passes --deals $deals --results data/facts-run
      done; done
    done

For each rule set the script reads the facts of deals 1..``--deals`` (every range must be
there, and hold exactly the deals the committed verdicts call winnable), fits the score's scale
(``app.odds.difficulty.Scale``), scores every deal, picks the cut points, and writes

    app/data/difficulty/G-P.bin.gz   par and score a deal (``app.odds.dealfacts``)
    app/data/difficulty.json         per rule set: range, scale, cut points, the count and
                                     share of each bucket, and what was measured on the way

It prints the table of docs/odds.md's "Difficulty" section.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.engine import VARIANTS, Variant  # noqa: E402
from app.odds import factsrun  # noqa: E402
from app.odds.dealfacts import encode, score_code  # noqa: E402
from app.odds.difficulty import (  # noqa: E402
    DIFFICULTIES,
    PLAYOUTS,
    Facts,
    Scale,
    bucket,
    cut_points,
)
from app.odds.resumable import ranges  # noqa: E402
from app.odds.winnable import verdicts  # noqa: E402

DEFAULT_OUT = ROOT / "app" / "data"


class CollectError(Exception):
    pass


def facts_of(results: Path, variant: Variant, deals: int) -> list[tuple[Facts, float]]:
    """The facts of the winnable deals 1..``deals``, checked against the committed verdicts."""
    found: list[tuple[Facts, float]] = []
    for first, last in ranges(1, deals):
        part = factsrun.read_range(results, variant, first, last)
        if part is None:
            raise CollectError(f"{results}: no finished facts for {variant.key} deals "
                               f"{first:,}..{last:,}")
        found.extend(item for item in part if item[0].number <= deals)
    winnable = verdicts(variant)
    if deals > winnable.deals:
        raise CollectError(f"the committed verdicts of {variant.key} stop at deal "
                           f"{winnable.deals:,}")
    measured = [facts.number for facts, _ in found]
    expected = [n for n in range(1, deals + 1) if n in winnable]
    if measured != expected:
        raise CollectError(f"{variant.key}: the deals measured are not the winnable deals")
    return found


def collect_variant(results: Path, variant: Variant, deals: int) -> tuple[dict, bytes]:
    found = facts_of(results, variant, deals)
    measured = [facts for facts, _ in found]
    scale = Scale.fit(measured)
    pars, codes = bytearray(deals), bytearray(deals)
    scores = []
    for facts in measured:
        value = scale.score(facts)
        pars[facts.number - 1] = facts.par
        codes[facts.number - 1] = score_code(value)
        scores.append(value)
    cuts = cut_points(scores)
    members: dict[str, list[Facts]] = {d.value: [] for d in DIFFICULTIES}
    for facts, value in zip(measured, scores, strict=True):
        members[bucket(value, cuts).value].append(facts)
    counts = {key: len(group) for key, group in members.items()}
    count = len(measured)
    ms = sorted(1000 * seconds for _, seconds in found)
    row = {
        "goal": variant.goal.value,
        "passes": variant.passes,
        "start": 1,
        "deals": deals,
        "winnable": count,
        "scale": scale.to_dict(),
        "cuts": list(cuts),
        "counts": counts,
        "shares": {key: n / count for key, n in counts.items()},
        "mean_par": statistics.fmean(f.par for f in measured),
        "par_range": [min(f.par for f in measured), max(f.par for f in measured)],
        "greedy_wins": sum(f.greedy for f in measured),
        "playout_wins": sum(f.playout_wins for f in measured),
        "playouts": PLAYOUTS * count,
        "mean_first_moves": statistics.fmean(f.first_moves for f in measured),
        "mean_winning_first_moves": statistics.fmean(f.winning_first_moves for f in measured),
        "by_bucket": {key: {
            "mean_par": statistics.fmean(f.par for f in group),
            "greedy_share": statistics.fmean(f.greedy for f in group),
            "playout_share": statistics.fmean(f.playout_share for f in group),
            "mean_left": statistics.fmean(f.playout_left / f.playouts for f in group),
            "mean_winning_first_moves": statistics.fmean(f.winning_first_moves for f in group),
        } for key, group in members.items() if group},
        "measure_seconds": round(sum(ms) / 1000, 1),
        "measure_ms": {"mean": round(statistics.fmean(ms), 2),
                       "median": round(ms[len(ms) // 2], 2),
                       "p99": round(ms[int(0.99 * (len(ms) - 1))], 2), "max": round(ms[-1], 2)},
    }
    return row, encode(variant, 1, bytes(pars), bytes(codes))


def collect(results: Path, out: Path, deals: int,
            deals_of: dict[str, int] | None = None) -> list[dict]:
    """``deals`` in every rule set, but ``deals_of[key]`` in those it names (a long run
    finishes the quick rule sets first)."""
    rows, files = [], {}
    for variant in VARIANTS:
        row, data = collect_variant(results, variant, (deals_of or {}).get(variant.key, deals))
        rows.append(row)
        files[variant.key] = data
    (out / "difficulty").mkdir(parents=True, exist_ok=True)
    for key, data in files.items():
        (out / "difficulty" / f"{key}.bin.gz").write_bytes(gzip.compress(data, 9, mtime=0))
    document = {
        "about": "Par and difficulty of the winnable deals: app/odds/dealfacts.py reads it, "
                 "bench/collect_difficulty.py writes it, docs/odds.md explains it.",
        "playouts": PLAYOUTS,
        "playout_seed": "the deal number",
        "variants": rows,
    }
    (out / "difficulty.json").write_text(json.dumps(document, indent=1) + "\n",
                                         encoding="utf-8")
    return rows


def table(rows: list[dict]) -> str:
    head = ("| rule set | deals | winnable | cut points | easy | medium | hard | expert "
            "| mean par | greedy wins | playouts won | ms a deal (mean / max) |")
    lines = [head, "|" + "---|" * 12]
    for row in rows:
        variant = Variant(row["goal"], row["passes"])
        shares = " | ".join(f"{100 * row['shares'][d.value]:.1f}%" for d in DIFFICULTIES)
        cuts = ", ".join(f"{c:g}" for c in row["cuts"])
        lines.append(
            f"| {variant.label} | 1..{row['deals']:,} | {row['winnable']:,} | {cuts} | "
            f"{shares} | {row['mean_par']:.1f} | "
            f"{100 * row['greedy_wins'] / row['winnable']:.1f}% | "
            f"{100 * row['playout_wins'] / row['playouts']:.2f}% | "
            f"{row['measure_ms']['mean']:.1f} / {row['measure_ms']['max']:.0f} |")
    return "\n".join(lines)


def bucket_table(rows: list[dict]) -> str:
    """What the buckets hold: the facts' averages per rule set and bucket."""
    lines = ["| rule set | bucket | mean par | greedy player wins | playouts won | "
             "cards left by a playout | winning first moves |", "|" + "---|" * 7]
    for row in rows:
        variant = Variant(row["goal"], row["passes"])
        for key, group in row["by_bucket"].items():
            lines.append(f"| {variant.label} | {key} | {group['mean_par']:.1f} | "
                         f"{100 * group['greedy_share']:.1f}% | "
                         f"{100 * group['playout_share']:.2f}% | {group['mean_left']:.1f} | "
                         f"{group['mean_winning_first_moves']:.2f} |")
    return "\n".join(lines)


def deals_of(text: str) -> dict[str, int]:
    """``standard-2=40000,standard-3=20000`` as a dict; a key that is no rule set is refused."""
    keys = {variant.key for variant in VARIANTS}
    found = {}
    for part in filter(None, text.split(",")):
        key, _, number = part.partition("=")
        if key not in keys or not number.isdigit():
            raise argparse.ArgumentTypeError(f"{part!r}: expected KEY=N with KEY one of "
                                             f"{', '.join(sorted(keys))}")
        found[key] = int(number)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, required=True,
                        help="the pyramid facts --results folder")
    parser.add_argument("--deals", type=int, required=True,
                        help="deals 1..N in every rule set (a multiple of 2,000)")
    parser.add_argument("--deals-of", type=deals_of, default={}, metavar="KEY=N,...",
                        help="another N for some rule sets, e.g. standard-2=40000")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="where app/data is (default: this checkout's)")
    args = parser.parse_args(argv)
    try:
        rows = collect(args.results, args.out, args.deals, args.deals_of)
    except CollectError as exc:
        print(f"collect_difficulty: {exc}", file=sys.stderr)
        return 1
    print(table(rows))
    print()
    print(bucket_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
