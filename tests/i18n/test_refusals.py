"""Every refusal the engines and the store can make has its message in the catalogs, in every
language: the codes are read from the engine (``app.engine.Code``, the same as the JS engine's,
which tests/engine/test_js_conformance.py holds equal) and the store (``StoreCode``), so a new
code without words fails here instead of showing a code to a player."""

from __future__ import annotations

import json

import pytest
from babel.messages.pofile import read_po

from app.engine import Code, GameStatus, Termination
from app.store import StoreCode
from app.web.core import refusals, words
from app.web.core.i18n import DEFAULT, LANGUAGES, Counted, catalog_path
from tests.i18n.pseudo import TEMPLATE

CODES = [*Code, *StoreCode]


def _ids(message) -> set[str]:
    if isinstance(message, Counted):
        return {message.singular}
    return {message._args[0]}  # a LazyProxy of gettext(message)


def test_every_code_of_the_engine_and_the_store_has_a_message():
    missing = [code.value for code in CODES if code not in refusals.MESSAGES]
    assert not missing, f"refusal codes with no message in app/web/core/refusals.py: {missing}"
    assert set(refusals.MESSAGES) == set(CODES)
    assert set(refusals.ENDINGS) == {t.value for t in Termination} | {"abandoned", "time_up"}
    assert set(refusals.WAS) == {status.value for status in GameStatus}


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != DEFAULT])
def test_every_refusal_is_translated(language):
    with TEMPLATE.open("rb") as file:
        template = {message.id if isinstance(message.id, str) else message.id[0]
                    for message in read_po(file) if message.id}
    with catalog_path(language).open("rb") as file:
        catalog = {(message.id if isinstance(message.id, str) else message.id[0]): message
                   for message in read_po(file) if message.id}
    messages = [*refusals.MESSAGES.values(), *refusals.ENDINGS.values(), *refusals.WAS.values(),
                *refusals.PARTS.values(), refusals.UNREADABLE_GAME]
    for message in messages:
        for msgid in _ids(message):
            assert msgid in template, f"not in messages.pot (make catalogs): {msgid!r}"
            strings = catalog[msgid].string
            strings = strings if isinstance(strings, tuple) else (strings,)
            assert all(strings) and not catalog[msgid].fuzzy, f"{language}: {msgid!r}"


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_page_has_every_refusal_by_code(language):
    """The board's script says a refusal of the browser's engine by its code: the page's words
    have a message for every code, with the script's placeholders."""
    sent = json.loads(words._page_words(language))["words"]["refusals"]
    assert set(sent["messages"]) == {code.value for code in CODES}
    for code, message in sent["messages"].items():
        forms = message.values() if isinstance(message, dict) else [message]
        assert all(form and "%(" not in form for form in forms), (code, message)
    assert set(sent["counts"]) <= set(sent["messages"])
    assert set(sent["endings"]) == {t.value for t in Termination} | {"abandoned", "time_up"}
