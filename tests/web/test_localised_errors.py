"""Errors and refusals in the request's language: the error pages, the API's ``detail`` (its
field names and ``errors`` never change), the guards' refusals, the import's refusals (made in
the worker process, said in the web process), the web manifest; and an Accept-Language that
names nothing we have, or is no header at all, is English without a fuss.

No catalog is translated yet, so "German" here is a stand-in catalog (``marked``) that writes
``[de]`` before every message: what carries it was translated, what does not was not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from babel.support import NullTranslations
from fastapi.testclient import TestClient

from app.engine import Code, Deal, Game, Refusal, Variant
from app.engine.deal import DealError
from app.engine.variant import GameSetupError
from app.store import StoreCode
from app.web.core import i18n, words
from app.web.core.refusals import problem_sentence, say
from app.web.services import gamesfile
from tests.web.conftest import browser_like
from tests.web.helpers import HX, import_file, start_deal

DE = {"Accept-Language": "de"}
MARK = "[de] "


class Marked(NullTranslations):
    """A stand-in German: every message with ``[de]`` before it."""

    def gettext(self, message: str) -> str:
        return MARK + message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return MARK + (singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return MARK + message

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.ngettext(singular, plural, n)


@pytest.fixture
def marked(monkeypatch) -> Iterator[None]:
    """German is the stand-in catalog for the test (the board's words, cached by language,
    are forgotten before and after)."""
    original = i18n.translations
    monkeypatch.setattr(i18n, "translations",
                        lambda code: Marked() if code == "de" else original(code))
    words._page_words.cache_clear()
    yield
    words._page_words.cache_clear()


def html_lang(page: str) -> str | None:
    found = re.search(r'<html lang="([^"]+)"', page)
    return found.group(1) if found else None


def same_shape(english: dict, other: dict) -> None:
    """``other`` is ``english`` but for ``detail``: the same fields, the same ``errors``."""
    assert set(other) == set(english) == {"detail", "errors"}
    assert other["errors"] == english["errors"]
    assert isinstance(other["detail"], str) and other["detail"]


# --- pages -------------------------------------------------------------------------------------
def test_an_unknown_page_in_german_is_a_404_in_german(client, marked):
    page = client.get("/no/such/page", headers=DE)
    assert page.status_code == 404 and html_lang(page.text) == "de"
    assert f"<h1>{MARK}Page not found</h1>" in page.text
    assert MARK + "There is nothing at this address." in page.text
    english = client.get("/no/such/page")
    assert english.status_code == 404 and html_lang(english.text) == "en"
    assert "<h1>Page not found</h1>" in english.text and MARK not in english.text


def test_a_deal_link_that_names_nothing_says_why_in_german(client, marked):
    page = client.get("/deal/0123", headers=DE)
    assert page.status_code == 404 and html_lang(page.text) == "de"
    assert MARK + "There is nothing at this address" in page.text
    assert MARK + "&#39;0123&#39; is not a deal number written in plain digits" in page.text


def test_an_unexpected_error_is_a_500_page_in_german(hardened, marked):
    """Starlette writes the 500 page outside every middleware added the usual way: the
    language is set around the whole stack (``app.main.PyramidApp``)."""
    with TestClient(hardened, raise_server_exceptions=False) as client:
        page = client.get("/boom", headers=DE)
        assert page.status_code == 500 and html_lang(page.text) == "de"
        assert MARK + "Something went wrong" in page.text
        outage = client.get("/boom-db", headers=DE)
        assert outage.status_code == 503 and MARK + "Not available right now" in outage.text


def test_a_cross_site_refusal_is_in_german(client, marked):
    game_id = start_deal(client, 3)
    refused = client.post(f"/games/{game_id}/pause",
                          headers={**DE, "Origin": "https://evil.example"})
    assert refused.status_code == 403 and html_lang(refused.text) == "de"
    assert MARK + "This request came from another origin" in refused.text
    assert MARK + "Go to the home page" in refused.text


def test_a_form_without_its_token_is_refused_in_german(app, marked):
    with TestClient(app) as client:
        client.get("/")
        refused = client.post("/games", data={"goal": "standard", "passes": "3"}, headers=DE)
    assert refused.status_code == 403 and html_lang(refused.text) == "de"
    assert MARK + "This page has expired" in refused.text


# --- the JSON API ------------------------------------------------------------------------------
def test_the_apis_404_keeps_its_shape_in_german(client, marked):
    english = client.get("/api/games/unknown")
    german = client.get("/api/games/unknown", headers=DE)
    assert english.status_code == german.status_code == 404
    assert english.json() == {"detail": "no game 'unknown'", "errors": []}
    same_shape(english.json(), german.json())
    assert german.json()["detail"] == MARK + "no game 'unknown'"
    unrouted = client.get("/api/nothing/here", headers=DE)
    assert unrouted.status_code == 404 and unrouted.json()["detail"] == MARK + "Not Found"


@pytest.mark.parametrize("body", [{"passes": "3"}, {"goal": "sideways"}, {"deal": 0},
                                  {"deal": "0123"}, {"unknown": 1}])
def test_the_apis_422_keeps_its_shape_in_german(client, marked, body):
    english = client.post("/api/games", json=body)
    german = client.post("/api/games", json=body, headers=DE)
    assert english.status_code == german.status_code == 422, english.text
    same_shape(english.json(), german.json())
    assert english.json()["detail"].startswith("The request is not valid: ")
    assert german.json()["detail"].startswith(MARK + "The request is not valid: ")


def test_a_refused_move_has_its_code_in_errors_and_its_sentence_in_german(client, marked):
    """The API's 422 for a refused move: ``errors[0].type`` is the refusal's code (the same in
    every language), ``detail`` its sentence in the player's language."""
    game_id = start_deal(client, 3)
    game = Game(Deal.from_number(3))
    covered = next(c for i, c in enumerate(game.pyramid) if not game.is_free_position(i))
    free = [c for c in game.free_cards() if not c.is_king]
    a, b = next((a, b) for i, a in enumerate(free) for b in free[i + 1:] if a.rank + b.rank != 13)
    for body, code in (({"op": "remove", "cards": [covered.name]}, "covered"),
                       ({"op": "remove", "cards": [a.name, b.name]}, "not_thirteen"),
                       ({"op": "recycle"}, "stock_not_empty")):
        english = client.post(f"/api/games/{game_id}/moves", json=body)
        german = client.post(f"/api/games/{game_id}/moves", json=body, headers=DE)
        assert english.status_code == german.status_code == 422, body
        assert english.json()["errors"][0]["type"] == german.json()["errors"][0]["type"] == code
        assert english.json()["errors"] == german.json()["errors"]
        assert german.json()["detail"].startswith(MARK) and MARK not in english.json()["detail"]


def test_the_apis_refusal_of_a_move_is_the_engines_sentence_in_german(client, marked):
    game_id = start_deal(client, 3)
    english = client.post(f"/api/games/{game_id}/undo")
    german = client.post(f"/api/games/{game_id}/undo", headers=DE)
    assert english.status_code == german.status_code == 422
    assert english.json() == {"detail": "There is no move to undo.", "errors": [
        {"loc": [], "msg": "There is no move to undo.", "type": "nothing_to_undo", "ctx": {}}]}
    same_shape(english.json(), german.json())
    assert german.json()["detail"] == MARK + "There is no move to undo."


def test_the_apis_guards_answer_in_german(client, marked):
    refused = client.post("/api/games", content=b"goal=standard",
                          headers={**DE, "Content-Type": "application/x-www-form-urlencoded"})
    assert refused.status_code == 415
    assert refused.json() == {"detail": MARK + "The API reads JSON bodies only: send the body "
                                              "with Content-Type: application/json.",
                              "errors": []}


# --- the language asked for --------------------------------------------------------------------
@pytest.mark.parametrize("header", ["de-DE;q=0.9," * 900,  # 10 KB, with a language we have
                                    "zz-QQ," * 1700,
                                    ";;;,,q=x,*,zz-ZZ-Q;q=2",
                                    "\x00\x01;q=\x7f,,",
                                    "tlh, x-klingon;q=0.5, zz",
                                    "*"])
def test_any_accept_language_gives_a_normal_page(client, header):
    page = client.get("/", headers={"Accept-Language": header})
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    expected = "de" if header.startswith("de-DE") else "en"
    assert html_lang(page.text) == expected


def test_unknown_languages_give_the_english_page(client):
    for header in (";;;,,q=x,*,zz-ZZ-Q;q=2", "tlh, x-klingon;q=0.5, zz", "x" * 10_240):
        page = client.get("/rules", headers={"Accept-Language": header})
        assert page.status_code == 200 and html_lang(page.text) == "en"


def test_the_pages_language_header_answers_fragments_and_json_normally(client):
    game_id = start_deal(client, 3)
    ja = {"X-Pyramid-Language": "ja"}
    fragment = client.post(f"/games/{game_id}/undo", headers={**HX, **ja})
    assert fragment.status_code == 200 and "<html" not in fragment.text
    assert "data-refused" in fragment.text
    state = client.get(f"/api/games/{game_id}", headers=ja)
    assert state.status_code == 200 and state.json()["id"] == game_id
    page = client.get(f"/games/{game_id}", headers={"X-Pyramid-Language": "ja"})
    assert page.status_code == 200 and html_lang(page.text) == "ja"
    garbage = client.get(f"/api/games/{game_id}",
                         headers={"X-Pyramid-Language": "<script>" * 100})
    assert garbage.status_code == 200


# --- the manifest ------------------------------------------------------------------------------
def test_the_manifest_speaks_the_requests_language(client, marked):
    german = client.get("/manifest.webmanifest", headers=DE)
    assert german.status_code == 200 and german.json()["lang"] == "de"
    assert german.json()["name"] == MARK + "Pyramid Solitaire"
    assert german.json()["short_name"] == MARK + "Pyramid"
    assert german.json()["description"].startswith(MARK)
    vary = {part.strip().lower() for part in german.headers["vary"].split(",")}
    assert {"accept-language", "cookie"} <= vary
    english = client.get("/manifest.webmanifest").json()
    assert english["lang"] == "en" and english["short_name"] == "Pyramid"
    assert english["name"] == "Pyramid Solitaire" and english["dir"] == "ltr"


# --- imports -----------------------------------------------------------------------------------
def test_an_import_refused_in_the_worker_is_said_in_german(app, marked):
    with TestClient(app) as fresh:
        client = browser_like(fresh)
        english = import_file(client, b"not json")
        german = import_file(client, b"not json", headers=DE)
    assert english.status_code == german.status_code == 400
    assert "This is not a JSON file from \u201cDownload JSON\u201d." in english.text
    assert html_lang(german.text) == "de"
    assert MARK + "This file cannot be imported" in german.text
    assert MARK + "This is not a JSON file from \u201cDownload JSON\u201d." in german.text


@pytest.mark.parametrize(("done", "said"), [
    (gamesfile.ImportDone(refused="too_large", values={"megabytes": 8}),
     "The file is over 8 MB."),
    (gamesfile.ImportDone(refused="too_many", values={"count": 20_000}),
     "An import holds at most 20,000 games."),
    (gamesfile.ImportDone(refused="changed"),
     "This file was changed after it was exported (or comes from another server), so its "
     "games cannot be trusted."),
    (gamesfile.ImportDone(refused=gamesfile.STORE_REFUSAL,
                          values={"code": "import_wrong_end", "fields": {"game": "x1"}}),
     "Game 'x1' does not end as the file says."),
    (gamesfile.ImportDone(refused=gamesfile.STORE_REFUSAL, values={
        "code": "import_unreadable", "fields": {"game": "x2", "why": {
            "code": "unknown_passes", "fields": {"value": 9, "most": 3}}}}),
     "Game 'x2' cannot be read: passes must be a whole number from 1 to 3, not 9"),
])
def test_import_refusals_read_as_before_in_english(done, said):
    assert gamesfile.refusal(done) == said
    with i18n.speaking("de"):
        assert gamesfile.refusal(done)  # no catalog: English, and never an error


def test_the_worker_sends_back_keys_not_sentences():
    done = gamesfile.import_games("sqlite://", "player", "key", b"[" * 30_000)
    assert done.refused == "too_many" and done.values == {"count": 20_000}


# --- the engine's and the store's refusals -----------------------------------------------------
def refusals() -> list[tuple[Refusal, str]]:
    """Refusals a player meets in a form, an address or an import, with their English."""
    said = []
    for attempt in (lambda: Deal.parse_number("abc"), lambda: Deal.parse_number("9" * 64),
                    lambda: Deal.parse_number("x" * 70), lambda: Deal.parse_number(10**25),
                    lambda: Deal.parse_canonical_number("0123"),
                    lambda: Deal.parse_canonical_number("0" * 40),
                    lambda: Variant("standard", "7"), lambda: Variant("sideways", 3)):
        with pytest.raises((DealError, GameSetupError)) as refused:
            attempt()
        said.append((refused.value.refusal, str(refused.value)))
    return [*said,
            (Refusal(StoreCode.CHANGED_RELOAD),
             "This game was changed elsewhere: reload to see it."),
            (Refusal(StoreCode.CHANGED_RETRY), "This game was changed elsewhere: try again."),
            (Refusal(StoreCode.IMPORT_UNREADABLE, {"game": "abc", "why": Refusal(
                Code.UNKNOWN_PASSES, {"value": 9, "most": 3}).to_dict()}),
             "Game 'abc' cannot be read: passes must be a whole number from 1 to 3, not 9"),
            (Refusal(StoreCode.IMPORT_WRONG_END, {"game": "a'b"}),
             'Game "a\'b" does not end as the file says.')]


@pytest.mark.parametrize(("refusal", "english"), refusals())
def test_each_refusal_is_said_by_its_code_and_translated(refusal, english, marked):
    assert say(refusal) == english
    with i18n.speaking("de"):
        assert say(refusal).startswith(MARK)


def test_a_validators_refusal_is_said_by_its_code_and_pydantics_own_as_it_is(marked):
    with pytest.raises(DealError) as refused:
        Deal.parse_number("abc")
    problem = {"type": "value_error", "msg": "Value error, anything", "ctx": {
        "error": refused.value}}
    assert problem_sentence(problem) == "Value error, " + say(refused.value.refusal)
    with i18n.speaking("de"):
        assert problem_sentence(problem).startswith("Value error, " + MARK)
        assert problem_sentence({"type": "missing", "msg": "Field required"}) == (
            "Field required")
