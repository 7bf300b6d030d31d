"""What the ``pyramid`` command accepts: its argument types, a deal file, and the one error
type (``UsageError``) that ``main`` prints as one line before exiting with status 2."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

from app.engine import (
    Deal,
    DealError,
    GameSetupError,
    Goal,
    parse_goal,
    parse_passes,
)


class UsageError(Exception):
    """A mistake in what the user asked for; ``main`` prints it as one line and exits 2."""


class Parser(argparse.ArgumentParser):
    """argparse, but an error is one line on stderr (no usage block) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (try '{self.prog} --help')\n")


# --- argument types -------------------------------------------------------------------------
def deal_number(text: str) -> int:
    try:
        return Deal.parse_number(text)
    except DealError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def goal(text: str) -> Goal:
    """``standard`` or ``wholedeck`` (``whole-deck`` and ``whole_deck`` are fine too)."""
    try:
        return parse_goal(text.strip().lower().replace("-", "").replace("_", ""))
    except GameSetupError:
        raise argparse.ArgumentTypeError(
            f"goal must be 'standard' or 'wholedeck', not {text!r}"
        ) from None


def passes(text: str) -> int:
    try:
        return parse_passes(text)
    except GameSetupError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def positive(what: str):
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


def deal_from(args: argparse.Namespace) -> Deal:
    if args.deal_file is not None:
        if args.number is not None:
            raise UsageError("give a deal number or --deal-file, not both")
        return read_deal_file(args.deal_file)
    if args.number is None:
        raise UsageError("give a deal number (1 to 99,999,999,999,999,999,999) or --deal-file")
    return Deal.from_number(args.number)
