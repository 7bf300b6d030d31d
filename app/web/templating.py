"""The Jinja2 environment: templates/ with jinja2-fragments, so a route can render one block."""

from __future__ import annotations

from jinja2_fragments.fastapi import Jinja2Blocks

from app.settings import PROJECT_DIR
from app.web.csrf import csrf_field, csrf_token
from app.web.view import format_duration

templates = Jinja2Blocks(directory=str(PROJECT_DIR / "templates"))
templates.env.filters["duration"] = format_duration
templates.env.globals["HTMX_VERSION"] = "2.0.11"
templates.env.globals["csrf_field"] = csrf_field
templates.env.globals["csrf_token"] = csrf_token
