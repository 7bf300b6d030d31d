"""Assemble the committed odds data (app/data/) from a ``pyramid odds --results`` folder.

    python bench/collect_odds.py --results /work/odds-run --deals 1000000

The run behind it, resumable (a rerun solves only what is missing) and on any number of
machines with ``--scheduler``:

    for goal in standard wholedeck; do for passes in 1 2 3; do
      pyramid odds --goal $goal --passes $passes --deals 1000000 --results /work/odds-run --json
    done; done

For each rule set the script reads the verdicts of deals 1..``--deals`` from the results folder
(every one must be there, and decided) and writes

    app/data/winnable/G-P.bits   the winnable deals, a bit a deal (deal 1 + i at bit i % 8 of
                                 byte i // 8)
    app/data/odds.json           a row a rule set: deals, wins, losses, and the greedy player's
                                 wins over the deals it was measured on (kept from the present
                                 file unless ``--greedy-results`` gives a greedy run: the
                                 ``greedy`` folder of the same results)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.engine import VARIANTS, Variant  # noqa: E402
from app.odds.resumable import RANGE, bitset, range_file, ranges, read_range  # noqa: E402

DEFAULT_OUT = ROOT / "app" / "data"


class CollectError(Exception):
    pass


def letters_of(results: Path, variant: Variant, deals: int, player: str = "solver") -> str:
    """The verdicts of deals 1..``deals``, from the results folder's ranges."""
    parts = []
    for first, last in ranges(1, deals):
        found = read_range(range_file(results, variant, player, first, last), first, last)
        if found is None:
            raise CollectError(f"{results}: no finished results for {variant.key} deals "
                               f"{first:,}..{last:,} ({player})")
        parts.append(found)
    letters = "".join(parts)[:deals]
    if player == "solver" and "?" in letters:
        raise CollectError(f"{variant.key}: {letters.count('?'):,} deals undecided")
    return letters


def run_timing(results: Path, variant: Variant, deals: int) -> dict:
    """The time of the run, when ``pyramid odds --json`` of the same deals was saved beside
    the results as ``{key}.json`` (the odds page shows it); else nothing."""
    path = results / f"{variant.key}.json"
    if not path.is_file():
        return {}
    run = json.loads(path.read_text(encoding="utf-8"))
    if (run.get("start"), run.get("deals")) != (1, deals):
        return {}
    return {key: run[key] for key in ("seconds", "deals_per_second", "workers") if key in run}


def collect(results: Path, out: Path, deals: int,
            greedy_results: Path | None = None, only: set[str] | None = None) -> list[dict]:
    """Write odds.json and the bitsets; with ``only`` (rule-set keys), collect those rule sets
    and keep the others' rows and bitsets as they are (a run that finished some rule sets of
    a larger range before the others)."""
    present = {}
    if (out / "odds.json").is_file():
        present = {(row["goal"], row["passes"]): row
                   for row in json.loads((out / "odds.json").read_text(encoding="utf-8"))}
    rows, bits = [], {}
    for variant in VARIANTS:
        if only is not None and variant.key not in only:
            rows.append(present[variant.goal.value, variant.passes])
            continue
        letters = letters_of(results, variant, deals)
        row = {"goal": variant.goal.value, "passes": variant.passes, "start": 1,
               "deals": deals, "wins": letters.count("W"), "losses": letters.count("L"),
               "unknown": 0}
        before = present.get((variant.goal.value, variant.passes), {})
        if greedy_results is not None:
            greedy = letters_of(greedy_results, variant, deals, "greedy")
            row["greedy_wins"], row["greedy_deals"] = greedy.count("W"), deals
        else:
            row["greedy_wins"] = before.get("greedy_wins")
            row["greedy_deals"] = before.get("greedy_deals", before.get("deals"))
        row |= run_timing(results, variant, deals)
        row["provisional"] = False
        rows.append(row)
        bits[variant.key] = bitset(letters)
    (out / "winnable").mkdir(parents=True, exist_ok=True)
    for key, data in bits.items():
        (out / "winnable" / f"{key}.bits").write_bytes(data)
    (out / "odds.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, required=True,
                        help="the pyramid odds --results folder")
    parser.add_argument("--deals", type=int, required=True,
                        help=f"deals 1..this (a multiple of {RANGE:,} uses whole ranges)")
    parser.add_argument("--greedy-results", type=Path,
                        help="a results folder with the greedy player's runs of as many deals")
    parser.add_argument("--only", help="collect only these rule sets (comma-separated keys, "
                        "e.g. standard-3,wholedeck-3); the others stay as committed")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="where to write odds.json and winnable/ (default app/data)")
    args = parser.parse_args(argv)
    try:
        only = set(args.only.split(",")) if args.only else None
        unknown = only - {v.key for v in VARIANTS} if only else set()
        if unknown:
            raise CollectError(f"no such rule set: {', '.join(sorted(unknown))}")
        rows = collect(args.results, args.out, args.deals, args.greedy_results, only)
    except (CollectError, KeyError, OSError) as exc:
        print(f"collect_odds: {exc}", file=sys.stderr)
        return 2
    for row in rows:
        greedy = "" if row["greedy_wins"] is None else (
            f", greedy {row['greedy_wins']:,} of {row['greedy_deals']:,}")
        print(f"{row['goal']:>9}-{row['passes']}: {row['wins']:,} of {row['deals']:,} "
              f"({100 * row['wins'] / row['deals']:.2f}%){greedy}")
    print(f"wrote {args.out / 'odds.json'} and {len(rows)} bitsets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
