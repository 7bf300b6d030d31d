"""The board speaks the request's language: a refused move's reason, what a move did,
an undo, the hint's words, the question before abandoning a game, and the messages of the
board's JSON answers, whose field names stay the same in every language.

Each test installs a small German catalog of its own (``german``), so what is checked is the
wiring, not anyone's translation (a reworded translation breaks nothing here).
"""

from __future__ import annotations

import json
import re
from io import BytesIO

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import NullTranslations, Translations

from app.engine import Move
from app.engine.solver import Hint
from app.web.core import i18n, words
from app.web.views.view import (
    back_before,
    covered_by,
    describe_hint,
    describe_step,
    kept_the_win,
)

from .helpers import HX, bad_pair, game_for, start_deal
from .test_board_batches import message, version_of

GERMAN = {
    "%(a)s and %(b)s make %(total)s, not 13.": "%(a)s und %(b)s ergeben %(total)s, nicht 13.",
    "Drew a card onto the waste.": "Eine Karte auf den Abwurfstapel gezogen.",
    "Took back: draw.": "Zurückgenommen: Ziehen.",
    "%(why)s (Step %(number)s of %(steps)s; none of them was played.)":
        "%(why)s (Schritt %(number)s von %(steps)s; keiner davon wurde gespielt.)",
    "Hint: %(move)s.": "Tipp: %(move)s.",
    "draw a card from the stock": "zieh eine Karte vom Stapel",
    "This deal can still be won.": "Dieses Spiel ist noch zu gewinnen.",
    "Removing %(a)s instead would have kept the win.":
        "Hätte man stattdessen %(a)s entfernt, wäre der Sieg geblieben.",
    "Back before move %(number)s, the move that lost the win. Removing %(a)s keeps it: the "
    "board marks it.": "Zurück vor Zug %(number)s. %(a)s zu entfernen hält den Sieg.",
    "%(rank)s of spades": "Pik-%(rank)s",
    "King": "König",
    "deal #%(number)s (%(rules)s)": "Spiel Nr. %(number)s (%(rules)s)",
}
GERMAN_PLURALS = {
    ("standard goal, %(num)s pass", "standard goal, %(num)s passes"):
        ("Standardziel, %(num)s Durchgang", "Standardziel, %(num)s Durchgänge"),
}
GERMAN_CONTEXT = {("a move in a replay's list", "Draw"): "Ziehen"}


def german_translations() -> Translations:
    catalog = Catalog(locale="de")
    for english, german in GERMAN.items():
        catalog.add(english, german)
    for english, german in GERMAN_PLURALS.items():
        catalog.add(english, german)
    for (context, english), german in GERMAN_CONTEXT.items():
        catalog.add(english, german, context=context)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=i18n.DOMAIN)


@pytest.fixture
def german(monkeypatch):
    """A German catalog of a few messages, in place of the real ones (every other language
    speaks English)."""
    fake = german_translations()

    def translations(code: str) -> NullTranslations:
        return fake if code == "de" else NullTranslations()

    real = i18n.translations
    real.cache_clear()
    words._page_words.cache_clear()
    monkeypatch.setattr(i18n, "translations", translations)
    yield
    words._page_words.cache_clear()
    real.cache_clear()


DE = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
PAGE_DE = {"X-Pyramid-Language": "de"}


def refused_pair(client, game_id: str) -> tuple[str, dict[str, str]]:
    """The German the engine's refusal of a pair that does not make 13 becomes, and the form
    that plays that pair."""
    a, b = bad_pair(game_for(client, game_id))
    first, second = Move.remove(a, b).cards  # the engine's order
    expected = f"{first.symbol} und {second.symbol} ergeben {a.rank + b.rank}, nicht 13."
    return expected, {"card": b.name, "selected": a.name}


def test_a_refused_move_is_said_in_the_browser_s_language(client, german):
    game_id = start_deal(client, 3)
    expected, form = refused_pair(client, game_id)
    # Without JavaScript: the notice rides the redirect and is shown on the board.
    posted = client.post(f"/games/{game_id}/play", data=form, headers=DE, follow_redirects=False)
    assert posted.status_code == 303
    board = client.get(posted.headers["location"], headers=DE).text
    assert expected in message(board)
    assert "make" not in message(board)
    # The same move in English, for a browser that asks for English.
    posted = client.post(f"/games/{game_id}/play", data=form, follow_redirects=False)
    board = client.get(posted.headers["location"]).text
    assert "ergeben" not in message(board) and ", not 13." in message(board)


def test_an_htmx_answer_speaks_the_page_s_language(client, german):
    game_id = start_deal(client, 3)
    expected, form = refused_pair(client, game_id)
    refused = client.post(f"/games/{game_id}/play", data=form, headers={**HX, **PAGE_DE})
    assert refused.status_code == 200 and expected in message(refused.text)
    drew = client.post(f"/games/{game_id}/play", data={"action": "draw"},
                       headers={**HX, **PAGE_DE})
    assert message(drew.text) == "Eine Karte auf den Abwurfstapel gezogen."
    undone = client.post(f"/games/{game_id}/undo", headers={**HX, **PAGE_DE})
    assert message(undone.text) == "Zurückgenommen: Ziehen."
    # The page's own language wins over the browser's.
    english = client.post(f"/games/{game_id}/play", data={"action": "draw"},
                          headers={**HX, "X-Pyramid-Language": "en", **DE})
    assert message(english.text) == "Drew a card onto the waste."


def test_the_board_s_json_answer_keeps_its_field_names(client, german):
    game_id = start_deal(client, 3)
    a, b = bad_pair(game_for(client, game_id))
    refused_batch = f"draw {a.name}+{b.name}"

    def batch(headers: dict[str, str], input_id: str):
        return client.post(f"/games/{game_id}/play",
                           data={"moves": refused_batch, "version": version_of(client, game_id),
                                 "input": input_id},
                           headers={"Accept": "application/json", **headers})

    in_english = batch({}, "abcdef0123:1")
    in_german = batch(PAGE_DE, "abcdef0123:2")
    assert in_english.status_code == in_german.status_code == 422
    english, german_data = in_english.json(), in_german.json()
    assert list(german_data) == list(english)
    assert german_data["refused"] is english["refused"] is True
    assert german_data["moves"] == english["moves"] == []
    assert english["message"].endswith("(Step 2 of 2; none of them was played.)")
    assert "ergeben" in german_data["message"]
    assert german_data["message"].endswith("(Schritt 2 von 2; keiner davon wurde gespielt.)")


def test_the_board_page_s_game_data_keeps_its_field_names(client, german):
    game_id = start_deal(client, 3)

    def game_data(headers: dict[str, str]) -> dict:
        html = client.get(f"/games/{game_id}", headers=headers).text
        found = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', html,
                          re.S)
        return json.loads(found.group(1))

    assert list(game_data(DE)) == list(game_data({}))


def test_the_coach_and_the_hint_are_said_whole(german):
    with i18n.speaking("de"):
        assert describe_hint(Hint(Move.draw(), True, "")) == (
            "Tipp: zieh eine Karte vom Stapel. Dieses Spiel ist noch zu gewinnen.")
        assert kept_the_win(Move.remove("KS")) == (
            "Hätte man stattdessen K♠ entfernt, wäre der Sieg geblieben.")
        assert back_before(Move.remove("KS"), 12) == (
            "Zurück vor Zug 12. K♠ zu entfernen hält den Sieg.")
        assert describe_step(Move.draw()) == "Ziehen"
    # English as before.
    assert kept_the_win(Move.remove("KS")) == "Removing K♠ instead would have kept the win."
    assert back_before(Move.recycle(), 3) == (
        "Back before move 3, the move that lost the win. Turning the waste over for the next "
        "pass keeps it: the board marks it.")


def test_covering_cards_are_named_in_the_player_s_language(client, german):
    game = game_for(client, start_deal(client, 3))
    with i18n.speaking("de"):
        named = covered_by(game)
    english = covered_by(game)
    assert named.keys() == english.keys()
    pairs = [(e, g) for card in english for e, g in zip(english[card], named[card], strict=True)]
    assert all(re.fullmatch(r"(Ace|Jack|Queen|King|\d+) of (clubs|diamonds|hearts|spades)", e)
               for e, _ in pairs)
    spades = [(e, g) for e, g in pairs if e.endswith(" of spades")]
    assert spades  # deal 3 has spades covering others
    assert all(g == "Pik-" + e.removesuffix(" of spades").replace("King", "König")
               for e, g in spades)
    assert all(g == e for e, g in pairs if not e.endswith(" of spades"))


def test_the_question_before_abandoning_names_the_deal_in_the_player_s_language(client,
                                                                                 german):
    game_id = start_deal(client, 3)
    client.post(f"/games/{game_id}/play", data={"action": "draw"}, headers=HX)
    asked = client.get("/deal/42", headers=DE)
    assert asked.status_code == 200 and "data-confirm-abandon" in asked.text
    assert "Spiel Nr. 42 (Standardziel, 3 Durchgänge)" in asked.text
    english = client.get("/deal/42")
    assert "deal #42 (standard goal, 3 passes)" in english.text
