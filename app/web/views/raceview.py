"""A race's words: each racer's status and the race's own, in the request's language (the race
page, the strip on a racer's board, and the script that keeps them, static/js/race.js)."""

from __future__ import annotations

from app.web.core.i18n import gettext as _
from app.web.core.i18n import pgettext


def racer_words() -> dict[str, str]:
    """A racer's status, by the API's value."""
    return {"waiting": pgettext("a racer's status", "Waiting"),
            "playing": pgettext("a racer's status", "Playing"),
            "won": pgettext("a racer's status", "Won"),
            "lost": pgettext("a racer's status", "Lost"),
            "gone": pgettext("a racer's status", "Gone"),
            "out": pgettext("a racer's status", "Out of time")}


def race_words() -> dict[str, str]:
    """The race's status, by the API's value."""
    return {"waiting": _("Waiting for racers"),
            "countdown": _("Get ready…"),
            "running": _("The race is on"),
            "finished": _("The race is over")}
