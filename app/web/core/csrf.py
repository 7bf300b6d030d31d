"""Cross-site request forgery: every form and board request carries a token only our pages know.

The token is an HMAC of the player id under SECRET_KEY (the "signed double-submit" pattern):
a page from another site can make the browser send the player cookie, but cannot read our
pages, so it cannot know the token. Being derived rather than stored, it needs no table and no
second cookie, and every server process agrees on it. Forms send it as a hidden ``csrf_token``
field (so everything works without JavaScript); the board's script sends it as the
``X-CSRF-Token`` header. This is one layer: the Origin / Sec-Fetch-Site check refuses
cross-site requests before they get here, and the JSON API, which only takes
``application/json`` bodies (a cross-site form cannot send those), needs no token.

Why not starlette-csrf or asgi-csrf: both keep the token in a second cookie and check it in a
middleware that must buffer form bodies; our player cookie is already signed, so a token
derived from it is the same protection in a few lines, checked where the form is parsed.
"""

from __future__ import annotations

import hashlib
import hmac

from fastapi import Request
from jinja2 import pass_context
from markupsafe import Markup

from app.web.core.errors import PageError
from app.web.core.i18n import gettext as _

HEADER = "X-CSRF-Token"
FIELD = "csrf_token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def token_for(request: Request) -> str:
    """The token of the player making this request."""
    secret = request.app.state.settings.secret_key.encode()
    message = b"pyramid.csrf:" + request.state.player_id.encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


async def require_csrf(request: Request) -> None:
    """A dependency for the routers of pages: refuse a state change without the token."""
    if request.method in SAFE_METHODS:
        return
    sent = request.headers.get(HEADER)
    if sent is None and request.headers.get("content-type", "").startswith(
            ("application/x-www-form-urlencoded", "multipart/form-data")):
        value = (await request.form()).get(FIELD)  # parsed once; the route's Form() reuses it
        sent = value if isinstance(value, str) else None
    if not sent or not hmac.compare_digest(sent, token_for(request)):
        raise PageError(
            403, _("This page has expired"),
            _("The form did not come from this site's own page (or the page is too old). Go "
              "back, reload the page and try again: your games are safe."),
            link=("/", _("Home page")))


@pass_context
def csrf_field(context) -> Markup:
    """``{{ csrf_field() }}`` in a form: the hidden token field."""
    return Markup('<input type="hidden" name="{}" value="{}">').format(
        FIELD, token_for(context["request"]))


@pass_context
def csrf_token(context) -> str:
    return token_for(context["request"])
