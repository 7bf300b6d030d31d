"""Assemble the committed odds data (app/data/) from ``pyramid odds`` runs.

    python bench/collect_odds.py                      # from /tmp/odds, all six rule sets
    python bench/collect_odds.py --fallback /tmp/odds-provisional

For each rule set (goal standard|wholedeck × passes 1|2|3) the source folder holds what

    pyramid odds --goal G --passes P --deals 100000 --verdicts G-P.txt.gz --json > G-P.json

wrote, and optionally ``greedy-G-P.json``: the same shape for a greedy player over the same
deals, whose ``wins`` becomes the row's ``greedy_wins``. The script writes

    app/data/odds.json                  a list of the six rows (standard 1..3, wholedeck 1..3)
    app/data/verdicts/G-P.txt.gz        each deal's verdict, one letter a deal (W, L, ?)

after checking that each verdicts file agrees with its row (length = deals, W = wins,
L = losses). A rule set missing from the source is taken from ``--fallback`` if given (for
development: a short run); a row over fewer than ``--expect-deals`` deals, or from the
fallback, is marked ``"provisional": true`` and the /odds page says so.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.engine import VARIANTS  # noqa: E402

DEFAULT_SOURCE = Path("/tmp/odds")
DEFAULT_OUT = ROOT / "app" / "data"


class CollectError(Exception):
    pass


def read_row(folder: Path, key: str) -> dict | None:
    """The ``pyramid odds --json`` row of one rule set in ``folder``, or None when the run is
    missing or unfinished (an empty or partial file)."""
    path = folder / f"{key}.json"
    verdicts = folder / f"{key}.txt.gz"
    if not path.is_file() or not verdicts.is_file():
        return None
    try:
        row = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return None
    return row if isinstance(row, dict) else None


def check_verdicts(path: Path, row: dict) -> None:
    with gzip.open(path, "rt", encoding="ascii") as stream:
        letters = stream.read().strip()
    counts = {letter: letters.count(letter) for letter in "WL?"}
    problems = []
    if len(letters) != row["deals"]:
        problems.append(f"{len(letters)} letters for {row['deals']} deals")
    if sum(counts.values()) != len(letters):
        problems.append("letters other than W, L, ?")
    if counts["W"] != row["wins"] or counts["L"] != row["losses"]:
        problems.append(f"W={counts['W']} L={counts['L']}, the row says wins={row['wins']} "
                        f"losses={row['losses']}")
    if problems:
        raise CollectError(f"{path}: " + "; ".join(problems))


def greedy_wins(folder: Path, key: str, row: dict) -> int | None:
    """The greedy player's wins over the row's deals, or None when not measured (no file, or
    a run still going: an empty or partial file)."""
    path = folder / f"greedy-{key}.json"
    if not path.is_file():
        return None
    try:
        greedy = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        print(f"collect_odds: {path} is not finished; no greedy figure for {key}",
              file=sys.stderr)
        return None
    for field in ("goal", "passes", "start", "deals"):
        default = 1 if field == "start" else None
        if greedy.get(field, default) != row.get(field, default):
            raise CollectError(f"{path}: {field} {greedy.get(field)!r} does not match the "
                               f"solver's run ({row.get(field)!r})")
    return int(greedy["wins"])


def collect(source: Path, fallback: Path | None, out: Path, expect_deals: int) -> list[dict]:
    rows = []
    found: list[tuple[Path, dict]] = []
    for variant in VARIANTS:
        goal, passes, key = variant.goal, variant.passes, variant.key
        folder, row = source, read_row(source, key)
        if row is None and fallback is not None:
            folder, row = fallback, read_row(fallback, key)
        if row is None:
            raise CollectError(f"no finished run for {key} in {source}"
                               + (f" or {fallback}" if fallback else ""))
        if (row["goal"], row["passes"]) != (goal.value, passes):
            raise CollectError(f"{folder / key}.json is a run of {row['goal']}-{row['passes']}")
        check_verdicts(folder / f"{key}.txt.gz", row)
        row = dict(row)
        row["greedy_wins"] = greedy_wins(folder, key, row)
        row["provisional"] = folder != source or row["deals"] < expect_deals
        rows.append(row)
        found.append((folder, row))
    (out / "verdicts").mkdir(parents=True, exist_ok=True)
    for folder, row in found:
        key = f"{row['goal']}-{row['passes']}"
        shutil.copyfile(folder / f"{key}.txt.gz", out / "verdicts" / f"{key}.txt.gz")
    (out / "odds.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE,
                        help="folder of the runs (default /tmp/odds)")
    parser.add_argument("--fallback", type=Path,
                        help="folder of shorter runs for rule sets the source lacks")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="where to write odds.json and verdicts/ (default app/data)")
    parser.add_argument("--expect-deals", type=int, default=100_000,
                        help="a row over fewer deals is provisional (default 100000)")
    args = parser.parse_args(argv)
    try:
        rows = collect(args.source, args.fallback, args.out, args.expect_deals)
    except (CollectError, KeyError, OSError) as exc:
        print(f"collect_odds: {exc}", file=sys.stderr)
        return 2
    for row in rows:
        greedy = "" if row["greedy_wins"] is None else f", greedy {row['greedy_wins']:,}"
        mark = "  (provisional)" if row["provisional"] else ""
        print(f"{row['goal']:>9}-{row['passes']}: {row['wins']:,} of {row['deals']:,} "
              f"({100 * row['wins'] / row['deals']:.2f}%){greedy}{mark}")
    print(f"wrote {args.out / 'odds.json'} and {len(rows)} verdicts files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
