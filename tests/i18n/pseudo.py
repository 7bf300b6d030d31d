"""A pseudo-translation of every message, and a reader of what a page shows a person.

The pseudo-translation writes every message's letters with accents (``Ñéŵ ĝåɱé``), keeping
what a translation must keep: placeholders (``%(card)s``), HTML tags and entities, and the
rules' Markdown marks (``**``, `` `keys` ``, link targets). A page drawn with it shows an
unaccented ASCII word only where the text did not come from the catalogs: a template's words
left unmarked, a script's hard-coded sentence, an engine's English label put into a sentence.
``english_left`` finds them.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "app" / "locale" / "messages.pot"

ACCENTED = dict(zip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                    "åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ", strict=True))
KEEP = re.compile(r"%\(\w+\)s|%%|<[^>]*>|&\w+;|&#\d+;|`[^`]*`|\]\([^)]*\)|\{\w+\}")
"""Kept as they are: placeholders, tags, entities, code spans (keys), link targets."""


def pseudo(text: str) -> str:
    out, last = [], 0
    for match in KEEP.finditer(text):
        out.append(_accent(text[last:match.start()]))
        out.append(match.group())
        last = match.end()
    out.append(_accent(text[last:]))
    return "".join(out)


def _accent(text: str) -> str:
    return "".join(ACCENTED.get(ch, ch) for ch in text)


def pseudo_translations() -> Translations:
    """Every message of app/locale/messages.pot, pseudo-translated (English plural rules)."""
    with TEMPLATE.open("rb") as file:
        template = read_po(file)
    catalog = Catalog(locale="en")
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            string: tuple[str, ...] | str = tuple(pseudo(part) for part in message.id)
        else:
            string = pseudo(message.id)
        catalog.add(message.id, string, context=message.context, flags=message.flags)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer)


# --- what a page shows -----------------------------------------------------------------------
SHOWN_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "aria-description",
                    "aria-roledescription", "aria-valuetext")
NOT_SHOWN = ("script", "style")


class _Shown(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.hidden_depth = 0
        self.stack: list[str] = []
        self.kept: list[str] = []   # open elements marked translate="no"

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag in NOT_SHOWN:
            self.hidden_depth += 1
        if attributes.get("translate") == "no":
            self.kept.append(tag)
            return
        if self.kept:
            return
        for name in SHOWN_ATTRIBUTES:
            if attributes.get(name):
                self.texts.append(attributes[name])
        if tag == "input" and attributes.get("type") in ("submit", "button", "reset"):
            self.texts.append(attributes.get("value") or "")
        if tag == "meta" and attributes.get("name") == "description":
            self.texts.append(attributes.get("content") or "")
        if tag not in ("br", "img", "input", "meta", "link", "hr", "source", "path", "rect",
                       "circle", "line", "polygon", "use"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if self.kept:
            if tag == self.kept[-1]:
                self.kept.pop()
            return
        if tag in NOT_SHOWN and self.hidden_depth:
            self.hidden_depth -= 1
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        if not self.hidden_depth and not self.kept and data.strip():
            inside = self.stack[-1] if self.stack else ""
            self.texts.append(f"<kbd>{data}" if inside == "kbd" else data)


def shown_texts(html: str) -> list[str]:
    """The texts of ``html`` a person sees or hears: text outside scripts and styles, and the
    attributes a screen reader reads. Text inside ``<kbd>`` is marked so (key names). An
    element marked ``translate="no"`` (a name, a link, a command, each language's own name)
    is left out: it is the same in every language, by design."""
    parser = _Shown()
    parser.feed(html)
    return parser.texts


def _locale_words() -> set[str]:
    """Month and weekday names and AM/PM as Babel's English locale data writes them: dates
    come from CLDR, not from our catalogs (tests/i18n/test_every_page.py checks each
    language's own)."""
    english = Locale.parse("en_US")
    words: set[str] = set()
    for names in (english.months["format"], english.months["stand-alone"],
                  english.days["format"], english.days["stand-alone"]):
        for width in names.values():
            words.update(str(name) for name in width.values())
    words.update(str(name) for name in english.day_periods["format"]["abbreviated"].values())
    return {word for word in words if WORD.fullmatch(word)}


WORD = re.compile(r"[A-Za-z]{2,}")
ALLOWED = {
    "Pyramid",   # the game's and the site's name, as the brand
    "PySolFC", "Microsoft", "Solitaire", "Collection",   # names of other programs
    "UTC", "JSON", "CSV", "ID", "KB", "MB",
    "Ctrl",
} | _locale_words()
KEYS = {"Tab", "Enter", "Space", "Esc", "Shift", "Ctrl"}


def english_left(texts: list[str], allowed: set[str] = ALLOWED) -> list[str]:
    """The texts that hold an ASCII word (two letters or more) the catalogs did not give,
    beyond names in ``allowed`` and key names in ``<kbd>``."""
    found = []
    for text in texts:
        words = set(WORD.findall(text.removeprefix("<kbd>")))
        words -= allowed
        if text.startswith("<kbd>"):
            words -= KEYS
        if words:
            found.append(text.strip()[:160])
    return found
