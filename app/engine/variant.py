"""A set of rules: the goal and the number of passes through the stock.

Six variants in all (standard or whole deck, 1 to ``MAX_PASSES`` passes). This is their one
home: the engine, the store's statistics, the odds, the pages, the API's models and the CLI
all name, parse, list and word them through ``Variant``, so a rule set reads the same everywhere
("whole deck goal, 2 passes") and has one key everywhere (``wholedeck-2``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .deal import PYRAMID_SIZE
from .refusals import Code, Refused

MAX_PASSES = 3
"""The most passes through the stock a rule set allows: the one definition of the limit.
Everything else follows from it: ``PASS_CHOICES``, the rule sets, the store's CHECK on a game's
passes, the solver's bound (its C core's ``MAX_PASSES``, tied to this by a test), the refusal
of another number (``unknown_passes``, which carries it), and the JS engine's ``MAX_PASSES``
(tied to this by tests/engine/test_js_conformance.py)."""
PASS_CHOICES = tuple(range(1, MAX_PASSES + 1))
DEFAULT_PASSES = 3


class GameSetupError(Refused):
    """A goal or pass count that is not one of the game's choices."""


class Goal(StrEnum):
    """What it takes to win: the 28 pyramid cards, or all 52 cards."""

    STANDARD = "standard"
    WHOLE_DECK = "wholedeck"

    @property
    def label(self) -> str:
        return "Standard" if self is Goal.STANDARD else "Whole deck"

    @property
    def cards_to_clear(self) -> int:
        return PYRAMID_SIZE if self is Goal.STANDARD else 52

    @property
    def won_when(self) -> str:
        if self is Goal.STANDARD:
            return f"won when the {PYRAMID_SIZE} pyramid cards are gone"
        return f"won only when all {self.cards_to_clear} cards are gone"


DEFAULT_GOAL = Goal.STANDARD


def parse_goal(goal: Goal | str) -> Goal:
    try:
        return Goal(goal)
    except ValueError:
        raise GameSetupError(Code.UNKNOWN_GOAL, value=goal) from None


def parse_passes(passes: int | str) -> int:
    try:
        value = int(passes)
    except (TypeError, ValueError):
        value = 0
    if isinstance(passes, bool) or value not in PASS_CHOICES or str(passes).strip() != str(value):
        raise GameSetupError(Code.UNKNOWN_PASSES, value=passes, most=MAX_PASSES)
    return value


def passes_text(passes: int) -> str:
    """``1 pass``, ``3 passes``."""
    return f"{passes} pass{'es' if passes != 1 else ''}"


@dataclass(frozen=True, slots=True, init=False)
class Variant:
    """One set of rules. ``Variant("wholedeck", "2")`` checks and converts its parts."""

    goal: Goal
    passes: int

    def __init__(self, goal: Goal | str, passes: int | str) -> None:
        object.__setattr__(self, "goal", parse_goal(goal))
        object.__setattr__(self, "passes", parse_passes(passes))

    @classmethod
    def from_key(cls, key: str) -> Variant:
        """Read a key such as ``standard-3``."""
        goal, dash, passes = str(key).rpartition("-")
        if not dash:
            raise GameSetupError(Code.NOT_A_RULE_SET_KEY, key=key)
        return cls(goal, passes)

    @property
    def key(self) -> str:
        """``standard-3``: the name of a rule set in file names, anchors and CSS classes."""
        return f"{self.goal.value}-{self.passes}"

    @property
    def label(self) -> str:
        """``standard goal, 3 passes``: the rule set in the middle of a sentence."""
        return f"{self.goal.label.lower()} goal, {passes_text(self.passes)}"

    @property
    def title(self) -> str:
        """``Standard goal, 3 passes``: the rule set as a heading."""
        return self.label[0].upper() + self.label[1:]

    @property
    def to_clear(self) -> int:
        return self.goal.cards_to_clear

    def __str__(self) -> str:
        return self.key


VARIANTS: tuple[Variant, ...] = tuple(Variant(goal, passes) for goal in Goal
                                      for passes in PASS_CHOICES)
"""The six rule sets in the order every page, table and file lists them: standard 1 to
``MAX_PASSES`` passes, then whole deck."""

DEFAULT_VARIANT = Variant(DEFAULT_GOAL, DEFAULT_PASSES)
