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
from app.web.core.i18n import LANGUAGES, LazyProxy, _l
from app.web.core.i18n import gettext as _
from app.web.core.names import difficulty_label


@dataclass(frozen=True, slots=True)
class Option:
    """One thing a player can choose: among named ``choices``, or on/off (``choices`` None)."""

    name: str
    label: str | LazyProxy
    """What the Settings page calls it (translated each time it is read)."""
    choices: Mapping[str, str | LazyProxy] | None = None
    """Value -> what the Settings page calls it, in the page's order."""

    @property
    def switch(self) -> bool:
        return self.choices is None

    def refusal(self) -> str:
        if self.choices is None:
            return _("%(setting)s: choose on or off.", setting=self.label)
        names = [str(name) for name in self.choices.values()]
        return _("%(setting)s: choose %(choices)s or %(last)s.", setting=self.label,
                 choices=", ".join(names[:-1]), last=names[-1])


THEMES = {"light": _l("Light"), "dark": _l("Dark"), "contrast": _l("High contrast")}
FELTS = {"green": _l("Green"), "blue": _l("Blue"), "red": _l("Burgundy"), "teal": _l("Teal"),
         "grey": _l("Charcoal")}
BACKS = {"lattice": _l("Blue lattice"), "rosette": _l("Red rosette"),
         "pyramid": _l("Gold pyramids")}
MOTIONS = {"auto": _l("As my device asks"), "full": _l("Full"), "reduced": _l("Reduced"),
           "none": _l("None")}
LANGUAGE_CHOICES = {code: language.name for code, language in LANGUAGES.items()}
"""BCP 47 code -> the language's own name. Not choosing (``""``, the default) follows the
browser's Accept-Language."""
DIFFICULTY_CHOICES = {"any": _l("Any difficulty"),
                      **{d.value: LazyProxy(difficulty_label, d, enable_cache=False)
                         for d in DIFFICULTIES}}
"""What "Winnable deals only" may ask for (the new-game form remembers it)."""

OPTIONS: dict[str, Option] = {option.name: option for option in (
    Option("language", _l("Language"), LANGUAGE_CHOICES),
    Option("theme", _l("Theme"), THEMES),
    Option("felt", _l("Felt"), FELTS),
    Option("back", _l("Card back"), BACKS),
    Option("large_cards", _l("Larger cards")),
    Option("motion", _l("Animations"), MOTIONS),
    Option("sound", _l("Sound")),
    Option("left_handed", _l("Left-handed layout")),
    Option("key_hints", _l("Keyboard hints")),
    Option("show_clock", _l("The clock")),
    Option("show_score", _l("The score")),
    Option("tips_done", _l("First-game tips dismissed")),
    Option("difficulty", _l("Difficulty"), DIFFICULTY_CHOICES),
)}
FORM_OPTIONS = tuple(name for name in OPTIONS if name not in ("tips_done", "difficulty"))
"""What the Settings page's form sets (the tips are dismissed on the board, the difficulty
chosen on the new-game form)."""

ON = frozenset({"on", "true", "1", "yes"})
OFF = frozenset({"off", "false", "0", "no", ""})


@dataclass(frozen=True, slots=True)
class Preferences:
    """A player's preferences; the defaults are what a new player gets."""

    language: str = ""
    """A code of ``LANGUAGE_CHOICES``, or "" for the browser's language."""
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
        values: dict[str, Any] = {}  # each a Choice of the type its field has
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
                elif name == "language":
                    values[name] = ""  # a language we don't have: the browser's, no error
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

