"""The language choice on the Settings page: one option per language, each named in its own
language; a player who never chose follows their browser (and the list says which language
that is); a choice, once made, beats what the browser asks; a value we don't have is the
browser's, never an error; and the page after saving speaks the language just chosen.

These tests read ``<html lang>`` and the selected option rather than the words (a translation
may be reworded without breaking them); a link between players is checked in the receiver's
words."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from app.engine import Deal, Game
from app.engine.solver import solve
from app.web.core.i18n import LANGUAGES, speaking
from app.web.core.numbers import format_number

from .test_preferences import FULL_FORM, html_tag

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
JAPANESE = {"Accept-Language": "ja"}
SPANISH = {"Accept-Language": "es-ES"}


def language_select(page: str) -> str:
    found = re.search(r'<select\b[^>]*\bname="language"[^>]*>(.*?)</select>', page, re.S)
    assert found, "no language list"
    return found.group(0)


def options(page: str) -> list[dict[str, str]]:
    """The language list's options: value, lang, text and whether it is selected."""
    found = []
    for attributes, text in re.findall(r"<option\b([^>]*)>([^<]*)</option>",
                                       language_select(page)):
        option = dict(re.findall(r'([\w-]+)="([^"]*)"', attributes))
        option["text"] = text.strip()
        option["selected"] = "yes" if re.search(r"\bselected\b", attributes) else "no"
        found.append(option)
    return found


def selected(page: str) -> str:
    chosen = [option["value"] for option in options(page) if option["selected"] == "yes"]
    assert len(chosen) == 1, chosen
    return chosen[0]


def choose(client, language: str, headers: dict[str, str] | None = None, **changes):
    """Post the Settings form with ``language`` (and the other fields as they come)."""
    return client.post("/settings", data={**FULL_FORM, "language": language, **changes},
                       headers=headers or {}, follow_redirects=False)


def speaks(client, headers: dict[str, str], path: str = "/settings") -> tuple[str, str]:
    """The language a page is drawn in, and (on the Settings page) the one selected."""
    page = client.get(path, headers=headers)
    assert page.status_code == 200
    return html_tag(page.text)["lang"], selected(page.text) if path == "/settings" else ""


# --- the list -----------------------------------------------------------------------------
def test_the_list_offers_each_language_once_in_its_own_words(client):
    page = client.get("/settings").text
    found = options(page)
    assert [option["value"] for option in found] == ["en", "de", "fr", "es", "ja", "ru"]
    assert [option["value"] for option in found] == list(LANGUAGES)
    for option in found:
        assert option["lang"] == option["value"]  # a screen reader says each name as its own
        assert option["text"] == LANGUAGES[option["value"]].name
    assert [option["text"] for option in found] == ["English", "Deutsch", "Français", "Español",
                                                    "日本語", "Русский"]


def test_the_list_is_labelled_and_first_in_the_form(client):
    page = client.get("/settings").text
    select = language_select(page)
    select_id = re.search(r'\bid="([^"]+)"', select).group(1)
    assert re.search(rf'<label for="{select_id}">\s*Language\s*</label>', page)
    form = page.split('<form method="post" action="/settings"', 1)[1].split("</form>", 1)[0]
    fields = re.findall(r'<(?:input|select)\b[^>]*\bname="([\w-]+)"', form)
    assert fields[:2] == ["csrf_token", "language"], fields


def test_a_new_player_sees_english_selected_without_an_accept_language(client):
    assert speaks(client, {}) == ("en", "en")


# --- following the browser ------------------------------------------------------------------
def test_a_player_who_never_chose_follows_their_browser(client):
    assert speaks(client, GERMAN) == ("de", "de")
    assert speaks(client, JAPANESE) == ("ja", "ja")
    assert speaks(client, GERMAN, "/")[0] == "de"


def test_saving_the_browsers_own_language_keeps_following_the_browser(client):
    answer = choose(client, "de", GERMAN)
    assert answer.status_code == 303 and answer.headers["location"] == "/settings?saved=1"
    assert speaks(client, GERMAN) == ("de", "de")
    # Not a choice: the browser asks for another language now, and the page follows.
    assert speaks(client, JAPANESE) == ("ja", "ja")
    assert speaks(client, {}) == ("en", "en")


def test_saving_other_settings_as_the_page_came_is_not_a_language_choice(client):
    page = client.get("/settings", headers=SPANISH).text
    assert choose(client, selected(page), SPANISH, theme="dark").status_code == 303
    assert speaks(client, JAPANESE) == ("ja", "ja")
    assert html_tag(client.get("/", headers=JAPANESE).text)["data-theme"] == "dark"


# --- choosing ---------------------------------------------------------------------------------
def test_a_chosen_language_beats_the_browsers(client):
    answer = choose(client, "fr", GERMAN)
    assert answer.status_code == 303
    redirected = client.get(answer.headers["location"], headers=GERMAN)
    assert html_tag(redirected.text)["lang"] == "fr" and selected(redirected.text) == "fr"
    assert speaks(client, GERMAN) == ("fr", "fr")
    for path in ("/", "/rules", "/stats", "/no-such-page"):
        assert html_tag(client.get(path, headers=GERMAN).text)["lang"] == "fr", path


def test_the_page_after_saving_speaks_the_new_language(client):
    """As a browser posts a form (a navigation), the redirect followed."""
    navigation = {**GERMAN, "Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate",
                  "Sec-Fetch-Site": "same-origin"}
    page = client.post("/settings", data={**FULL_FORM, "language": "ru"}, headers=navigation)
    assert page.status_code == 200 and "data-saved" in page.text
    assert html_tag(page.text)["lang"] == "ru" and selected(page.text) == "ru"
    page = client.post("/settings", data={**FULL_FORM, "language": "de"}, headers=navigation)
    assert html_tag(page.text)["lang"] == "de" and selected(page.text) == "de"


def test_a_chosen_language_stays_a_choice_when_the_browser_asks_for_it_too(client):
    choose(client, "fr", GERMAN)
    choose(client, "de", GERMAN)  # chosen before: a choice, not the browser's
    assert speaks(client, JAPANESE) == ("de", "de")


def test_another_players_choice_is_not_mine(client, other_client):
    choose(other_client, "ja", GERMAN)
    assert speaks(client, GERMAN) == ("de", "de")
    assert speaks(other_client, GERMAN) == ("ja", "ja")


def test_a_refused_form_is_drawn_in_the_players_language(client):
    """A script-less post of a value not offered: nothing saved, the page as before."""
    choose(client, "fr", GERMAN)
    answer = choose(client, "es", GERMAN, theme="neon")
    assert answer.status_code == 400 and "data-settings-errors" in answer.text
    assert html_tag(answer.text)["lang"] == "fr"
    assert selected(answer.text) == "es"  # the form as sent
    assert speaks(client, GERMAN) == ("fr", "fr")  # nothing saved


# --- what we don't have -------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["xx-garbage", "x" * 10240, "", "EN", "de-DE", "<script>",
                                   "*"])
def test_a_language_we_dont_have_is_the_browsers_never_an_error(client, value):
    answer = choose(client, value, SPANISH)
    assert answer.status_code == 303 and answer.headers["location"] == "/settings?saved=1"
    page = client.get(answer.headers["location"], headers=SPANISH)
    assert page.status_code == 200 and "data-saved" in page.text
    assert "data-settings-errors" not in page.text
    assert "xx-garbage" not in page.text and "x" * 40 not in page.text  # never echoed
    assert html_tag(page.text)["lang"] == "es" and selected(page.text) == "es"
    assert speaks(client, JAPANESE) == ("ja", "ja")  # still following the browser


def test_a_language_we_dont_have_undoes_a_choice(client):
    choose(client, "fr", GERMAN)
    assert choose(client, "xx-garbage", GERMAN).status_code == 303
    assert speaks(client, GERMAN) == ("de", "de")
    assert speaks(client, SPANISH) == ("es", "es")


# --- links between players ----------------------------------------------------------------
def test_a_challenge_sent_in_german_opens_in_the_receivers_french(client, other_client, human_pace):
    """A link carries the deal and the result to beat, never a language: the receiver reads
    it in theirs, with the sender's figures written their way."""
    from .test_results import DEAL, challenge_link, win_deal

    line = list(solve(Game(Deal.from_number(DEAL), "standard", 3)).moves)
    client.post("/settings", data={**FULL_FORM, "language": "de"})
    sent = win_deal(client, line)
    link = challenge_link(client, sent)
    assert "lang" not in link and "/de/" not in link
    parts = urlsplit(link)
    page = other_client.get(f"{parts.path}?{parts.query}", headers={"Accept-Language": "fr-FR"})
    assert page.status_code == 200
    assert html_tag(page.text)["lang"] == "fr"
    said = re.search(r"data-challenge-from>(.*?)</p>", page.text, re.S).group(1)
    with speaking("fr"):
        score = format_number(1865)
    assert "Un ami a gagné cette donne" in said and f"(score {score})" in said, said
    assert "\u202f" in score   # 1 865, not 1,865 nor 1.865
