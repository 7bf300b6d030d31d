"""A player's preferences: what the Settings page offers, the defaults, and reading them back.

``app/settings.py`` is the server's configuration; this is the player's: theme, felt, card
back, card size, animations, sound, hand and keyboard hints, and whether the first-game tips
were dismissed. The store keeps them as a small JSON object (``app.store.players``); only the
choices that differ from the defaults are saved, so a default changed here reaches every
player who never chose otherwise.

Reading is forgiving and writing is strict: a stored key this version does not know, or a
value it no longer offers, is dropped on reading (the default stands in), while a form that
sends a value not offered is refused with a message that names the choices.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from app.odds import DIFFICULTIES
from app.store import Choice


@dataclass(frozen=True, slots=True)
class Option:
    """One thing a player can choose: among named ``choices``, or on/off (``choices`` None)."""

    name: str
    label: str
    choices: Mapping[str, str] | None = None
    """Value -> what the Settings page calls it, in the page's order."""

    @property
    def switch(self) -> bool:
        return self.choices is None

    def refusal(self) -> str:
        if self.choices is None:
            return f"{self.label}: choose on or off."
        names = list(self.choices.values())
        return f"{self.label}: choose {', '.join(names[:-1])} or {names[-1]}."


THEMES = {"light": "Light", "dark": "Dark", "contrast": "High contrast"}
FELTS = {"green": "Green", "blue": "Blue", "red": "Burgundy", "teal": "Teal", "grey": "Charcoal"}
BACKS = {"lattice": "Blue lattice", "rosette": "Red rosette", "pyramid": "Gold pyramids"}
MOTIONS = {"auto": "As my device asks", "full": "Full", "reduced": "Reduced", "none": "None"}
DIFFICULTY_CHOICES = {"any": "Any difficulty", **{d.value: d.label for d in DIFFICULTIES}}
"""What "Winnable deals only" may ask for (the new-game form remembers it)."""

OPTIONS: dict[str, Option] = {option.name: option for option in (
    Option("theme", "Theme", THEMES),
    Option("felt", "Felt", FELTS),
    Option("back", "Card back", BACKS),
    Option("large_cards", "Larger cards"),
    Option("motion", "Animations", MOTIONS),
    Option("sound", "Sound"),
    Option("left_handed", "Left-handed layout"),
    Option("key_hints", "Keyboard hints"),
    Option("show_clock", "The clock"),
    Option("show_score", "The score"),
    Option("tips_done", "First-game tips dismissed"),
    Option("difficulty", "Difficulty", DIFFICULTY_CHOICES),
)}
FORM_OPTIONS = tuple(name for name in OPTIONS if name not in ("tips_done", "difficulty"))
"""What the Settings page's form sets (the tips are dismissed on the board, the difficulty
chosen on the new-game form)."""

ON = frozenset({"on", "true", "1", "yes"})
OFF = frozenset({"off", "false", "0", "no", ""})


@dataclass(frozen=True, slots=True)
class Preferences:
    """A player's preferences; the defaults are what a new player gets."""

    theme: str = "light"
    felt: str = "green"
    back: str = "lattice"
    large_cards: bool = False
    motion: str = "auto"
    """"auto": reduced when the device asks for reduced motion, full otherwise."""
    sound: bool = True
    left_handed: bool = False
    key_hints: bool = True
    show_clock: bool = True
    """The game's clock on the board (hidden, the game still keeps its time)."""
    show_score: bool = True
    """The live score on the board (hidden, the end still says it)."""
    tips_done: bool = False
    difficulty: str = "any"
    """Of a "winnable deals only" game: "any", or one of ``app.odds.DIFFICULTIES``."""

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any]) -> Preferences:
        """The preferences saved as ``stored``; unknown keys and values no longer offered
        are dropped (their defaults stand in), never an error."""
        kept = {name: value for name, value in stored.items()
                if name in OPTIONS and _allowed(OPTIONS[name], value)}
        return cls(**kept)

    def changed(self, form: Mapping[str, str], names: tuple[str, ...] = FORM_OPTIONS,
                ) -> Preferences:
        """These preferences with ``form``'s values for ``names`` (unknown fields ignored).

        A switch missing from the form is off, as an unticked checkbox sends nothing; a
        choice missing from it is unchanged. Raises ``Refused`` naming every bad field."""
        values: dict[str, Choice] = {}
        refused: dict[str, str] = {}
        for name in names:
            option = OPTIONS[name]
            sent = form.get(name)
            if option.switch:
                value = (sent or "").strip().lower()
                if value in ON or value in OFF:
                    values[name] = value in ON
                else:
                    refused[name] = option.refusal()
            elif sent is not None:
                if option.choices and sent in option.choices:
                    values[name] = sent
                else:
                    refused[name] = option.refusal()
        if refused:
            raise Refused(refused, replace(self, **values))
        return replace(self, **values)

    def to_store(self) -> dict[str, Choice]:
        """What to save: the choices that differ from the defaults."""
        default = Preferences()
        return {name: value for name, value in asdict(self).items()
                if value != getattr(default, name)}


class Refused(ValueError):
    """A form with values the Settings page does not offer: the message for each field, and
    the preferences with every good field of the form applied (so the page loses nothing)."""

    def __init__(self, errors: dict[str, str], kept: Preferences) -> None:
        super().__init__(" ".join(errors.values()))
        self.errors = errors
        self.kept = kept


def _allowed(option: Option, value: object) -> bool:
    if option.choices is None:
        return isinstance(value, bool)
    return isinstance(value, str) and value in option.choices

