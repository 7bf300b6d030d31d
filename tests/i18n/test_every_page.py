"""Every kind of page, drawn in a pseudo-language and in each real language: no text a person
reads comes from anywhere but the catalogs, and none is left in English.

The pseudo-language (pseudo.py) accents every message's letters, so a plain ASCII word on a
page is a word the catalogs never gave: unmarked template text, an engine's English label, a
sentence built by gluing. The real languages then show that each page is drawn in its
language from the first byte (``<html lang>``), with no English sentence among its texts.
"""

from __future__ import annotations

import json
import re

import pytest
from babel.messages.pofile import read_po

from app.web.core.i18n import LANGUAGES, catalog_path
from tests.i18n.conftest import PAGES, ids
from tests.i18n.pseudo import TEMPLATE, english_left, shown_texts

HX = {"HX-Request": "true"}


def draw(site, language: str, method: str, path: str, form):
    headers = HX if form and form.get("hx") else None
    if method == "POST":
        return site.page(ids(site, path), language, "POST", form)
    return site.page(ids(site, path), language, headers=headers)


def page_words(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="words">(.*?)</script>', html, re.S)
    return json.loads(found.group(1)) if found else {}


def script_texts(words: dict) -> list[str]:
    """The sentences the page gives its scripts (not codes, nor the names of the refusals'
    fields that count, ``counts``)."""
    texts: list[str] = []

    def walk(value, key=""):
        if key in ("language", "number_locale", "counts"):
            return
        if isinstance(value, str):
            texts.append(re.sub(r"\{\w+\}", "", value))
        elif isinstance(value, dict):
            for name, inner in value.items():
                walk(inner, name)
        elif isinstance(value, list):
            for inner in value:
                walk(inner, key)

    walk(words.get("words", {}))
    return texts


@pytest.mark.parametrize(("name", "method", "path", "form"), PAGES, ids=[p[0] for p in PAGES])
def test_every_text_a_page_shows_comes_from_the_catalogs(site, pseudo_language, name, method,
                                                         path, form):
    html = draw(site, pseudo_language, method, path, form)
    left = english_left(shown_texts(html))
    assert not left, f"{name}: text not from the catalogs: {left}"
    if "hx" not in (form or {}):
        left = english_left(script_texts(page_words(html)))
        assert not left, f"{name}: the scripts' sentences not from the catalogs: {left}"


def english_sentences() -> set[str]:
    """The catalogs' English messages of two words or more, as a page would show them."""
    with TEMPLATE.open("rb") as file:
        template = read_po(file)
    found = set()
    for message in template:
        for text in (message.id if isinstance(message.id, tuple) else (message.id,)):
            if text and " " in text and "%(" not in text and "<" not in text:
                found.add(text.strip())
    return found


TRANSLATED = [code for code in LANGUAGES if code != "en" and catalog_path(code).exists()]


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize(("name", "method", "path", "form"), PAGES, ids=[p[0] for p in PAGES])
def test_every_page_speaks_the_language_asked_for(site, language, name, method, path, form):
    html = draw(site, language, method, path, form)
    if "hx" not in (form or {}):
        assert re.search(rf'<html lang="{language}"', html), name
    english = english_sentences()
    with catalog_path(language).open("rb") as file:
        catalog = read_po(file)
    same = {m.id for m in catalog if m.id and m.string == m.id}  # written alike in both
    left = [text.strip() for text in shown_texts(html)
            if text.strip() in english and text.strip() not in same]
    assert not left, f"{name} in {language}: English left: {left}"


def test_a_page_drawn_in_one_language_then_another_keeps_no_word_of_the_first(site):
    """A template compiled while one language speaks holds none of its words: a filter on a
    constant (the chart's legend, ``"won"|status_label``) runs for each request."""
    from app.web.views import templating

    templating.templates.env.cache.clear()
    english = site.page("/stats", "en")
    german = site.page("/stats", "de")
    legend = re.findall(r'class="legend"><span class="swatch (\w+)"[^>]*></span>([^<]+)<', german)
    assert legend and "Won" in english
    assert dict(legend)["won"] == "Gewonnen", legend
