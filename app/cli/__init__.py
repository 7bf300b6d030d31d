"""The ``pyramid`` command: show a deal, solve one, or measure the odds over a range of deals.

    pyramid deal 617                      the deal drawn as a pyramid, and its stock
    pyramid solve 617 --goal wholedeck    can it be won, and how
    pyramid odds --deals 1000             the share of deals 1..1000 that can be won
    pyramid odds --deals 1000 --player greedy   ... that the greedy player wins
    pyramid facts --deals 1000 --results DIR    par and difficulty facts of the winnable deals

Every error a user can cause ends with exit status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from app.engine import DEFAULT_PASSES, MAX_PASSES, Goal

from .arguments import (
    Parser,
    UsageError,
    deal_number,
    goal,
    passes,
    positive,
)
from .deals import cmd_deal, cmd_solve, describe_deal, draw_pyramid
from .runs import cmd_facts, cmd_odds

__all__ = ["build_parser", "describe_deal", "draw_pyramid", "main"]

PROG = "pyramid"


# --- the parser ---------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description="Pyramid Solitaire from the command line: deals, the solver and the odds.",
    )
    commands = parser.add_subparsers(dest="command", metavar="{deal,solve,odds,facts}",
                                     required=True)

    def add_deal_choice(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("number", nargs="?", type=deal_number,
                         help="deal number, 1 to 99,999,999,999,999,999,999 (PySolFC's)")
        sub.add_argument("--deal-file", metavar="F",
                         help="a custom deal in RULES.md's JSON form, or the one-line text "
                              "form (- reads stdin), instead of a number")

    def add_rule_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--unlimited", action="store_true",
                         help="the solver's rule option: unlimited passes through the stock "
                              "(not playable here; --passes is then unused)")
        sub.add_argument("--overlap", action="store_true",
                         help="the solver's rule option: overlap pairs (a card may pair with "
                              "the one card still covering it)")

    def add_variant(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--goal", type=goal, default=Goal.STANDARD,
                         help="standard (clear the pyramid) or wholedeck (all 52 cards); "
                              "default standard")
        sub.add_argument("--passes", type=passes, default=DEFAULT_PASSES,
                         help=f"trips through the stock: 1 to {MAX_PASSES}; "
                              f"default {DEFAULT_PASSES}")
        sub.add_argument("--node-limit", type=positive("--node-limit"), metavar="N",
                         help="stop a deal's search after N positions and call it unknown "
                              "(default: no limit, every deal is decided)")

    deal = commands.add_parser("deal", help="show a deal: the pyramid and the stock",
                               description="Show a deal: the pyramid and the stock.")
    add_deal_choice(deal)
    deal.add_argument("--json", action="store_true", help="print the deal as JSON")
    deal.set_defaults(run=cmd_deal)

    solve = commands.add_parser("solve", help="can a deal be won? with a winning line",
                                description="Decide whether a deal can be won, and how.")
    add_deal_choice(solve)
    add_variant(solve)
    solve.add_argument("--json", action="store_true", help="print the answer as JSON")
    add_rule_options(solve)
    solve.add_argument("--par", action="store_true",
                       help="find a shortest winning line, proven: its length is the par "
                            '(JSON: "par", null when no win; the line is "solution")')
    solve.set_defaults(run=cmd_solve)

    odds = commands.add_parser("odds", help="solve a range of deals: the share that can be won",
                               description="Solve deals START .. START+K-1 in parallel and "
                                           "report how many can be won.")
    add_variant(odds)
    odds.add_argument("--deals", type=positive("--deals"), required=True, metavar="K",
                      help="how many deals to solve")
    odds.add_argument("--start", type=deal_number, default=1, metavar="N",
                      help="the first deal number; default 1")
    odds.add_argument("--workers", type=positive("--workers"), metavar="W",
                      help="worker processes; default one per CPU. Results do not depend on it")
    odds.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                      help="show a progress bar on stderr (default: when stderr is a terminal)")
    odds.add_argument("--player", choices=["solver", "greedy"], default="solver",
                      help="solver: perfect play, a win is a deal that can be won (default); "
                           "greedy: a win is a deal the greedy player wins (Kings first, then "
                           "the pair that uncovers most pyramid cards, else draw)")
    add_rule_options(odds)
    odds.add_argument("--json", action="store_true", help="print the figures as JSON")
    odds.add_argument("--results", metavar="DIR",
                      help="keep the verdicts in DIR, a file a range of 2,000 deals, and solve "
                           "only the ranges not there yet: a long run can stop and go on")
    odds.add_argument("--scheduler", metavar="ADDRESS",
                      help="solve on a Dask cluster (e.g. tcp://host:8786; needs --results and "
                           "dask[distributed]) instead of local worker processes")
    odds.add_argument("--bits", metavar="FILE",
                      help="also write the winnable deals as a bitset: deal START+i is bit i%%8 "
                           "of byte i//8")
    odds.add_argument("--verdicts", metavar="FILE",
                      help="also write each deal's verdict to FILE, gzipped, one letter a deal "
                           "in deal order: W winnable, L not winnable, ? unknown (with "
                           "--player greedy: W won, L lost)")
    odds.set_defaults(run=cmd_odds)

    facts = commands.add_parser(
        "facts", help="measure par and the difficulty facts of the winnable deals of a range",
        description="Measure par, the greedy player, 200 random playouts and the winning "
                    "first moves of each winnable deal of START .. START+K-1, kept in DIR a "
                    "file a range of 2,000 deals (a rerun measures only what is missing).")
    facts.add_argument("--goal", type=goal, default=Goal.STANDARD, help="as for odds")
    facts.add_argument("--passes", type=passes, default=DEFAULT_PASSES, help="as for odds")
    facts.add_argument("--deals", type=positive("--deals"), required=True, metavar="K",
                       help="how many deals")
    facts.add_argument("--start", type=deal_number, default=1, metavar="N",
                       help="the first deal number; default 1")
    facts.add_argument("--results", metavar="DIR", required=True,
                       help="where the results are kept (DIR/facts/GOAL-PASSES/)")
    facts.add_argument("--workers", type=positive("--workers"), metavar="W",
                       help="worker processes; default one per CPU. Results do not depend on it")
    facts.add_argument("--scheduler", metavar="ADDRESS",
                       help="measure on a Dask cluster (e.g. tcp://host:8786) instead")
    facts.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="show a progress bar on stderr (default: when stderr is a terminal)")
    facts.add_argument("--json", action="store_true", help="print the summary as JSON")
    facts.set_defaults(run=cmd_facts)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (the console script exits with it)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error, already printed (2)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return args.run(args)
    except UsageError as exc:
        print(f"{PROG} {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader left (`pyramid solve 617 | head`): stop quietly, as other commands do.
        # Point stdout at /dev/null so that Python's flush at exit raises nothing more.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a command a pipe closed


if __name__ == "__main__":
    sys.exit(main())
