"""The JS engine (``static/js/engine/``) and ``app/engine``: one suite of positions, two engines.

A page that judges moves itself must judge them as the server does, or a move it showed would be
refused, or a loss it announced be no loss. So, as chessops is held to python-chess, the JS
engine is held to this one by what the Python engine does:

- traces: over 2,000 random games (the six rule sets alike; deal numbers from both of PySolFC's
  generators, up to 10^20 - 1; three ways of choosing moves; undos, also after the end; the
  constructed deals of ``engine_helpers``), perft.json's prefixes and fixed playouts. After
  every step the Python engine records the legal moves in order, the status, the ending and its
  termination, the score and its parts, the free cards, the tops, the piles and the counts,
  and two moves it refuses (``why_illegal``'s refusal and ``play``'s, by code and fields);
- perft: perft.json's move and position counts, walked again in JS;
- deals: thousands more deal numbers, and the golden deal vectors;
- notation: cards, moves, deals, deal numbers and rule sets read from text and JSON, good and
  bad, with Python's result or Python's error class and refusal (code and fields);
- constants: the refusal codes and the pass limit (``MAX_PASSES``), each defined once per side.

One Node process (``tests/js/conformance.mjs``) replays all of it with the JS engine, runs the
JS-only unit tests (``tests/js/unit.mjs``) and reports what differed, first disagreements first,
each naming the deal, the rule set and the step. Everything is seeded: the same games every run.
Node is Debian's ``nodejs`` (CI installs it); without it these tests fail, saying so.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.engine import (
    FULL_DECK,
    MAX_PASSES,
    VARIANTS,
    Card,
    Code,
    Deal,
    Game,
    IllegalMove,
    Move,
    Op,
    Termination,
    Variant,
    score,
)
from app.engine.greedy import choose_move

from .engine_helpers import DATA, DEAL_A, DEAL_B, DEAL_N, DEAL_S, kept_payload, perft_file
from .js_notation_cases import NOTATION_CASES, encoded, run_notation

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "js" / "conformance.mjs"
NO_NODE = ("node is not on the PATH: install Debian's nodejs (apt-get install nodejs) to hold "
           "the JS engine to app/engine")

SEED = 20_250_613
PLAYOUTS = 2_100
"""Random games: 350 per rule set."""
MORE_DEALS = 3_000
"""Deal numbers compared by their cards alone (a shuffle each, no game)."""
UNDO_RATE = 0.06
ENDED_UNDOS = 2
"""Undos of an ended game's last move taken on purpose, besides ``UNDO_RATE``'s (each game
then plays on): an ended game must come back to life alike in both engines."""
PROBES = 2
"""Refused moves tried at each step."""
MAX_STEPS = 1_000
"""A guard against a game that never ends; none here comes near it."""
FIELDS = ["legal moves", "status", "termination", "score", "free cards",
          "free positions", "stock top", "waste top", "piles", "counts"]
"""What a step's view holds, in order (the runner checks it has the same list)."""
MAX_DEAL = 10**20 - 1
EDGE_DEALS = (1, 2, 31_999, 32_000, 32_001, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1,
              2**53 - 1, 2**53, 2**53 + 1, 2**64 - 1, 2**64, 2**64 + 1, 10**19, MAX_DEAL)
"""Where the generators switch, and where the Mersenne Twister's seed needs one 32-bit word
more (its key is the number's 32-bit words), and where a double stops being exact."""


# --- what a step records ----------------------------------------------------------------------
def _name(card: Card | None) -> str | None:
    return card.name if card is not None else None


def piles(game: Game) -> str:
    """The 28 pyramid slots (``--`` for a gone card) / the stock, top first / the waste."""
    return ("".join(card.name if card else "--" for card in game.pyramid) + "/"
            + "".join(c.name for c in game.stock) + "/" + "".join(c.name for c in game.waste))


def view(game: Game, legal: list[Move], hints: int, undos: int, seconds: int | None
         ) -> list[Any]:
    """Everything a page would show of ``game`` (whose ``legal_moves`` are ``legal``), laid
    out as ``FIELDS`` names it."""
    outcome = game.outcome()
    points = score(game, hints=hints, undos=undos, seconds=seconds)
    return [
        " ".join(move.to_text() for move in legal),
        game.status.value,
        outcome.termination.value if outcome else None,
        [points.total, points.removals, points.rows, points.whole_deck, points.time_bonus,
         points.hints, points.undos],
        " ".join(card.name for card in game.free_cards()),
        " ".join(str(index) for index, _ in game.free_pyramid()),
        _name(game.stock_top),
        _name(game.waste_top),
        piles(game),
        [game.pass_number, game.passes_left, game.pyramid_left, game.cards_removed,
         game.cards_cleared, len(game.moves)],
    ]


def _candidate(game: Game, rng: random.Random) -> Move:
    """A move to try, most often one the rules refuse: free cards that make no 13 or no King,
    a card or two taken anywhere in the pack (pairs that make 13 more often than chance, so
    that covered and buried cards are refused for that and not for their sum), a draw or a
    recycle."""
    roll = rng.random()
    if roll < 0.1:
        return Move.draw()
    if roll < 0.2:
        return Move.recycle()
    free = game.free_cards()
    if roll < 0.45 and len(free) >= 2:
        first, second = rng.sample(free, 2)
        return Move(Op.REMOVE, (first, second))
    card = rng.choice(free) if roll < 0.55 and free else FULL_DECK[rng.randrange(52)]
    if roll < 0.7 or card.is_king:
        return Move(Op.REMOVE, (card,))
    if roll < 0.85:  # a partner of any suit: FULL_DECK is suit by suit, Ace to King
        return Move(Op.REMOVE, (card, FULL_DECK[13 * rng.randrange(4) + 12 - card.rank]))
    other = FULL_DECK[rng.randrange(52)]
    return Move(Op.REMOVE, (card,)) if other is card else Move(Op.REMOVE, (card, other))


def probes(game: Game, rng: random.Random) -> list[list[Any]]:
    """``PROBES`` moves the game refuses now, each with ``why_illegal``'s refusal and
    ``play``'s, as dicts (on an ended game ``play`` refuses everything with ``game_over``)."""
    found: list[list[Any]] = []
    while len(found) < PROBES:
        move = _candidate(game, rng)
        why = game.why_illegal(move)
        if why is None and not game.is_over():  # is_legal(move), without asking twice
            continue
        try:
            game.play(move)
        except IllegalMove as exc:
            found.append([move.to_text(), why.to_dict() if why else None,
                          encoded(exc.refusal.to_dict())])
        else:  # pragma: no cover - the engine contradicted itself
            raise AssertionError(f"{move} was played though why_illegal refused it: {why}")
    return found


# --- the games --------------------------------------------------------------------------------
Policy = Callable[[Game, list[Move], random.Random], Move]


def _any_move(game: Game, legal: list[Move], rng: random.Random) -> Move:
    return rng.choice(legal)


def _removals_first(game: Game, legal: list[Move], rng: random.Random) -> Move:
    removals = [move for move in legal if move.op is Op.REMOVE]
    return rng.choice(removals) if removals else legal[-1]


def _greedy(game: Game, legal: list[Move], rng: random.Random) -> Move:
    move = choose_move(game)
    assert move is not None
    return move


POLICIES: dict[str, Policy] = {
    "random moves": _any_move,
    "random removals first": _removals_first,
    "greedy": _greedy,
}
"""Random play loses early; preferring removals and the greedy player reach deep positions
and wins, of both goals."""


def trace(deal: Deal, variant: Variant, policy: str, rng: random.Random,
          line: list[str] | None = None) -> dict[str, Any]:
    """One game with the Python engine, and what it showed after each step.

    With ``line`` the game plays those moves and nothing else; otherwise ``policy`` chooses,
    with an undo now and then (and sometimes after the end, then play goes on)."""
    game = Game(deal, variant.goal, variant.passes)
    hints = rng.randrange(3)
    seconds = rng.choice([None, rng.randrange(900)])
    undos = ended_undos = 0
    legal = game.legal_moves
    steps: list[list[Any]] = [[None, view(game, legal, hints, undos, seconds),
                               probes(game, rng)]]
    script = iter(line) if line is not None else None
    while len(steps) < MAX_STEPS:
        if script is not None:
            action = next(script, None)
            if action is None:
                break
            game.play(Move.from_text(action))
        elif (game.moves and rng.random() < UNDO_RATE) or (
                game.is_over() and ended_undos < ENDED_UNDOS and rng.random() < 0.5):
            ended_undos += game.is_over()
            game.undo()
            undos += 1
            action = "undo"
        elif game.is_over():
            break
        else:
            move = POLICIES[policy](game, legal, rng)
            game.play(move)
            action = move.to_text()
        legal = game.legal_moves
        steps.append([action, view(game, legal, hints, undos, seconds), probes(game, rng)])
    return {
        "deal": str(deal.number) if deal.number is not None else None,
        "cards": deal.to_text(),
        "goal": variant.goal.value,
        "passes": variant.passes,
        "variant": [variant.key, variant.label, variant.title],
        "policy": policy if line is None else "a fixed line",
        "hints": hints,
        "seconds": seconds,
        "steps": steps,
    }


def deal_number(rng: random.Random, i: int) -> int:
    """A deal number: below 32000 (Microsoft's generator) a third of the time, else the
    Mersenne Twister's, up to the last deal; every twelfth from ``EDGE_DEALS``."""
    if i % 12 == 0:
        return EDGE_DEALS[(i // 12) % len(EDGE_DEALS)]
    roll = rng.random()
    if roll < 0.35:
        return rng.randrange(1, 32_000)
    if roll < 0.65:
        return rng.randrange(32_000, 1_000_000)
    if roll < 0.85:
        return rng.randrange(1_000_000, 10 ** rng.randrange(7, 21))
    return MAX_DEAL - rng.randrange(10**9)


def random_traces(rng: random.Random) -> list[dict[str, Any]]:
    traces = []
    for i in range(PLAYOUTS):
        variant = VARIANTS[i % len(VARIANTS)]
        policy = list(POLICIES)[(i // len(VARIANTS)) % len(POLICIES)]
        traces.append(trace(Deal.from_number(deal_number(rng, i)), variant, policy, rng))
    for deal in (DEAL_A, DEAL_B, DEAL_S, DEAL_N):  # custom deals: their wins and dead ends
        for variant in VARIANTS:
            for policy in POLICIES:
                traces.append(trace(deal, variant, policy, rng))
    return traces


def perft_payload(rng: random.Random) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """perft.json: a trace of each case's prefix and each fixed playout, and its counts."""
    perft = perft_file()
    traces, cases = [], []
    for case in perft["cases"]:
        deal = Deal.from_number(case["deal"])
        variant = Variant(case["goal"], case["passes"])
        if "perft" in case:
            prefix = perft["prefixes"][case["prefix"]]
            traces.append(trace(deal, variant, "", rng, line=prefix))
            cases.append({"deal": str(case["deal"]), "goal": case["goal"],
                          "passes": case["passes"], "prefix": case["prefix"], "moves": prefix,
                          "perft": case["perft"], "positions": case["positions"]})
        else:
            for line in case["lines"].values():
                traces.append(trace(deal, variant, "", rng, line=line["moves"]))
    return traces, cases


def build_payload() -> dict[str, Any]:
    rng = random.Random(SEED)
    perft_traces, perft_cases = perft_payload(rng)
    vectors = json.loads((DATA / "deal-vectors.json").read_text())
    for vector in vectors:  # the Python engine's half of the golden check
        assert Deal.from_number(vector["deal"]).to_dict() == vector
    more = sorted({deal_number(rng, i) for i in range(1, MORE_DEALS + 1)} | set(EDGE_DEALS))
    return {
        "fields": FIELDS,
        "traces": random_traces(rng) + perft_traces,
        "perft": perft_cases,
        "deals": [[str(n), Deal.from_number(n).to_text()] for n in more],
        "vectors": vectors,
        "notation": [[call, args, run_notation(call, args)] for call, args in NOTATION_CASES],
        "constants": {"codes": [code.value for code in Code], "max_passes": MAX_PASSES},
    }


# --- one Node process -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def node() -> str:
    """Node's path; without it every comparison fails at once, saying what to install (CI
    installs it, so a skip here would only hide a broken set-up)."""
    path = shutil.which("node")
    if path is None:
        pytest.fail(NO_NODE, pytrace=False)
    return path


@pytest.fixture(scope="module")
def payload_file() -> Path:
    """The payload as a file: the Python engine's half (about 24 CPU-s) made, or kept from a
    run of the same sources (``kept_payload``)."""
    return kept_payload("js-conformance", build_payload)


@pytest.fixture(scope="module")
def payload(payload_file: Path) -> dict[str, Any]:
    return json.loads(payload_file.read_text())


@pytest.fixture(scope="module")
def report(node: str, payload_file: Path) -> dict[str, Any]:
    """The runner's report on the whole payload (one Node start for every test here)."""
    done = subprocess.run([node, str(RUNNER), str(payload_file)], capture_output=True, text=True,
                          timeout=300, check=False)
    if done.returncode != 0:
        pytest.fail(f"the runner failed ({done.returncode}):\n{done.stderr[-4000:]}",
                    pytrace=False)
    return json.loads(done.stdout)


def _agree(report: dict[str, Any], section: str) -> None:
    """Fail with the first disagreements of ``section``, one a line."""
    part = report["sections"][section]
    assert part["compared"] > 0, f"the runner compared nothing in {section}"
    if part["failed"]:
        listed = "\n".join(part["messages"])
        pytest.fail(f"{part['failed']} of {part['compared']} {section} disagree; the first:\n"
                    f"{listed}", pytrace=False)


def test_games_agree_step_by_step(report: dict[str, Any], payload: dict[str, Any]):
    _agree(report, "traces")
    steps = sum(len(t["steps"]) for t in payload["traces"])
    assert report["counts"]["steps"] == steps


def test_perft_counts_agree(report: dict[str, Any]):
    _agree(report, "perft")


def test_deals_agree_with_python_and_pysolfc(report: dict[str, Any]):
    _agree(report, "deals")


def test_notation_reads_writes_and_refuses_alike(report: dict[str, Any]):
    _agree(report, "notation")


def test_refusal_codes_and_the_pass_limit_are_the_same_on_both_sides(report: dict[str, Any]):
    _agree(report, "constants")


def test_js_unit_tests_pass(report: dict[str, Any]):
    _agree(report, "unit")


def test_the_traces_cover_what_they_promise(payload: dict[str, Any]):
    """The suite is as wide as its docstring says: a shrunken or lopsided payload would pass
    the comparison while proving little."""
    traces = [t for t in payload["traces"] if t["policy"] != "a fixed line"]
    assert len(traces) >= 2_000
    per_variant = {key: sum(t["variant"][0] == key for t in traces)
                   for key in (v.key for v in VARIANTS)}
    assert min(per_variant.values()) >= 2_000 // 6, per_variant
    numbers = [int(t["deal"]) for t in traces if t["deal"] is not None]
    assert sum(n < 32_000 for n in numbers) >= 500 and sum(n >= 32_000 for n in numbers) >= 1_000
    assert sum(n > 10**19 for n in numbers) >= 100
    actions = [step[0] for t in traces for step in t["steps"]]
    assert actions.count("undo") >= 1_000
    endings = {t["steps"][-1][1][2] for t in traces}
    # DECK_STUCK cannot arise in play (see test_rules); unit.mjs lays it out by hand.
    reachable = {e.value for e in Termination} - {Termination.DECK_STUCK.value}
    assert reachable <= endings
    refusals = {probe[2]["code"] for t in traces for s in t["steps"] for probe in s[2]}
    assert {"game_over", "covered", "not_thirteen", "not_a_king", "already_removed", "not_free",
            "stock_not_empty", "recycle_first", "no_passes_left", "stock_exhausted"} <= refusals

