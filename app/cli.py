"""The ``pyramid`` command: show a deal, solve one, or measure the odds over a range of deals.

    pyramid deal 617                      the deal drawn as a pyramid, and its stock
    pyramid solve 617 --goal wholedeck    can it be won, and how
    pyramid odds --deals 1000             the share of deals 1..1000 that can be won
    pyramid odds --deals 1000 --player greedy   ... that the greedy player wins

Every error a user can cause ends with exit status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from app.engine import (
    DEFAULT_PASSES,
    MAX_DEAL_NUMBER,
    Deal,
    DealError,
    Game,
    GameSetupError,
    Goal,
    Variant,
    parse_goal,
    parse_passes,
)
from app.engine.deal import PYRAMID_ROWS

PROG = "pyramid"
LINE_WIDTH = 78


class UsageError(Exception):
    """A mistake in what the user asked for; ``main`` prints it as one line and exits 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but an error is one line on stderr (no usage block) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (try '{self.prog} --help')\n")


# --- argument types -------------------------------------------------------------------------
def _deal_number(text: str) -> int:
    try:
        return Deal.parse_number(text)
    except DealError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _goal(text: str) -> Goal:
    """``standard`` or ``wholedeck`` (``whole-deck`` and ``whole_deck`` are fine too)."""
    try:
        return parse_goal(text.strip().lower().replace("-", "").replace("_", ""))
    except GameSetupError:
        raise argparse.ArgumentTypeError(
            f"goal must be 'standard' or 'wholedeck', not {text!r}"
        ) from None


def _passes(text: str) -> int:
    try:
        return parse_passes(text)
    except GameSetupError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(what: str):
    def parse(text: str) -> int:
        try:
            value = int(text.replace(",", "").replace("_", ""))
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number of 1 or more, "
                                             f"not {text!r}")
        return value

    return parse


# --- reading a deal ---------------------------------------------------------------------------
def read_deal_file(path: str) -> Deal:
    """A deal in RULES.md's JSON form (or the one-line text form); ``-`` reads stdin."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"deal file {path!r} does not exist") from None
    except IsADirectoryError:
        raise UsageError(f"deal file {path!r} is a directory") from None
    except UnicodeDecodeError:
        raise UsageError(f"deal file {path!r} is not a text file") from None
    except OSError as exc:
        raise UsageError(f"cannot read deal file {path!r}: {exc.strerror}") from None
    try:
        if text.lstrip().startswith(("{", "[")) or not text.strip():
            return Deal.from_json(text)
        return Deal.from_text(text.strip())
    except DealError as exc:
        raise UsageError(f"deal file {path!r}: {exc}") from None


def _deal_from(args: argparse.Namespace) -> Deal:
    if args.deal_file is not None:
        if args.number is not None:
            raise UsageError("give a deal number or --deal-file, not both")
        return read_deal_file(args.deal_file)
    if args.number is None:
        raise UsageError("give a deal number (1 to 99,999,999,999,999,999,999) or --deal-file")
    return Deal.from_number(args.number)


# --- pyramid deal ---------------------------------------------------------------------------
def draw_pyramid(deal: Deal) -> list[str]:
    """The pyramid as text, each row centred under the one above, so that every card sits
    between the two cards that cover it."""
    lines, index = [], 0
    for row in range(PYRAMID_ROWS):
        cards = deal.pyramid[index : index + row + 1]
        index += row + 1
        lines.append(" " * 2 * (PYRAMID_ROWS - 1 - row) + "  ".join(c.name for c in cards))
    return lines


def describe_deal(deal: Deal) -> str:
    title = f"Deal {deal.number}" if deal.number is not None else "Custom deal"
    stock = " ".join(card.name for card in deal.stock)
    return "\n".join(
        [title, "", *draw_pyramid(deal), "", f"Stock, top first: {stock}", f"Text: {deal}"]
    )


def cmd_deal(args: argparse.Namespace) -> int:
    deal = _deal_from(args)
    print(deal.to_json() if args.json else describe_deal(deal))
    return 0


# --- pyramid solve --------------------------------------------------------------------------
def _numbered(moves: Sequence[object]) -> list[str]:
    """``1. draw   2. 5H+8C ...`` wrapped to the terminal width, never inside a move."""
    lines: list[str] = []
    line = ""
    for number, move in enumerate(moves, start=1):
        item = f"{number:>3}. {move!s:<7}"
        if line and len(line) + len(item) > LINE_WIDTH:
            lines.append(line.rstrip())
            line = ""
        line += item
    if line:
        lines.append(line.rstrip())
    return lines


def cmd_solve(args: argparse.Namespace) -> int:
    from app.engine.solver import Verdict, solve  # the C core loads only when needed

    deal = _deal_from(args)
    game = Game(deal, args.goal, args.passes)
    solution = solve(game, node_limit=args.node_limit, shortest=args.par)
    if args.json:
        answer = {
            "deal": deal.number,
            "goal": game.goal.value,
            "passes": game.passes,
            "winnable": solution.winnable,
            "verdict": solution.verdict.value,
            "solution": (None if solution.moves is None
                         else [move.to_dict() for move in solution.moves]),
            "nodes": solution.nodes,
            "seconds": round(solution.seconds, 6),
        }
        if args.par:
            answer["par"] = solution.par
        print(json.dumps(answer))
        return 0
    title = f"Deal {deal.number}" if deal.number is not None else "Custom deal"
    noun = "position" if solution.nodes == 1 else "positions"
    searched = f"{solution.nodes:,} {noun} searched in {solution.seconds:.3f} s"
    if solution.verdict is Verdict.WINNABLE:
        moves = solution.moves or ()
        print(f"{title}, {game.variant.label}: winnable ({searched}).")
        if args.par:
            print(f"Par {solution.par}: a shortest winning line, proven:")
        else:
            print(f"A winning line of {len(moves)} moves:")
        print("\n".join(_numbered(moves)))
    elif solution.verdict is Verdict.NOT_WINNABLE:
        print(f"{title}, {game.variant.label}: not winnable, "
              f"whatever is played ({searched}).")
    else:
        print(f"{title}, {game.variant.label}: unknown, the search stopped at "
              f"the node limit ({searched}).")
    return 0


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
                               progress=bar.update, player=args.player)
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
    print(f"{Variant(odds.goal, odds.passes).title}, "
          f"deals {args.start:,} to {last:,}{player}")
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


# --- the parser ---------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Pyramid Solitaire from the command line: deals, the solver and the odds.",
    )
    commands = parser.add_subparsers(dest="command", metavar="{deal,solve,odds}", required=True)

    def add_deal_choice(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("number", nargs="?", type=_deal_number,
                         help="deal number, 1 to 99,999,999,999,999,999,999 (PySolFC's)")
        sub.add_argument("--deal-file", metavar="F",
                         help="a custom deal in RULES.md's JSON form, or the one-line text "
                              "form (- reads stdin), instead of a number")

    def add_variant(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--goal", type=_goal, default=Goal.STANDARD,
                         help="standard (clear the pyramid) or wholedeck (all 52 cards); "
                              "default standard")
        sub.add_argument("--passes", type=_passes, default=DEFAULT_PASSES,
                         help="trips through the stock: 1, 2 or 3; default 3")
        sub.add_argument("--node-limit", type=_positive("--node-limit"), metavar="N",
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
    solve.add_argument("--par", action="store_true",
                       help="find a shortest winning line, proven: its length is the par "
                            '(JSON: "par", null when no win; the line is "solution")')
    solve.set_defaults(run=cmd_solve)

    odds = commands.add_parser("odds", help="solve a range of deals: the share that can be won",
                               description="Solve deals START .. START+K-1 in parallel and "
                                           "report how many can be won.")
    add_variant(odds)
    odds.add_argument("--deals", type=_positive("--deals"), required=True, metavar="K",
                      help="how many deals to solve")
    odds.add_argument("--start", type=_deal_number, default=1, metavar="N",
                      help="the first deal number; default 1")
    odds.add_argument("--workers", type=_positive("--workers"), metavar="W",
                      help="worker processes; default one per CPU. Results do not depend on it")
    odds.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                      help="show a progress bar on stderr (default: when stderr is a terminal)")
    odds.add_argument("--player", choices=["solver", "greedy"], default="solver",
                      help="solver: perfect play, a win is a deal that can be won (default); "
                           "greedy: a win is a deal the greedy player wins (Kings first, then "
                           "the pair that uncovers most pyramid cards, else draw)")
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


if __name__ == "__main__":
    sys.exit(main())
