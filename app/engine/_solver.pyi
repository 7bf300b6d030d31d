# The C extension's interface (app/engine/_solver.c), for mypy: what solver.py and playout.py
# call and read. The constants are _core.h's pruning flags and op codes.
KINGS: int
FORCED_PAIRS: int
DEAD_ENDS: int
RELAXED: int
COMMUTE: int
STACKED: int
NESTED: int
WORD: int
APEX: int
SUITS: int
STARTS: int
DOMINANCE: int
CONE: int
ALL_PRUNING: int
OP_KING: int
OP_PAIR: int
OP_DRAW: int
OP_RECYCLE: int
MAX_PASSES: int
"""The most passes a search takes: variant.MAX_PASSES (tests/engine/test_refusals.py)."""

def solve(pyramid: bytes, talon: bytes, stock_top: int, pass_index: int, passes: int,
          wholedeck: int, flags: int, node_limit: int, overlap: bool = False,
          shortest: bool = False) -> tuple[int, list[tuple[int, int, int]], int]:
    """(status, moves, nodes): status 1 won (moves: a winning line), 0 lost, -1 stopped at
    the node limit. passes=0: unlimited."""

def playouts(pyramid: bytes, talon: bytes, stock_top: int, pass_index: int, passes: int,
             wholedeck: int, count: int, seed: int, record: bool = False
             ) -> tuple[int, int, list[tuple[bool, list[tuple[int, int, int]]]] | None]:
    """(wins, cards_left, lines): lines, with record, a (won, moves) pair a game, else None."""
