"""The Jinja2 environment: templates/ with jinja2-fragments, so a route can render one block."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from jinja2 import pass_context
from jinja2.defaults import DEFAULT_FILTERS
from jinja2_fragments.fastapi import Jinja2Blocks

from app.engine import FULL_DECK, PASS_CHOICES, VARIANTS, GameStatus, Goal
from app.settings import PROJECT_DIR
from app.store.races import RacerStatus, RaceStatus
from app.web.core import assets, i18n, names
from app.web.core.csrf import csrf_field, csrf_token
from app.web.core.dates import format_day, format_moment, weekday_names
from app.web.core.links import template_deal_path, template_path_for
from app.web.core.numbers import format_number
from app.web.core.words import page_words
from app.web.views.firstpaint import page_preferences
from app.web.views.raceview import race_words, racer_words
from app.web.views.view import format_duration, kept_the_win, pyramid_rows

templates = Jinja2Blocks(directory=str(PROJECT_DIR / "templates"))
templates.env.add_extension("jinja2.ext.i18n")
# Words: {% trans %}...{% endtrans %} and _("..."), in the request's language
# (app/web/core/i18n.py).
# Newstyle: placeholders are %(name)s, filled after translating and escaped like any value.
# (The i18n extension adds install_gettext_callables to the environment; its type has none.)
templates.env.install_gettext_callables(  # type: ignore[attr-defined]
    lambda message: i18n.translations(i18n.current()).gettext(message),
    lambda singular, plural, n: i18n.translations(i18n.current()).ngettext(singular, plural, n),
    newstyle=True,
    pgettext=lambda context, message: i18n.translations(i18n.current()).pgettext(context,
                                                                               message),
    npgettext=lambda context, singular, plural, n: i18n.translations(
        i18n.current()).npgettext(context, singular, plural, n))
templates.env.policies["ext.i18n.trimmed"] = True
templates.env.globals["language"] = i18n.current_language
templates.env.globals["LANGUAGES"] = i18n.LANGUAGES
templates.env.globals["weekday_names"] = weekday_names
templates.env.globals["page_words"] = page_words
templates.env.globals["racer_words"] = racer_words
templates.env.globals["race_words"] = race_words
templates.env.filters["day"] = format_day
templates.env.filters["moment"] = format_moment
templates.env.filters["duration"] = format_duration
templates.env.filters["kept_the_win"] = kept_the_win
# Every number a page shows: scores, counts, percentages (app/web/core/numbers.py).
templates.env.filters["number"] = format_number
templates.env.filters["batch_rows"] = pyramid_rows
templates.env.globals["asset"] = assets.url
templates.env.globals["felt_colour"] = assets.theme_colour
templates.env.globals["board_modules"] = assets.board_modules
templates.env.globals["HTMX_VERSION"] = "2.0.11"
templates.env.globals["IDIOMORPH_VERSION"] = "0.8.0"
templates.env.globals["csrf_field"] = csrf_field
templates.env.globals["csrf_token"] = csrf_token
templates.env.globals["page_preferences"] = page_preferences
templates.env.globals["path_for"] = template_path_for
templates.env.globals["deal_path"] = template_deal_path
# The rule sets' choices, for the forms and tables that list them.
templates.env.globals["GOALS"] = tuple(Goal)
templates.env.globals["PASS_CHOICES"] = PASS_CHOICES
templates.env.globals["VARIANTS"] = VARIANTS
templates.env.globals["FULL_DECK"] = FULL_DECK
# The game's things by name, in the player's language (app/web/core/names.py): a page never shows
# the engine's English labels.
templates.env.globals["passes_text"] = names.passes_text
for _name in ("card_name", "goal_label", "goal_won_when", "passes_text", "variant_label",
              "variant_title", "difficulty_label", "status_label"):
    templates.env.filters[_name] = getattr(names, _name)

# A game's status, tested by the enum's names: ``{% if record.status is won %}``,
# ``{% if status is not lost %}``. A misspelt name is no test and a value that is no status is
# an error: either fails the page, never a quiet False as a misspelt string compare is.
for _status in GameStatus:
    templates.env.tests[_status.name.lower()] = (
        lambda value, status=_status: GameStatus(value) is status)
# A race's status the same way: ``{% if race.status is countdown %}`` (names apart from the
# game's: waiting, countdown, running, finished).
for _race_status in RaceStatus:
    templates.env.tests[_race_status.name.lower()] = (
        lambda value, status=_race_status: RaceStatus(value) is status)
# And a racer's: ``{% if racer.status is racer_out %}``, ``racer_finished`` (won, lost, out).
for _racer_status in RacerStatus:
    templates.env.tests[f"racer_{_racer_status.name.lower()}"] = (
        lambda value, status=_racer_status: RacerStatus(value) is status)
templates.env.tests["racer_finished"] = lambda value: RacerStatus(value).finished


def _each_request(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` as a filter Jinja never runs at compile time: Jinja folds a filter on a
    constant (``{{ "won"|status_label }}``) into the compiled template, which would keep the
    first request's language for every later one; a filter that takes the context is run
    each time."""

    @pass_context
    @wraps(function)
    def each_time(context: Any, *args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    return each_time


# Our filters speak the request's language and locale: every one is run per request.
for _name, _filter in list(templates.env.filters.items()):
    if _name not in DEFAULT_FILTERS:
        templates.env.filters[_name] = _each_request(_filter)
