"""Small builders for the engine tests: custom deals from a few named cards, a state probe, and
the perft file (``tests/data/perft.json``) read in one place, and the Python side's half of a
Node conformance run kept between runs (``kept_payload``).

The engine tests import it relatively (``from .engine_helpers import ...``); other folders as
``tests.engine.engine_helpers`` (the CLI tests use its deals).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from app.engine import FULL_DECK, Card, Deal, Game, Move

DATA = Path(__file__).resolve().parents[1] / "data"
ROOT = DATA.parents[1]
KEPT = ROOT / ".pytest_cache" / "engine-payloads"
"""Where the Python side's payloads are kept between runs (ignored by git, as pytest's cache)."""


def sources_key(also: Iterable[Path] = ()) -> str:
    """What a payload of the Python engine's (or the native solver's) answers is made from: the
    engine's sources, Python and C, the engine tests and their helpers, the data files, and the
    Python that ran them (``random``'s choices are the interpreter's). A change to any byte of
    them makes the payloads anew. ``also``: other files a payload reads."""
    engine, here = ROOT / "app" / "engine", Path(__file__).resolve().parent
    sources = sorted([*engine.glob("*.py"), *engine.glob("*.[ch]"), *here.glob("*.py"),
                      *DATA.glob("*.json"), *also])
    digest = hashlib.sha256(sys.version.encode())
    for source in sources:
        name = source.relative_to(ROOT) if source.is_relative_to(ROOT) else source
        digest.update(str(name).encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:24]


def kept_payload(name: str, build: Callable[[], Any], also: Iterable[Path] = ()) -> Path:
    """``build()``'s payload as a JSON file: made and kept, or the one kept by a run whose
    sources (and ``also``) were the same to the byte (``sources_key``). A fresh checkout, as
    CI's, always makes it; ``FRESH_PAYLOADS=1`` makes it anew regardless. The Node half of a
    conformance run, the comparison itself, runs every time."""
    kept = KEPT / f"{name}-{sources_key(also)}.json"
    if kept.is_file() and not os.environ.get("FRESH_PAYLOADS"):
        return kept
    KEPT.mkdir(parents=True, exist_ok=True)
    for old in KEPT.glob(f"{name}-*.json"):
        old.unlink(missing_ok=True)
    partial = kept.with_suffix(f".{os.getpid()}.part")  # whole or not there, for a later run
    partial.write_text(json.dumps(build()))
    partial.replace(kept)
    return kept


@cache
def make_perft() -> ModuleType:
    """``tests/data/make_perft.py``, which writes the perft file, reads it (``load``), and walks
    the counts (``perft``, ``playout``)."""
    spec = importlib.util.spec_from_file_location("make_perft", DATA / "make_perft.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def perft_file() -> dict:
    """``tests/data/perft.json``: ``prefixes`` by name and ``cases`` (read once; not to be
    changed by its readers)."""
    return make_perft().load()


def cards(text: str) -> list[str]:
    """``"KS 6D7D"`` -> ``["KS", "6D", "7D"]``: spaces between cards are optional."""
    compact = text.replace(" ", "")
    return [compact[i : i + 2] for i in range(0, len(compact), 2)]


def deal_of(pyramid: str, stock: str) -> Deal:
    """A custom deal from two card lists written as text (apex first; stock top first)."""
    return Deal.from_dict({"pyramid": cards(pyramid), "stock": cards(stock)})


def deal_with(placed: dict[int, str], stock_top: str = "") -> Deal:
    """A deal with the named cards at pyramid positions ``placed`` and on top of the stock;
    every other card fills the remaining places in ``FULL_DECK`` order."""
    chosen = {Card.parse(name) for name in placed.values()} | {
        Card.parse(name) for name in cards(stock_top)
    }
    rest = iter([c for c in FULL_DECK if c not in chosen])
    pyramid = [placed[i] if i in placed else next(rest).name for i in range(28)]
    stock = cards(stock_top) + [c.name for c in rest]
    return Deal.from_dict({"pyramid": pyramid, "stock": stock})


def play(game: Game, moves: str | Iterable[str]) -> Game:
    """Play moves given as text, ``"KC, AC+QC, draw"`` or a list; returns the game."""
    items = [m.strip() for m in moves.split(",")] if isinstance(moves, str) else list(moves)
    for text in items:
        if text:
            game.play(Move.from_text(text))
    return game


def state(game: Game) -> tuple:
    """Everything observable about a game, to check that nothing changed."""
    return (
        tuple(game.pyramid),
        tuple(game.stock),
        tuple(game.waste),
        game.pass_number,
        game.passes_left,
        tuple(game.moves),
        game.outcome(),
        tuple(game.legal_moves),
    )


def removed_cards(game: Game) -> list[Card]:
    """The cards the game's moves have taken away."""
    return [card for move in game.moves for card in move.cards]


# --- Deal A: clears completely with an obvious line --------------------------------------
# Row by row from the bottom, each row is a King and/or pairs that make 13 among themselves, so
# clearing a row frees the whole row above it. The stock is twelve pairs in a row: draw one
# card, then the new stock top pairs with it.
DEAL_A = deal_of(
    "KS 6D7D KH5D8D 3DTD4D9D KDADQD2DJD 4C9C5C8C6C7C KCACQC2CJC3CTC",
    "AH QH 2H JH 3H TH 4H 9H 5H 8H 6H 7H AS QS 2S JS 3S TS 4S 9S 5S 8S 6S 7S",
)
CLEAR_PYRAMID_A = (
    "KC, AC+QC, 2C+JC, 3C+TC, 4C+9C, 5C+8C, 6C+7C, KD, AD+QD, 2D+JD, 3D+TD, 4D+9D, "
    "KH, 5D+8D, 6D+7D, KS"
)
CLEAR_STOCK_A = ", ".join(
    f"draw, {pair}"
    for pair in (
        "AH+QH", "2H+JH", "3H+TH", "4H+9H", "5H+8H", "6H+7H",
        "AS+QS", "2S+JS", "3S+TS", "4S+9S", "5S+8S", "6S+7S",
    )
)

# --- Deal B: like A, but KS waits at the top of the stock and 6S sits at the apex ----------
DEAL_B = deal_of(
    "6S 6D7D KH5D8D 3DTD4D9D KDADQD2DJD 4C9C5C8C6C7C KCACQC2CJC3CTC",
    "KS AH QH 2H JH 3H TH 4H 9H 5H 8H 6H 7H AS QS 2S JS 3S TS 4S 9S 5S 8S 7S",
)
ALL_BUT_APEX_B = CLEAR_PYRAMID_A.removesuffix(", KS")

# --- Deal S: after KC goes, the free pyramid cards are four Aces and two 2s, and every
# Queen and Jack is buried in the pyramid: nothing can ever pair with them. ---------------
DEAL_S = deal_of(
    "QC QDQH QSJCJD JHJSKDKH KS2H2S3C3D 3H3S4C4D4H4S KCACADAHAS2C2D",
    "5C5D5H5S 6C6D6H6S 7C7D7H7S 8C8D8H8S 9C9D9H9S TCTDTHTS",
)

# --- Deal N: like S, but QS is the stock's first card (and 5C moves into the pyramid) ------
DEAL_N = deal_of(
    "QC QDQH 5CJCJD JHJSKDKH KS2H2S3C3D 3H3S4C4D4H4S KCACADAHAS2C2D",
    "QS 5D5H5S 6C6D6H6S 7C7D7H7S 8C8D8H8S 9C9D9H9S TCTDTHTS",
)
