"""The solver on the device (static/wasm/solver.wasm through static/js/solver/solver.js) and the
native extension (app/engine/solver.py): one suite of positions, the same answers.

The page's hints, verdicts and coach come from the WebAssembly build of the very C core the
server runs (scripts/build_wasm.py), so they must answer what the server would. Over more than
a thousand positions of the six rule sets (standard and whole deck, 1 to 3 passes):

- random deals at their start, and mid-game positions reached by seeded play (random moves,
  removals first, the greedy player), a few depths into each game;
- the perft positions (tests/data/perft.json: a deal's start, its stock drawn once or twice);
- the hardest deals of the committed odds data (the highest difficulty scores of each rule set),
  and the slowest deals of docs/solver.md at a small node limit, so that a search stopped by
  its limit is compared too;

the native extension's answers are recorded: the verdict within the hint's node limit, the
winning line and its node count, the hint (solver.hint's move, winning or salvage), and the
par with its line (or that the par search hit its limit). One Node process
(tests/js/solver_conformance.mjs) replays each position with the JS engine, asks the .wasm the
same, and lists what differs, each naming the deal, the rule set and the moves to the position.
Seeded: the same positions every run.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.engine import VARIANTS, Deal, Game, Move, Variant
from app.engine.analysis import analyse, winnable_until
from app.engine.greedy import choose_move
from app.engine.solver import HINT_NODE_LIMIT, SearchLimitReached, hint, solve
from app.odds.dealfacts import DIFFICULTY_DIR, DIFFICULTY_FILE, difficulty_data

from .engine_helpers import kept_payload, perft_file

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "js" / "solver_conformance.mjs"
WASM = ROOT / "static" / "wasm" / "solver.wasm"

SEED = 20_261_205
START_DEALS = 15
"""Random deals a rule set, at their start."""
GAMES = 30
"""Seeded games a rule set, each giving positions at MID_DEPTHS moves in (while it lasts)."""
MID_DEPTHS = (6, 14, 24, 36)
LOST_GAMES = 8
"""Games a rule set played to their end by seeded random moves: analysed (where it went wrong)
natively and on the device (static/js/solver/analysis.js)."""
HARDEST = 8
"""The deals of highest difficulty score a rule set (app/data/difficulty)."""
SLOWEST = ((62644, "wholedeck", 2), (19400, "wholedeck", 2), (62644, "standard", 2),
           (41904, "standard", 3), (71764, "wholedeck", 3), (4812, "standard", 1))
"""docs/solver.md's slowest deals: searched to SLOW_LIMIT only, so both stop at the limit."""
SLOW_LIMIT = 20_000
PAR_LIMIT = 20_000
"""The par search's budget here: a par beyond it is compared as "limit" (both must stop)."""


def _policy(kind: int, game: Game, rng: random.Random) -> Move:
    legal = game.legal_moves
    if kind == 0:
        return rng.choice(legal)
    if kind == 1:
        removals = [m for m in legal if m.cards]
        return rng.choice(removals) if removals else legal[-1]
    move = choose_move(game)
    assert move is not None
    return move


def native(game: Game, node_limit: int = HINT_NODE_LIMIT) -> dict[str, Any]:
    """What the native extension answers for the position: as the server's hint route asks."""
    found = solve(game, node_limit=node_limit)
    advice = hint(game, solution=found)
    try:
        shortest = solve(game, node_limit=min(node_limit, PAR_LIMIT), shortest=True)
        if shortest.winnable is None:
            raise SearchLimitReached
        par: int | str | None = shortest.par
        par_line = [m.to_text() for m in shortest.moves] if shortest.moves is not None else None
    except SearchLimitReached:
        par, par_line = "limit", None
    return {
        "verdict": found.verdict.value,
        "nodes": found.nodes,
        "line": [m.to_text() for m in found.moves] if found.moves is not None else None,
        "hint": advice.move.to_text() if advice.move is not None else None,
        "par": par,
        "par_line": par_line,
    }


def case(kind: str, deal: Deal, variant: Variant, moves: list[Move],
         node_limit: int = HINT_NODE_LIMIT) -> dict[str, Any]:
    """A position, and the native answers for it (filled in by ``answered``)."""
    return {
        "kind": kind,
        "deal": str(deal.number) if deal.number is not None else None,
        "cards": deal.to_text(),
        "goal": variant.goal.value,
        "passes": variant.passes,
        "moves": [m.to_text() for m in moves],
        "node_limit": node_limit,
        "par_limit": PAR_LIMIT,
    }


def answered(c: dict[str, Any]) -> dict[str, Any]:
    deal = Deal.from_text(c["cards"])
    moves = [Move.from_text(text) for text in c["moves"]]
    game = Game.replay(deal, c["goal"], c["passes"], moves)
    return {**c, "native": native(game, c["node_limit"])}


def build_cases() -> list[dict[str, Any]]:
    rng = random.Random(SEED)
    cases = []
    for variant in VARIANTS:
        for _ in range(START_DEALS):
            cases.append(case("random deal", Deal.from_number(rng.randrange(1, 10**9)),
                              variant, []))
        for i in range(GAMES):
            deal = Deal.from_number(rng.randrange(1, 10**9))
            game = Game(deal, variant.goal, variant.passes)
            for depth in MID_DEPTHS:
                while len(game.moves) < depth and not game.is_over():
                    game.play(_policy(i % 3, game, rng))
                cases.append(case("mid-game", deal, variant, list(game.moves)))
                if game.is_over():
                    break
        data = difficulty_data(variant)
        scores = sorted(range(data.deals), key=lambda i: (-data.codes[i], i))[:HARDEST]
        for index in scores:
            cases.append(case("hardest", Deal.from_number(data.start + index), variant, []))
    perft = perft_file()
    for entry in perft["cases"]:
        deal = Deal.from_number(entry["deal"])
        variant = Variant(entry["goal"], entry["passes"])
        if "perft" in entry:
            prefix = [Move.from_text(t) for t in perft["prefixes"][entry["prefix"]]]
            cases.append(case("perft", deal, variant, prefix))
        else:
            for line in entry["lines"].values():
                moves = [Move.from_text(t) for t in line["moves"]]
                for cut in range(6, len(moves), 12):
                    cases.append(case("perft line", deal, variant, moves[:cut]))
    for number, goal, passes in SLOWEST:
        cases.append(case("slowest, to a node limit", Deal.from_number(number),
                          Variant(goal, passes), [], node_limit=SLOW_LIMIT))
    return cases


def _once(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each position once (perft's lines share their starts)."""
    seen: set[tuple] = set()
    kept = []
    for c in cases:
        key = (c["cards"], c["goal"], c["passes"], tuple(c["moves"]), c["node_limit"])
        if key not in seen:
            seen.add(key)
            kept.append(c)
    return kept


def build_payload() -> dict[str, Any]:
    """The native side: each position's answers (``answered``) and the analyses."""
    return {"cases": [answered(c) for c in _once(build_cases())], "analyses": build_analyses()}


@pytest.fixture(scope="module")
def payload_file() -> Path:
    """The native side's answers as a file: made (about 6 CPU-s), or kept from a run of the
    same sources (``kept_payload``)."""
    odds = ROOT / "app" / "odds"  # the hardest deals come from the difficulty data
    return kept_payload("wasm-conformance", build_payload,
                        also=[*odds.glob("*.py"), DIFFICULTY_FILE, *DIFFICULTY_DIR.glob("*")])


@pytest.fixture(scope="module")
def cases(payload_file: Path) -> list[dict[str, Any]]:
    return json.loads(payload_file.read_text())["cases"]


def build_analyses() -> list[dict[str, Any]]:
    """Ended games and analysis.py's answers for each: the first losing move and the better one,
    and ``winnable_until`` (the moves to undo, which a hint from a lost position tells)."""
    rng = random.Random(SEED + 1)
    games = []
    for variant in VARIANTS:
        for i in range(LOST_GAMES):
            game = Game(Deal.from_number(rng.randrange(1, 10**9)), variant.goal, variant.passes)
            while not game.is_over():
                game.play(_policy(i % 2, game, rng))
            found = analyse(game)
            games.append({
                "cards": game.deal.to_text(), "deal": str(game.deal.number),
                "goal": variant.goal.value, "passes": variant.passes,
                "moves": [m.to_text() for m in game.moves],
                "native": [found.winnable_at_start, found.lost_at,
                           found.losing_move.to_text() if found.losing_move else None,
                           found.better_move.to_text() if found.better_move else None,
                           found.solves, found.nodes, found.complete,
                           winnable_until(game, node_limit=HINT_NODE_LIMIT // 4)]})
    return games


@pytest.fixture(scope="module")
def report(payload_file: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on the PATH: install Debian's nodejs (apt-get install nodejs) "
                    "to hold the WebAssembly solver to the native one", pytrace=False)
    path = tmp_path_factory.mktemp("wasm") / "cases.json"
    path.write_text(json.dumps({"wasm": str(WASM), **json.loads(payload_file.read_text())}))
    done = subprocess.run([node, str(RUNNER), str(path)], capture_output=True, text=True,
                          timeout=300, check=False)
    if done.returncode != 0:
        pytest.fail(f"the runner failed ({done.returncode}):\n{done.stderr[-4000:]}",
                    pytrace=False)
    return json.loads(done.stdout)


@pytest.mark.parametrize("what", ["verdict", "nodes", "line", "hint", "par", "par_line"])
def test_the_wasm_solver_answers_as_the_native_one(report: dict[str, Any], what: str):
    part = report["answers"][what]
    assert part["compared"] == len(report["positions"]) > 0
    if part["failed"]:
        listed = "\n".join(part["messages"])
        pytest.fail(f"{part['failed']} of {part['compared']} positions differ in {what}; "
                    f"the first:\n{listed}", pytrace=False)


def test_the_device_coach_finds_where_a_game_went_wrong_as_the_server_does(
        report: dict[str, Any]):
    part = report["analyses"]
    assert part["compared"] >= 6 * LOST_GAMES and part["lost_at"] >= 6
    if part["failed"]:
        listed = "\n".join(part["messages"])
        pytest.fail(f"{part['failed']} of {part['compared']} analyses differ; the first:\n"
                    f"{listed}", pytrace=False)


def test_the_positions_cover_what_they_promise(cases: list[dict[str, Any]]):
    assert len(cases) >= 1_000
    per_rules = {v.key: sum(c["goal"] == v.goal.value and c["passes"] == v.passes
                            for c in cases) for v in VARIANTS}
    assert min(per_rules.values()) >= 120, per_rules
    kinds = {c["kind"] for c in cases}
    assert kinds >= {"random deal", "mid-game", "hardest", "perft", "perft line",
                     "slowest, to a node limit"}
    verdicts = [c["native"]["verdict"] for c in cases]
    for verdict in ("winnable", "not_winnable", "unknown"):
        assert verdicts.count(verdict) >= 6, (verdict, verdicts.count(verdict))
    assert sum(isinstance(c["native"]["par"], int) for c in cases) >= 300
    assert sum(c["native"]["par"] == "limit" for c in cases) >= 1
    assert sum(len(c["moves"]) >= 20 for c in cases) >= 200
