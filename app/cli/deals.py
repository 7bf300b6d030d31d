"""``pyramid deal`` and ``pyramid solve``: one deal, drawn or solved."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from app.engine import Deal, Game
from app.engine.deal import PYRAMID_ROWS

from .arguments import deal_from

LINE_WIDTH = 78


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
    deal = deal_from(args)
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
    # the C core loads only when needed
    from app.engine.solver import GAME_PASSES, Verdict, solve

    deal = deal_from(args)
    game = Game(deal, args.goal, args.passes)
    solution = solve(game, node_limit=args.node_limit, shortest=args.par,
                     passes=None if args.unlimited else GAME_PASSES, overlap=args.overlap)
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
        if args.unlimited:
            answer["unlimited_passes"] = True
        if args.overlap:
            answer["overlap"] = True
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
