"""What every request passes before the app sees it, and what every answer carries.

The app has no login: a signed player cookie is the only thing that says whose game is whose,
so the dangers are other sites driving a player's browser, forged Host headers ending up in
links, and requests built to tie up the server. Each guard is a pure ASGI middleware, so it
can answer before any route, dependency or cookie is involved, and never buffers a body.
``app.main`` stacks them, outermost first:

- ``security_headers`` (the maintained ``secure`` library's ASGI middleware): a
  Content-Security-Policy without inline scripts or styles, so injected markup cannot run;
  no framing (clickjacking a board); no MIME sniffing; referrers only to ourselves (a game
  link carries the game's id); HSTS once cookies are Secure, since then the site is HTTPS.
  ``secure`` rather than our own header code: the header values are the part worth a
  maintained, validated builder, and its middleware is already pure ASGI.
- Starlette's ``TrustedHostMiddleware``: other Host headers get 400, so a request for
  evil.example can never produce a redirect or a share link pointing there.
- ``BodyLimit``: no form or move needs more than a few hundred bytes; a large body is refused
  from its Content-Length, and a chunked one as soon as it passes the limit, so nobody can
  make the server hold megabytes in memory.
- ``CrossSiteGuard``: SameSite=Lax keeps the cookie off cross-site POSTs in today's browsers,
  but not off same-site ones (another port, or a sibling subdomain, is the same site) nor in
  older browsers; so a state-changing request a browser marks as coming from elsewhere
  (``Sec-Fetch-Site``, or an ``Origin`` that is not ours) is refused before it can act,
  and before a player cookie could be handed out.
- ``JsonBodies``: the JSON API reads JSON only, so a cross-site HTML form (which can send
  only form encodings and text/plain) can never produce a body the API would accept.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
from collections.abc import Callable
from typing import cast
from urllib.parse import urlsplit

from babel.numbers import format_decimal
from secure import (
    ContentSecurityPolicy,
    ReferrerPolicy,
    Secure,
    StrictTransportSecurity,
    XContentTypeOptions,
    XFrameOptions,
)
from secure.middleware import SecureASGIMiddleware
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.logs import loggable_path
from app.settings import Settings
from app.web.core import i18n
from app.web.core.i18n import gettext as _
from app.web.core.i18n import ngettext
from app.web.core.numbers import format_number
from app.web.core.scope import STATE_CHANGING, is_api, route_path

log = logging.getLogger("pyramid.web")

DEFAULT_PORTS = {"http": 80, "https": 443}
BY_ADDRESS = frozenset({"/healthz", "/metrics"})
"""Paths reached by an address rather than the public name: any Host is accepted."""


# --- headers -------------------------------------------------------------------------------
def security_headers(app: ASGIApp, settings: Settings) -> ASGIApp:
    """``app`` with the security headers added to every answer."""
    # 'wasm-unsafe-eval': the solver's worker compiles static/wasm/solver.wasm (it allows
    # WebAssembly only, never a string of JavaScript run as code).
    csp = (ContentSecurityPolicy()
           .default_src("'self'").script_src("'self'", "'wasm-unsafe-eval'").style_src("'self'")
           .img_src("'self'", "data:").font_src("'self'").connect_src("'self'")
           .frame_ancestors("'none'").base_uri("'self'").form_action("'self'")
           .object_src("'none'"))
    hsts = (StrictTransportSecurity().max_age(31_536_000).include_subdomains()
            if settings.cookie_secure else None)
    headers = Secure(csp=csp, hsts=hsts, xcto=XContentTypeOptions(), xfo=XFrameOptions().deny(),
                     referrer=ReferrerPolicy().same_origin())
    # secure types its send as taking any object; Starlette's passes ASGI messages only.
    return cast(ASGIApp, SecureASGIMiddleware(app, secure=headers.validate_and_normalize_headers(
        on_invalid="raise")))


# --- refusals -------------------------------------------------------------------------------
async def refuse(scope: Scope, send: Send, status: int, title: str, message: str,
                 headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer ``status`` without calling the app: ``{"detail": ...}`` for the API and for the
    board's script (``Accept: application/json``), the sentence alone as a fragment for htmx
    (``HX-Request``: static/js/pyramid.js shows it where the page shows its notices), else a
    short page (no template: the app, and its error page, never ran). ``title`` and
    ``message`` are in the request's language (``LanguageMiddleware`` is outside the guards),
    and so is the page. ``headers`` are added to the answer's (a 429's Retry-After)."""
    asked = Headers(scope=scope)
    if is_api(scope) or "application/json" in asked.get("accept", ""):
        body = json.dumps({"detail": message, "errors": []}).encode()
        content_type = b"application/json"
    elif asked.get("hx-request") == "true":
        body = (f'<p class="notice" role="alert" data-refusal="{status}">'
                f"{html.escape(message)}</p>\n").encode()
        content_type = b"text/html; charset=utf-8"
    else:
        language = i18n.current_language()
        body = (
            f'<!doctype html>\n<html lang="{language.code}" dir="{language.direction}">'
            '<head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)} · Pyramid</title></head>"
            f"<body><main><h1>{html.escape(title)}</h1><p>{html.escape(message)}</p>"
            f'<p><a href="/">{html.escape(_("Go to the home page"))}</a></p></main></body>'
            "</html>\n"
        ).encode()
        content_type = b"text/html; charset=utf-8"
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode()),
               *(headers or [])]
    if status == 408:  # a client too slow to send a body is not kept waiting on
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# --- hosts ---------------------------------------------------------------------------------
def host_of(header: str) -> str | None:
    """The host of a Host header, lower-cased, without its port: ``[::1]`` keeps its brackets
    (as ALLOWED_HOSTS writes it). None when it is no host at all."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        host, rest = header[:end + 1], header[end + 1:]
        return host if end > 0 and (not rest or rest[1:].isdigit()) else None
    host, _, port = header.partition(":")
    return host if host and (not port or port.isdigit()) else None


class TrustedHosts(TrustedHostMiddleware):
    """Starlette's TrustedHostMiddleware, answering in the app's own shapes (the API's
    Problem, a page elsewhere); except for ``/healthz`` and ``/metrics``: a health check or a
    scrape comes from the machine or its network (Docker's, a load balancer, Prometheus) by
    address, not by the public name, and neither answer holds a link for a forged Host to end
    up in."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or route_path(scope) in BY_ADDRESS:
            await self.app(scope, receive, send)
            return
        host = host_of(Headers(scope=scope).get("host", ""))
        if not self.allow_any and (host is None or not any(
                host == pattern or (pattern.startswith("*") and host.endswith(pattern[1:]))
                for pattern in self.allowed_hosts)):
            await refuse(scope, send, 400, _("Unknown host"),
                         _("This server does not answer to that host name."))
            return
        await self.app(scope, receive, send)


# --- body size ------------------------------------------------------------------------------
class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a streamed body passes the limit: the route reading it
    answers 413 through the app's own error handlers (JSON, or the error page)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, ngettext("The request body is larger than %(num)s byte.",
                                       "The request body is larger than %(num)s bytes.",
                                       limit, num=format_number(limit)))


class BodyTooSlow(HTTPException):
    """Raised from ``receive`` when a body is still incomplete at its deadline: 408, and the
    connection is closed, so a client trickling a byte at a time holds nothing for long."""

    def __init__(self, seconds: float) -> None:
        super().__init__(408, ngettext("The request body did not arrive within %(num)s second.",
                                       "The request body did not arrive within %(num)s "
                                       "seconds.", plural_count(seconds),
                                       num=format_decimal(seconds, format="#,##0.###",
                                                          locale=i18n.current_locale())),
                         headers={"Connection": "close"})


def plural_count(value: float) -> int:
    """The whole number whose plural form ``value`` takes: itself when whole, else 2 (a
    fraction of seconds is "seconds" in English, and the few-form in Russian)."""
    return int(value) if float(value).is_integer() else 2


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with 413, without reading them whole, and
    bodies still incomplete ``seconds`` after the request began with 408."""

    def __init__(self, app: ASGIApp, max_bytes: int, seconds: float = 10.0,
                 larger: dict[str, int] | None = None,
                 explained: dict[str, Callable[[], tuple[str, str]]] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.seconds = seconds
        self.larger = larger or {}
        """Paths allowed a larger body (an import file), with their own limit."""
        self.explained = explained or {}
        """Paths whose 413 says more than that the body is too large: the title and
        sentence, in the request's language (an import file over its limit)."""

    def too_large(self, path: str, max_bytes: int) -> tuple[str, str]:
        explain = self.explained.get(path)
        return explain() if explain else (_("Too much sent"), BodyTooLarge(max_bytes).detail)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        max_bytes = self.larger.get(scope.get("path", ""), self.max_bytes)
        declared = Headers(scope=scope).get("content-length")
        if declared is not None:
            declared = declared.strip()
            if not declared.isdigit():
                await refuse(scope, send, 400, _("Bad request"),
                             _("Content-Length is not a number."))
                return
            if len(declared) > 15 or int(declared) > max_bytes:
                await refuse(scope, send, 413, *self.too_large(scope.get("path", ""),
                                                               max_bytes))
                return

        received = 0
        deadline = asyncio.get_running_loop().time() + self.seconds
        complete = False

        async def counted() -> Message:
            nonlocal received, complete
            if complete:  # what follows the body is a disconnect, which may come any time
                return await receive()
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), timeout=max(left, 0.0))
            except TimeoutError:
                raise BodyTooSlow(self.seconds) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > max_bytes:
                    raise BodyTooLarge(max_bytes)
                complete = not message.get("more_body", False)
            return message

        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except (BodyTooLarge, BodyTooSlow) as exc:
            # Only if nothing inside turned it into an answer (a body read outside a route).
            if started:
                raise
            if exc.status_code == 413:
                await refuse(scope, send, 413, *self.too_large(scope.get("path", ""),
                                                               max_bytes))
            else:
                await refuse(scope, send, exc.status_code, _("Too slow"), str(exc.detail))


# --- slow readers ------------------------------------------------------------------------------
class ClientTooSlow(Exception):
    """A client took none of an answer's next piece within the send deadline."""


class SendDeadline:
    """Cut off a client that stops reading an answer: each piece of it must be taken within
    ``seconds``, else the connection is closed with the answer incomplete (sent with its
    length or in chunks, so the client can tell). Whatever the route held for the answer (a
    file, a coroutine) is let go then, and nothing else was held: no route keeps a database
    connection while it sends."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def deadlined(message: Message) -> None:
            try:
                async with asyncio.timeout(self.seconds):
                    await send(message)
            except TimeoutError:
                raise ClientTooSlow from None

        try:
            await self.app(scope, receive, deadlined)
        except ClientTooSlow:
            log.warning("Cut off a client that read nothing of %s for %g s",
                        loggable_path(scope.get("path", "")), self.seconds)


# --- cross-site requests -------------------------------------------------------------------
def origin_key(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin such as ``https://pyramid.example``; None if bad."""
    try:
        parts = urlsplit(url.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


class CrossSiteGuard:
    """Refuse state-changing requests that a browser says come from another site or origin.

    Requests without ``Sec-Fetch-Site`` and ``Origin`` (curl, scripts, the tests' client)
    pass: the danger is a victim's browser, and browsers send at least one of them on every
    POST. The site's own origin is BASE_URL's when set (behind a proxy the request's own
    scheme may be http), else the request's scheme and (trusted) Host.
    """

    def __init__(self, app: ASGIApp, base_url: str | None = None) -> None:
        self.app = app
        self.own_origin = origin_key(base_url) if base_url else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in STATE_CHANGING:
            reason = self.refusal(scope)
            if reason:
                await refuse(scope, send, 403, _("Not allowed"), reason)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> str | None:
        headers = Headers(scope=scope)
        if headers.get("sec-fetch-site", "").strip().lower() in ("cross-site", "same-site"):
            return _("This request came from another site, so it was not carried out.")
        origin = headers.get("origin")
        if origin is None:
            return None
        own = self.own_origin or origin_key(f"{scope['scheme']}://{headers.get('host', '')}")
        if origin.strip().lower() == "null" or origin_key(origin) != own:
            return _("This request came from another origin, so it was not carried out.")
        return None


# --- JSON bodies on the API ----------------------------------------------------------------
def is_json(content_type: str | None) -> bool:
    return (content_type or "").split(";", 1)[0].strip().lower() == "application/json"


class JsonBodies:
    """Answer 415 to a request under /api/ that has a body, or declares one, which is not
    JSON: a body-less POST declared as a form or as text is what another site's form sends."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and is_api(scope):
            headers = Headers(scope=scope)
            has_body = (headers.get("content-length", "0").strip() != "0"
                        or "transfer-encoding" in headers)
            declared = headers.get("content-type")
            if (has_body or declared is not None) and not is_json(declared):
                await refuse(scope, send, 415, _("Unsupported body"),
                             # TRANSLATORS: keep "Content-Type: application/json" as it is.
                             _("The API reads JSON bodies only: send the body with "
                               "Content-Type: application/json."))
                return
        await self.app(scope, receive, send)
