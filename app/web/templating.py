"""The Jinja2 environment: templates/ with jinja2-fragments, so a route can render one block."""

from __future__ import annotations

from jinja2_fragments.fastapi import Jinja2Blocks

from app.engine import FULL_DECK, PASS_CHOICES, VARIANTS, Goal, passes_text
from app.settings import PROJECT_DIR
from app.web import assets
from app.web.csrf import csrf_field, csrf_token
from app.web.firstpaint import page_preferences
from app.web.links import template_deal_path, template_path_for
from app.web.numbers import format_number
from app.web.view import doing_move, format_duration, pyramid_rows

templates = Jinja2Blocks(directory=str(PROJECT_DIR / "templates"))
templates.env.filters["duration"] = format_duration
templates.env.filters["doing"] = doing_move
# Every number a page shows: scores, counts, percentages (app/web/numbers.py).
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
templates.env.globals["passes_text"] = passes_text
