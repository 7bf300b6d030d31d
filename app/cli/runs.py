"""``pyramid odds`` and ``pyramid facts``: long runs over a range of deals, counted or kept
in pieces (``--results``) so that they can stop and go on."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from app.engine import MAX_DEAL_NUMBER, Variant

from .arguments import UsageError


# --- pyramid odds ---------------------------------------------------------------------------
def _percent(x: float) -> str:
    return f"{100 * x:.2f}%"


def cmd_odds(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from app.odds.run import solve_range

    last = args.start + args.deals - 1
    if last > MAX_DEAL_NUMBER:
        raise UsageError(f"deals {args.start:,} to {last:,} go past the last deal, "
                         f"{MAX_DEAL_NUMBER:,}")
    if args.player == "greedy" and args.node_limit is not None:
        raise UsageError("--node-limit is for the solver: the greedy player searches nothing")
    if args.scheduler and not args.results:
        raise UsageError("--scheduler needs --results DIR: a cluster's run is kept in pieces")
    options = args.unlimited or args.overlap
    if options and args.player != "solver":
        raise UsageError("--unlimited and --overlap are the solver's rule options")
    if options and (args.results or args.bits or args.verdicts):
        raise UsageError("--unlimited and --overlap runs are counted, not kept (no --results, "
                         "--bits or --verdicts)")
    variant = Variant(args.goal, args.passes)
    disable = None if args.progress is None else not args.progress  # None: only on a terminal
    with tqdm(total=args.deals, unit="deal", file=sys.stderr, disable=disable,
              desc=variant.label) as bar:
        if args.results:
            from app.odds import resumable

            odds = resumable.run(variant, args.start, args.deals, Path(args.results),
                                 workers=args.workers, scheduler=args.scheduler,
                                 node_limit=args.node_limit, player=args.player,
                                 progress=bar.update)
        else:
            odds = solve_range(args.goal, args.passes, args.start, args.deals,
                               workers=args.workers, node_limit=args.node_limit,
                               progress=bar.update, player=args.player,
                               unlimited=args.unlimited, overlap=args.overlap)
    if args.bits:
        from app.odds.resumable import bitset
        from app.odds.run import verdict_string

        Path(args.bits).write_bytes(bitset(verdict_string(odds)))
    if args.verdicts:
        import gzip

        from app.odds.run import verdict_string

        with gzip.open(args.verdicts, "wt", encoding="ascii") as out:
            out.write(verdict_string(odds))
    if args.json:
        print(json.dumps(odds.to_dict()))
        return 0
    low, high = odds.interval
    rate = "no deal decided" if odds.win_rate is None else _percent(odds.win_rate)
    player = ", greedy player" if odds.player == "greedy" else ""
    rules = (f"{odds.goal.label} goal, unlimited passes" if odds.unlimited
             else Variant(odds.goal, odds.passes).title)
    rules += ", overlap pairs" if odds.overlap else ""
    print(f"{rules}, deals {args.start:,} to {last:,}{player}")
    print(f"Wins: {odds.wins:,} of {odds.decided:,} deals")
    print(f"Win rate: {rate} (95% Wilson interval {_percent(low)} to {_percent(high)})")
    if odds.unknown:
        shown = ", ".join(f"{n:,}" for n in sorted(odds.unknown)[:10])
        more = " ..." if len(odds.unknown) > 10 else ""
        print(f"Undecided at the node limit, left out of the rate: {len(odds.unknown):,} "
              f"({shown}{more})")
    print(f"Speed: {odds.deals_per_second:,.1f} deals per second "
          f"({odds.seconds:.2f} s, {odds.workers} worker{'s' if odds.workers > 1 else ''})")
    return 0


# --- pyramid facts --------------------------------------------------------------------------
def cmd_facts(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from app.odds import factsrun

    last = args.start + args.deals - 1
    if last > MAX_DEAL_NUMBER:
        raise UsageError(f"deals {args.start:,} to {last:,} go past the last deal, "
                         f"{MAX_DEAL_NUMBER:,}")
    variant = Variant(args.goal, args.passes)
    disable = None if args.progress is None else not args.progress
    with tqdm(total=args.deals, unit="deal", file=sys.stderr, disable=disable,
              desc=variant.label) as bar:
        found, seconds = factsrun.run(variant, args.start, args.deals, Path(args.results),
                                      workers=args.workers, scheduler=args.scheduler,
                                      progress=bar.update)
    summary = factsrun.summary(variant, args.start, args.deals, found, seconds)
    print(json.dumps(summary) if args.json else factsrun.summary_text(summary))
    return 0
