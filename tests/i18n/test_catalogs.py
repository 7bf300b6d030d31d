"""The catalogs: up to date with the code, and every language complete and well formed.

- ``messages.pot`` is what ``make catalogs`` extracts now: a text marked in the code but not
  yet in the catalogs (or one removed) fails here, with the command that fixes it.
- Each language has every message, none fuzzy, each with the placeholders of its English
  (``%(card)s``), the HTML tags, the rules' Markdown marks and keys, and as many plural forms
  as the language has.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app.web.core.i18n import DEFAULT, LANGUAGES, catalog_path
from tests.i18n.pseudo import ROOT, TEMPLATE

PYBABEL = Path(sys.executable).with_name("pybabel")
OTHER_LANGUAGES = [code for code in LANGUAGES if code != DEFAULT]


def read(path: Path):
    with path.open("rb") as file:
        return read_po(file)


def ids_of(catalog) -> set:
    return {(message.context, message.id) for message in catalog if message.id}


def test_the_template_holds_exactly_what_the_code_marks(tmp_path):
    fresh = tmp_path / "messages.pot"
    subprocess.run([str(PYBABEL), "-q", "extract", "-F", "babel.cfg", "-k", "_l", "-k",
                    "lazy_gettext", "-k", "counted:1,2", "--add-comments=TRANSLATORS:",
                    "-o", str(fresh), "."], cwd=ROOT, check=True)
    now, kept = ids_of(read(fresh)), ids_of(read(TEMPLATE))
    assert now == kept, (
        "app/locale/messages.pot is not what the code marks: run `make catalogs` and translate "
        f"the new messages. New: {sorted(map(str, now - kept))[:10]} "
        f"gone: {sorted(map(str, kept - now))[:10]}")


def test_every_language_has_a_catalog():
    assert set(OTHER_LANGUAGES) <= {p.parent.parent.name for p in
                                    (ROOT / "app" / "locale").glob("*/LC_MESSAGES/messages.po")}


PLACEHOLDER = re.compile(r"%\(\w+\)s")
TAG = re.compile(r"</?[a-z]+\b[^>]*>")
MARKS = re.compile(r"\*\*|`[^`]*`|\]\([^)]*\)")
COUNTS = {"%(num)s", "%(count)s"}


def shape(text: str) -> tuple[Counter, Counter, Counter]:
    """What a translation must keep of ``text``: its placeholders, tags and Markdown marks."""
    return (Counter(PLACEHOLDER.findall(text)), Counter(TAG.findall(text)),
            Counter(MARKS.findall(text)))


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_a_catalog_is_complete_and_keeps_every_placeholder(language):
    catalog = read(catalog_path(language))
    template_ids = ids_of(read(TEMPLATE))
    assert ids_of(catalog) == template_ids, "run `make catalogs`"
    # As many forms as the catalog's Plural-Forms (Babel's, from CLDR) has: gettext picks by
    # its expression (French and Spanish have three: one, many (a million), other).
    plural_count = catalog.num_plurals
    problems = []
    for message in catalog:
        if not message.id:
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            problems.append(f"untranslated: {english[0]!r}")
            continue
        if isinstance(message.id, tuple) and len(strings) != plural_count:
            problems.append(f"{len(strings)} plural forms, not {plural_count}: {english[0]!r}")
        wanted = shape(english[-1])
        for i, string in enumerate(strings):
            got = shape(string)
            names, expected = set(got[0]), set(wanted[0])
            if isinstance(message.id, tuple) and i < len(strings) - 1:
                # A form for one may say "one" in words rather than the count.
                names, expected = names - COUNTS, expected - COUNTS
            if names != expected or got[1:] != wanted[1:]:
                problems.append(f"placeholders, tags or marks differ: {english[0]!r} -> "
                                f"{string!r}")
        for error in message.check(catalog):
            problems.append(f"{error}: {english[0]!r}")
    assert not problems, "\n".join(problems[:40])
