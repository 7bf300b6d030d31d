"""Solver benchmark: decide deals 1..N in each of the six variants and print the figures.

    python bench/solver.py [--deals 1000] [--goal standard|wholedeck] [--passes 1|2|3]
    python bench/solver.py --par [--deals 1000]
    python bench/solver.py --unlimited [--overlap] --deals 10000 --goal standard
    python bench/solver.py --hints [--deals 200]
    python bench/solver.py --analysis [--deals 200]
    python bench/solver.py --greedy [--deals 2000]

One process, one deal at a time, wall-clock time per `solve` call. Prints, per variant: deals
decided, wins, mean / median / 99th percentile / maximum seconds and nodes per deal, the nodes
of the deals won (summed: what the move order changes), and deals per second. Nothing here is
a test: the figures go into docs/solver.md (the current ones) and docs/solver-log.md. Every
mode first prints the machine's speed, the time of the fixed pure-Python loop
``sum(range(10**6))`` (median of 5), and gives the mean and the maximum also as multiples of it
(x), so that figures taken on machines of different speeds, or on a busy one, can be
compared.

--par times ``solve(shortest=True)`` (the decision search, then the par search) per deal and
prints the mean par and the mean length of the decision search's line over the winnable deals.

--analysis times ``analyse`` (app/engine/analysis.py, default node limit) on a lost game per
deal, played the way a player loses: the solver's winning line for a random number of moves
(none when the deal cannot be won), then the greedy player, each move a random legal move
instead one time in four, until the game ends. Games that end in a win are left out.
--greedy times ``greedy_wins`` per deal (dealing included, as the odds do).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engine import Deal, Game
from app.engine.analysis import analyse
from app.engine.greedy import choose_move, greedy_wins
from app.engine.solver import ALL_PRUNING, hint, solve

RANDOM_MOVE_SHARE = 0.25
"""In --analysis games, the share of moves after the winning line that are random."""
LONG_GAME = 50
"""--analysis also gives the 95th percentile over games of at least this many moves."""


def machine_speed() -> float:
    """Seconds for ``sum(range(10**6))``, median of 5: the unit of the (x) columns."""
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        sum(range(10**6))
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95%) of a win rate: the odds' sampling error."""
    if not n:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return centre - half, centre + half


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run_variant(goal: str, passes: int | None, deals: int, start: int, shortest: bool = False,
                overlap: bool = False, pruning: int = ALL_PRUNING) -> dict[str, float]:
    seconds: list[float] = []
    nodes: list[int] = []
    won_nodes = 0
    pars: list[int] = []
    lines: list[int] = []
    wins = undecided = 0
    slowest = (0.0, 0)
    began = time.perf_counter()
    for number in range(start, start + deals):
        game = Game(Deal.from_number(number), goal, passes or 3)
        t0 = time.perf_counter()
        solution = solve(game, pruning=pruning, shortest=shortest, passes=passes,
                         overlap=overlap)
        elapsed = time.perf_counter() - t0
        if shortest and solution.winnable:
            pars.append(len(solution.moves))
            lines.append(len(solve(game, passes=passes, overlap=overlap).moves))
        seconds.append(elapsed)
        nodes.append(solution.nodes)
        slowest = max(slowest, (elapsed, number))
        if solution.winnable is None:
            undecided += 1
        elif solution.winnable:
            wins += 1
            won_nodes += solution.nodes
    total = time.perf_counter() - began
    return {
        "deals": deals, "wins": wins, "undecided": undecided,
        "mean_ms": 1000 * statistics.mean(seconds),
        "median_ms": 1000 * statistics.median(seconds),
        "p99_ms": 1000 * percentile(seconds, 0.99),
        "max_ms": 1000 * max(seconds), "slowest_deal": slowest[1],
        "mean_nodes": statistics.mean(nodes), "median_nodes": statistics.median(nodes),
        "p99_nodes": percentile([float(n) for n in nodes], 0.99), "max_nodes": max(nodes),
        "won_nodes": won_nodes, "deals_per_s": deals / total,
        "mean_par": statistics.mean(pars) if pars else 0.0,
        "mean_line": statistics.mean(lines) if lines else 0.0,
    }


def time_hints(goal: str, passes: int, deals: int, start: int) -> list[float]:
    """Seconds per ``hint`` call, from a position 10 random moves into each deal."""
    seconds = []
    for number in range(start, start + deals):
        rng = random.Random(number)
        game = Game(Deal.from_number(number), goal, passes)
        for _ in range(10):
            if game.is_over():
                break
            game.play(rng.choice(game.legal_moves))
        if game.is_over():
            continue
        t0 = time.perf_counter()
        hint(game)
        seconds.append(time.perf_counter() - t0)
    return seconds


def lost_game(number: int, goal: str, passes: int) -> Game:
    """Deal ``number`` played as --analysis describes (it may end in a win)."""
    rng = random.Random(number)
    game = Game(Deal.from_number(number), goal, passes)
    line = solve(game).moves
    if line:
        for move in line[: rng.randrange(len(line))]:
            game.play(move)
    while not game.is_over():
        if rng.random() < RANDOM_MOVE_SHARE:
            game.play(rng.choice(game.legal_moves))
        else:
            game.play(choose_move(game))
    return game


def time_analysis(goal: str, passes: int, deals: int, start: int) -> dict[str, float]:
    seconds: list[float] = []
    moves: list[int] = []
    solves: list[int] = []
    won = found = undecided = 0
    slowest = (0.0, 0)
    for number in range(start, start + deals):
        game = lost_game(number, goal, passes)
        if game.outcome().won:
            won += 1
            continue
        t0 = time.perf_counter()
        result = analyse(game)
        elapsed = time.perf_counter() - t0
        seconds.append(elapsed)
        slowest = max(slowest, (elapsed, number))
        moves.append(len(game.moves))
        solves.append(result.solves)
        found += result.lost_at is not None
        undecided += not result.complete
    long = [t for t, n in zip(seconds, moves, strict=True) if n >= LONG_GAME]
    return {
        "games": len(seconds), "won": won, "lost_at": found, "undecided": undecided,
        "long": len(long), "long_p95_ms": 1000 * percentile(long, 0.95) if long else 0.0,
        "mean_moves": statistics.mean(moves), "max_moves": max(moves),
        "mean_solves": statistics.mean(solves), "max_solves": max(solves),
        "median_ms": 1000 * statistics.median(seconds),
        "p95_ms": 1000 * percentile(seconds, 0.95),
        "max_ms": 1000 * max(seconds), "slowest_deal": slowest[1],
    }


def time_greedy(goal: str, passes: int, deals: int, start: int) -> tuple[int, float]:
    """Wins, and milliseconds per deal (dealing included)."""
    t0 = time.perf_counter()
    wins = sum(greedy_wins(Deal.from_number(n), goal, passes) for n in range(start, start + deals))
    return wins, 1000 * (time.perf_counter() - t0) / deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--goal", choices=["standard", "wholedeck"], action="append")
    parser.add_argument("--passes", type=int, choices=[1, 2, 3], action="append")
    parser.add_argument("--hints", action="store_true",
                        help="time hint() from mid-game positions instead")
    parser.add_argument("--analysis", action="store_true",
                        help="time analyse() on lost games instead")
    parser.add_argument("--greedy", action="store_true",
                        help="time the greedy player instead")
    parser.add_argument("--par", action="store_true",
                        help="time solve(shortest=True): the par and a shortest line")
    parser.add_argument("--unlimited", action="store_true",
                        help="the solver's option: unlimited passes (instead of --passes)")
    parser.add_argument("--overlap", action="store_true",
                        help="the solver's option: overlap pairs")
    parser.add_argument("--without", type=int, default=0, metavar="FLAGS",
                        help="pruning flags to switch off (solver.KINGS=1 .. solver.CONE=4096)")
    args = parser.parse_args()
    unit = machine_speed()
    print(f"machine speed: sum(range(10**6)) = {1000 * unit:.1f} ms (x: multiples of it)")
    goals = args.goal or ["standard", "wholedeck"]
    passes_list: list[int | None] = [None] if args.unlimited else args.passes or [1, 2, 3]
    last = args.start + args.deals - 1
    if args.analysis:
        print(f"analyse() on a lost game from each of deals {args.start}..{last}")
        print(f"{'variant':<14}{'games':>6}{'won':>5}{'lost_at':>8}{'undec':>6}{'moves':>7}"
              f"{'max':>5}{'solves':>7}{'max':>5}{'median ms':>10}{'p95 ms':>8}{'max ms':>8}"
              f"{'(deal)':>7}{f'n>={LONG_GAME}':>7}{'p95 ms':>8}")
        for goal in goals:
            for passes in passes_list:
                r = time_analysis(goal, passes, args.deals, args.start)
                print(f"{goal + f' {passes}p':<14}{r['games']:>6}{r['won']:>5}{r['lost_at']:>8}"
                      f"{r['undecided']:>6}{r['mean_moves']:>7.1f}{r['max_moves']:>5}"
                      f"{r['mean_solves']:>7.1f}{r['max_solves']:>5}{r['median_ms']:>10.2f}"
                      f"{r['p95_ms']:>8.1f}{r['max_ms']:>8.1f}{r['slowest_deal']:>7}"
                      f"{r['long']:>7}{r['long_p95_ms']:>8.1f}", flush=True)
        return
    if args.greedy:
        print(f"greedy_wins() on deals {args.start}..{last}, dealing included")
        print(f"{'variant':<14}{'wins':>13}{'ms/deal':>9}")
        for goal in goals:
            for passes in passes_list:
                wins, ms = time_greedy(goal, passes, args.deals, args.start)
                print(f"{goal + f' {passes}p':<14}{f'{wins}/{args.deals}':>13}{ms:>9.3f}",
                      flush=True)
        return
    if args.hints:
        print(f"hint() 10 random moves into deals {args.start}..{args.start + args.deals - 1}")
        print(f"{'variant':<14}{'hints':>7}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}")
        for goal in goals:
            for passes in passes_list:
                t = time_hints(goal, passes, args.deals, args.start)
                print(f"{goal + f' {passes}p':<14}{len(t):>7}{1000 * statistics.median(t):>11.2f}"
                      f"{1000 * percentile(t, 0.99):>9.1f}{1000 * max(t):>9.1f}", flush=True)
        return
    header = (f"{'variant':<16}{'wins':>13}{'mean ms':>9}{'(x)':>7}{'median':>8}{'p99 ms':>9}"
              f"{'max ms':>9}{'(x)':>7}{'(deal)':>8}{'mean nodes':>12}{'median':>9}"
              f"{'p99 nodes':>11}{'max nodes':>11}{'won nodes':>11}{'deals/s':>9}"
              + (f"{'par':>7}{'line':>7}" if args.par else "")
              + f"{'win %':>8}{'95% interval':>17}")
    what = "solve(shortest=True)" if args.par else "solve()"
    if args.without:
        what += f" without pruning flags {args.without}"
    print(f"{what} on deals {args.start}..{args.start + args.deals - 1}, one process")
    print(header)
    for goal in goals:
        for passes in passes_list:
            r = run_variant(goal, passes, args.deals, args.start, shortest=args.par,
                            overlap=args.overlap, pruning=ALL_PRUNING & ~args.without)
            label = f"{goal} {f'{passes}p' if passes else 'unl'}{' ov' if args.overlap else ''}"
            low, high = wilson(r["wins"], r["deals"] - r["undecided"])
            wins = f"{r['wins']}/{r['deals']}"
            print(f"{label:<16}{wins:>13}{r['mean_ms']:>9.2f}{r['mean_ms'] / 1000 / unit:>7.3f}"
                  f"{r['median_ms']:>8.2f}{r['p99_ms']:>9.1f}{r['max_ms']:>9.1f}"
                  f"{r['max_ms'] / 1000 / unit:>7.2f}{r['slowest_deal']:>8}"
                  f"{r['mean_nodes']:>12.0f}{r['median_nodes']:>9.0f}{r['p99_nodes']:>11.0f}"
                  f"{r['max_nodes']:>11}{r['won_nodes']:>11}{r['deals_per_s']:>9.1f}"
                  + (f"{r['mean_par']:>7.1f}{r['mean_line']:>7.1f}" if args.par else "")
                  + f"{100 * r['wins'] / r['deals']:>8.2f}    [{100 * low:.2f}, {100 * high:.2f}]"
                  + (f"  UNDECIDED {r['undecided']}" if r["undecided"] else ""), flush=True)


if __name__ == "__main__":
    main()
