"""The player's language: which one a request speaks, and the words in it.

Every sentence a player reads is an English message id in the gettext catalogs under
``app/locale`` (``make catalogs`` extracts them with ``babel.cfg`` and updates each language's
``messages.po``; the install compiles them, ``make catalogs-compile``). Code says
``_("Deal %(number)s", number=n)`` (``%(name)s`` placeholders, filled after translating, so a
translation may move them), ``ngettext`` for a count, ``_l`` for a module-level text that is
translated each time it is read; templates say ``{% trans %}``/``_()`` (Jinja's i18n
extension, wired in ``app.web.views.templating``); the board's script gets its sentences from the
same catalogs (``app.web.core.words``).

A request's language is, in order: the player's choice in the preferences (read with the page's
preferences, ``app.web.views.firstpaint``), else the language of the page a script or htmx request
comes from (``X-Pyramid-Language``, which a page sends back as its ``<html lang>``), else the
browser's ``Accept-Language``, else English. It lives in a context variable for the request,
so a route, a template and a message built anywhere below them all speak it without passing it
around; the JSON API's field names and error types never change, only its ``detail`` follows.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, lru_cache
from io import BytesIO
from pathlib import Path

from babel import Locale, localedata
from babel.core import get_global
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import LazyProxy, NullTranslations, Translations

__all__ = ["LazyProxy"]  # re-exported: the type of a lazy text (``_l``)
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger("pyramid.web")

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"  # app/locale
DOMAIN = "messages"
HEADER = "x-pyramid-language"
"""The header a page's scripts (and htmx, through ``hx-headers``) send: the page's language."""


@dataclass(frozen=True, slots=True)
class Language:
    code: str
    """BCP 47, as ``<html lang>`` and the Settings page's option values write it."""
    name: str
    """In its own words: what a speaker looks for in the list."""
    direction: str = "ltr"

    @property
    def locale(self) -> Locale:
        return locale_of(self.code)


LANGUAGES: dict[str, Language] = {language.code: language for language in (
    Language("en", "English"),
    Language("de", "Deutsch"),
    Language("fr", "Français"),
    Language("es", "Español"),
    Language("ja", "日本語"),
    Language("ru", "Русский"),
)}
DEFAULT = "en"
"""Spoken when nothing the request says names a language we have; the catalogs' source."""

_current: ContextVar[str] = ContextVar("pyramid_language", default=DEFAULT)
_accept: ContextVar[str | None] = ContextVar("pyramid_accept_language", default=None)
"""The browser's Accept-Language: the region it names with the language (``en-GB``) says how
numbers and dates are written and which day a week starts on (the catalogs are by language)."""


# --- which language --------------------------------------------------------------------------
LONGEST_HEADER = 512
"""An Accept-Language longer than this is read only this far: no browser sends more than a
few dozen bytes, and a 10 KB one must cost no more than a short one."""
MOST_RANGES = 16
_RANGE = re.compile(r"^(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$")
_QUALITY = re.compile(r"^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$")


def supported(code: object) -> str | None:
    """``code`` when it names a language we have (``de``, ``de-AT``, ``DE``), as our code."""
    if not isinstance(code, str) or not _RANGE.match(code) or code == "*":
        return None
    tag = code.lower()
    if tag in LANGUAGES:
        return tag
    primary = tag.split("-", 1)[0]
    return primary if primary in LANGUAGES else None


def ranges(header: str | None) -> list[str]:
    """The well-formed language ranges of ``header`` (RFC 9110's Accept-Language), the most
    liked first, none weighted 0.

    Forgiving by design: a malformed range or weight is skipped, never an error, and only the
    first ``LONGEST_HEADER`` characters and ``MOST_RANGES`` ranges are read."""
    if not header:
        return []
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate(header[:LONGEST_HEADER].split(",")[:MOST_RANGES]):
        parts = [part.strip() for part in item.split(";")]
        weight = 1.0
        if len(parts) > 1:
            quality = _QUALITY.match(parts[1].replace(" ", ""))
            if quality is None:
                continue
            weight = float(quality.group(1))
        if _RANGE.match(parts[0]) and weight > 0:
            ranked.append((-weight, position, parts[0]))
    return [tag for _, _, tag in sorted(ranked)]


def from_accept_language(header: str | None) -> str | None:
    """The language we have that ``header`` likes best, or None."""
    for tag in ranges(header):
        code = supported(tag)
        if code is not None:
            return code
    return None


def region_for(code: str, header: str | None) -> str | None:
    """The region ``header`` names along with ``code`` (``en-GB`` -> ``GB``), if any."""
    for tag in ranges(header):
        parts = tag.split("-")
        if parts[0].lower() == code and len(parts) > 1:
            region = next((p for p in parts[1:] if len(p) == 2 and p.isalpha()), None)
            if region is not None and f"{code}_{region.upper()}" in REGIONAL_LOCALES:
                return region.upper()
    return None


def current() -> str:
    """The code of the language this request speaks."""
    return _current.get()


def current_language() -> Language:
    return LANGUAGES[_current.get()]


def use(code: str | None) -> None:
    """Speak ``code`` (when we have it) for the rest of this request."""
    found = supported(code)
    if found is not None:
        _current.set(found)


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Speak ``code`` inside the block (a test, a background job's message)."""
    token = _current.set(supported(code) or DEFAULT)
    try:
        yield
    finally:
        _current.reset(token)


class LanguageMiddleware:
    """Sets the request's language from what it says itself: the page's language header, else
    Accept-Language. ``FirstPaint`` then puts the player's own choice first, once it has read
    their preferences (for a page). Outside the other layers, so that even a refusal made
    before a route runs (too large, too many) is written in the player's language."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        accept = headers.get("accept-language")
        code = supported(headers.get(HEADER)) or from_accept_language(accept) or DEFAULT
        token = _current.set(code)
        accepted = _accept.set(accept[:LONGEST_HEADER] if accept else None)
        try:
            await self.app(scope, receive, send)
        finally:
            _accept.reset(accepted)
            _current.reset(token)


# --- the catalogs ----------------------------------------------------------------------------
def catalog_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(code: str) -> NullTranslations:
    """``code``'s compiled catalog: the ``.mo`` the install compiled, unless its ``.po`` is
    newer (or it is missing), in which case the ``.po`` is compiled here, in memory; so an
    edited catalog is never served stale. English is the messages themselves."""
    po = catalog_path(code)
    if code == DEFAULT or not po.exists():
        return NullTranslations()
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as file:
            return Translations(file, domain=DOMAIN)
    log.info("Compiling %s in memory (no up-to-date %s: make catalogs-compile)", po, mo.name)
    return Translations(BytesIO(compiled(po)), domain=DOMAIN)


def compiled(po: Path) -> bytes:
    """The ``.mo`` bytes of ``po``. Fuzzy entries are left out, as ``pybabel compile`` does."""
    with po.open("rb") as file:
        catalog = read_po(file)
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


REGIONAL_LOCALES = frozenset(localedata.locale_identifiers())


@lru_cache(maxsize=256)
def locale_of(code: str, region: str | None = None) -> Locale:
    """How ``code`` writes numbers and dates: in ``region`` when one is named, else where the
    language is most spoken (``en`` -> ``en_US``, ``ja`` -> ``ja_JP``), since a language
    alone has no first day of the week."""
    if region is not None:
        return Locale.parse(f"{code}_{region}")
    likely = get_global("likely_subtags").get(code, code).split("_")
    return Locale.parse(f"{likely[0]}_{likely[-1]}" if len(likely) > 1 else likely[0])


def current_locale() -> Locale:
    """The locale this request writes numbers, dates and weekdays in."""
    code = _current.get()
    return locale_of(code, region_for(code, _accept.get()))


# --- translating -----------------------------------------------------------------------------
def gettext(message: str, **values: object) -> str:
    """``message`` in this request's language, its ``%(name)s`` placeholders filled."""
    text = translations(_current.get()).gettext(message)
    return text % values if values else text


def ngettext(singular: str, plural: str, n: int, **values: object) -> str:
    """The form of ``singular``/``plural`` that ``n`` takes in this request's language (as
    many forms as the language has: Russian three, Japanese one); ``%(num)s`` is ``n``."""
    text = translations(_current.get()).ngettext(singular, plural, n)
    return text % {"num": n, **values}


def pgettext(context: str, message: str, **values: object) -> str:
    """``message`` as meant in ``context`` (a word that translates differently by use)."""
    text = str(translations(_current.get()).pgettext(context, message))
    return text % values if values else text


_ = gettext


def lazy_gettext(message: str, **values: object) -> LazyProxy:
    """``message`` translated each time it is read, in the language of that moment: for texts
    defined once at import (a preference's label) and shown in many requests."""
    return LazyProxy(gettext, message, enable_cache=False, **values)


_l = lazy_gettext


@dataclass(frozen=True, slots=True)
class Counted:
    """A message with a count, kept to be translated later (``counted``): the lazy
    ``ngettext``."""

    singular: str
    plural: str

    def __call__(self, n: int, **values: object) -> str:
        return ngettext(self.singular, self.plural, n, **values)


def counted(singular: str, plural: str) -> Counted:
    """Mark ``singular``/``plural`` for the catalogs (``pybabel extract -k counted:1,2``) and
    translate when called with the count."""
    return Counted(singular, plural)
