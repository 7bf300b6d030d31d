"""The scripts say nothing of their own: every sentence a page's script shows or announces
comes from the page's words (app/web/core/words.py, from the catalogs). A string in a script that
reads like words for a person fails here; the engine's (static/js/engine, which refuses with
codes, worded from the page's table) and vendored files are not the pages' scripts."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "static" / "js").glob("*.js")) + sorted(
    (ROOT / "static" / "js" / "board").glob("*.js"))
NOT_FOR_PEOPLE = {"swagger-init.js"}
COMMENT = re.compile(r"/\*.*?\*/|(?<![:\\\"'`])//[^\n]*", re.S)
LITERAL = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`")
WORDS = re.compile(r"[A-Za-z]{2,}(?:'[a-z]+)? [A-Za-z]{2,}")
"""Two words in a row: a phrase (a selector or a class list is told apart below)."""
CODE = re.compile(r"[\[\]#={}<>]|^\s*[a-z-]+( [a-z-]+)*\s*$")
"""A selector, a template with markup, or a list of classes/keys in lower case."""


def people_strings(source: str) -> list[str]:
    found = []
    for literal in LITERAL.findall(COMMENT.sub("", source)):
        text = re.sub(r"\$\{[^}]*\}", "", literal[1:-1])
        if WORDS.search(text) and not CODE.search(text):
            found.append(text)
    return found


def test_no_script_has_words_of_its_own():
    found = {path.name: people_strings(path.read_text(encoding="utf-8"))
             for path in SCRIPTS if path.name not in NOT_FOR_PEOPLE}
    found = {name: strings for name, strings in found.items() if strings}
    assert not found, f"words in scripts, not from the catalogs: {found}"


def test_the_check_finds_a_sentence():
    assert people_strings('say("Deal link copied."); x = `Deal #${n}`') == [
        "Deal link copied."]
    assert people_strings('el.textContent = "Game over";') == ["Game over"]
    assert not people_strings('document.querySelector("#board button[data-card]")')


def test_the_page_words_hold_every_sentence_under_its_own_key():
    """A key the page's words add (cards, refusals) never hides a sentence's."""
    from app.web.core import words

    sent = json.loads(words._page_words("en"))["words"]
    for key in words.SENTENCES:
        assert isinstance(sent[key], str) and "%(" not in sent[key], key
    for key in words.COUNTED:
        assert isinstance(sent[key], dict) and set(sent[key]) >= {"one", "other"}, key
