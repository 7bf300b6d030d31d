"""The Settings page and the player's preferences: saved per player, refused when not offered
(with the page back, nothing lost), drawn on every page's <html> from the first byte, changed
from the board (sound, the first-game tips), and never another player's."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.web.core.preferences import OPTIONS, Preferences, Refused
from tests.store.store_helpers import add_daily

from .helpers import HX, start_deal
from .test_stats_pages import player_id

FULL_FORM = {"theme": "light", "felt": "green", "back": "lattice", "motion": "auto",
             "sound": "on", "key_hints": "on"}
"""The form as the page sends it with the defaults chosen (unticked boxes send nothing)."""


def html_tag(page: str) -> dict[str, str]:
    """The attributes of the page's <html> tag."""
    tag = re.search(r"<html\b([^>]*)>", page)
    assert tag, "no <html> tag"
    return dict(re.findall(r'([\w-]+)="([^"]*)"', tag.group(1)))


def save(client, **changes):
    """Post the Settings form with ``changes`` (None: a box left unticked)."""
    data = {key: value for key, value in {**FULL_FORM, **changes}.items() if value is not None}
    return client.post("/settings", data=data, follow_redirects=False)


def checked(page: str, name: str) -> str | None:
    found = re.search(rf'name="{name}" value="([^"]+)"[^>]* checked', page)
    return found.group(1) if found else None


# --- the model --------------------------------------------------------------------------------
def test_every_option_is_a_field_of_the_preferences():
    assert set(OPTIONS) == set(Preferences.__dataclass_fields__)


def test_stored_preferences_drop_unknown_keys_and_values_no_longer_offered():
    read = Preferences.from_stored({"theme": "dark", "felt": "tartan", "sound": "yes",
                                    "colour": "red", "large_cards": True})
    assert read == Preferences(theme="dark", large_cards=True)


def test_only_choices_that_differ_from_the_defaults_are_stored():
    assert Preferences().to_store() == {}
    assert Preferences(theme="dark", sound=False).to_store() == {"theme": "dark", "sound": False}


def test_a_form_refuses_every_value_not_offered_and_keeps_the_rest():
    with pytest.raises(Refused) as refused:
        Preferences().changed({"theme": "neon", "felt": "blue", "sound": "maybe"})
    assert set(refused.value.errors) == {"theme", "sound"}
    assert refused.value.errors["theme"] == "Theme: choose Light, Dark or High contrast."
    assert refused.value.kept.felt == "blue" and refused.value.kept.theme == "light"


# --- the page ---------------------------------------------------------------------------------
def test_the_preferences_page_answers_with_a_form(client):
    page = client.get("/settings")
    assert page.status_code == 200
    assert page.headers["cache-control"] == "no-store"
    assert re.search(r'<form method="post" action="/settings"', page.text)
    assert 'name="csrf_token"' in page.text
    for name in ("theme", "felt", "back", "motion", "large_cards", "left_handed", "key_hints",
                 "sound"):
        assert f'name="{name}"' in page.text, name
    assert checked(page.text, "theme") == "light"
    assert 'href="/settings"' in client.get("/").text  # in every page's navigation


def test_saving_round_trips_and_every_page_is_drawn_with_it(client):
    answer = save(client, theme="dark", felt="teal", back="pyramid", motion="none",
                  large_cards="on", left_handed="on", sound=None, key_hints=None)
    assert answer.status_code == 303 and answer.headers["location"] == "/settings?saved=1"
    page = client.get(answer.headers["location"]).text
    assert "Settings saved." in page
    assert checked(page, "theme") == "dark" and checked(page, "back") == "pyramid"
    assert checked(page, "large_cards") == "on" and checked(page, "sound") is None
    game_id = start_deal(client)
    for path in ("/", "/stats", "/rules", f"/games/{game_id}", "/no-such-page"):
        attributes = html_tag(client.get(path).text)
        assert attributes["lang"] == "en"
        assert {key: attributes[key] for key in ("data-theme", "data-felt", "data-back",
                                                 "data-cards", "data-motion", "data-sound",
                                                 "data-hand", "data-keys")} == {
            "data-theme": "dark", "data-felt": "teal", "data-back": "pyramid",
            "data-cards": "large", "data-motion": "none", "data-sound": "off",
            "data-hand": "left", "data-keys": "hidden"}, path
        assert '<meta name="color-scheme" content="dark">' in client.get(path).text


def test_a_new_player_gets_the_defaults_and_no_row(client, app):
    attributes = html_tag(client.get("/").text)
    assert attributes["data-theme"] == "light" and attributes["data-sound"] == "on"
    assert attributes["data-motion"] == "auto" and attributes["data-tips"] == "shown"
    from app.store import Database
    from app.store.models import Player

    database = Database(app.state.settings.database_url)
    with database.session() as session:
        assert session.get(Player, player_id(client, app)) is None
    database.dispose()


@pytest.mark.parametrize(("field", "value", "message"), [
    ("theme", "neon", "Theme: choose Light, Dark or High contrast."),
    ("felt", "tartan" * 20, "Felt: choose Green, Blue, Burgundy, Teal or Charcoal."),
    ("motion", "", "Animations: choose As my device asks, Full, Reduced or None."),
    ("sound", "loud", "Sound: choose on or off."),
])
def test_a_value_not_offered_is_refused_clearly_and_nothing_is_lost(client, field, value,
                                                                    message):
    save(client, theme="dark")
    answer = save(client, **{"felt": "blue", "back": "rosette", "left_handed": "on", field: value})
    assert answer.status_code == 400
    assert message in answer.text and "Nothing was saved" in answer.text
    assert f'id="error-{field}"' in answer.text
    assert ("tartan" * 20) not in answer.text  # never echoed whole
    # The other fields are shown as sent, the refused one as it was; nothing is saved.
    if field != "felt":
        assert checked(answer.text, "felt") == "blue"
    assert checked(answer.text, "back") == "rosette"
    assert checked(answer.text, "left_handed") == "on"
    if field == "theme":
        assert checked(answer.text, "theme") == "dark"
    saved = client.get("/settings").text
    assert checked(saved, "felt") == "green" and checked(saved, "theme") == "dark"


def test_fields_that_are_not_preferences_are_ignored(client):
    assert save(client, colour="red", tips_done="on").status_code == 303
    assert html_tag(client.get("/").text).get("data-tips") == "shown"  # not dismissed that way


def test_another_players_preferences_are_untouched(client, other_client):
    save(other_client, theme="contrast", sound=None)
    save(client, theme="dark")
    client.post("/settings/sound", data={"sound": "off"})
    client.post("/settings/tips")
    assert html_tag(client.get("/").text)["data-theme"] == "dark"
    theirs = html_tag(other_client.get("/").text)
    assert theirs["data-theme"] == "contrast" and theirs["data-sound"] == "off"
    assert theirs["data-tips"] == "shown"


# --- forms from other sites --------------------------------------------------------------------
def test_a_post_without_the_token_is_refused(client):
    del client.headers["X-CSRF-Token"]
    for path, data in (("/settings", {**FULL_FORM, "theme": "dark"}),
                       ("/settings/sound", {"sound": "off"}), ("/settings/tips", {})):
        refused = client.post(path, data=data)
        assert refused.status_code == 403 and "This page has expired" in refused.text, path
    assert html_tag(client.get("/").text)["data-theme"] == "light"


@pytest.mark.parametrize("headers", [{"Sec-Fetch-Site": "cross-site"},
                                     {"Origin": "http://evil.example"}])
def test_a_cross_site_post_is_refused_even_with_the_token(client, headers):
    refused = client.post("/settings", data={**FULL_FORM, "theme": "dark"}, headers=headers)
    assert refused.status_code == 403
    assert html_tag(client.get("/").text)["data-theme"] == "light"


# --- sound and tips, from the board ------------------------------------------------------------
def test_the_sound_button_saves_and_goes_back_to_the_board(client):
    game_id = start_deal(client)
    board = client.get(f"/games/{game_id}").text
    # Both buttons, whatever the preference: the stylesheet shows the one <html> calls for.
    assert 'data-sound-toggle="off"' in board and 'data-sound-toggle="on"' in board
    assert html_tag(board)["data-sound"] == "on"
    answer = client.post("/settings/sound", data={"sound": "off", "next": f"/games/{game_id}"},
                         follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == f"/games/{game_id}"
    board = client.get(f"/games/{game_id}").text
    assert html_tag(board)["data-sound"] == "off"
    # The board's script gets a bare 204; a wrong value is refused.
    assert client.post("/settings/sound", data={"sound": "on"}, headers=HX).status_code == 204
    assert html_tag(client.get("/").text)["data-sound"] == "on"
    assert client.post("/settings/sound", data={"sound": "loud"}).status_code == 400


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example", "/\\evil",
                                    "games", ""])
def test_going_back_never_leaves_the_site(client, target):
    answer = client.post("/settings/sound", data={"sound": "off", "next": target},
                         follow_redirects=False)
    assert answer.headers["location"] == "/settings"


def test_a_first_game_shows_the_tips_until_they_are_dismissed(client):
    game_id = start_deal(client)
    board = client.get(f"/games/{game_id}").text
    assert html_tag(board)["data-tips"] == "shown"
    assert all(f'data-tip="{tip}"' in board for tip in ("pairs", "kings", "stock"))
    assert f'name="next" value="/games/{game_id}"' in board  # the ✕ without JavaScript
    answer = client.post("/settings/tips", data={"next": f"/games/{game_id}"},
                         follow_redirects=False)
    assert answer.headers["location"] == f"/games/{game_id}"
    # The markup stays (a board is the same markup however it is drawn), hidden by <html>.
    board = client.get(f"/games/{game_id}").text
    assert "data-tips" not in html_tag(board) and 'data-tip="pairs"' in board
    # Dismissed is not a form choice: saving the Settings page keeps it.
    save(client, theme="dark")
    assert "data-tips" not in html_tag(client.get(f"/games/{game_id}").text)


def test_the_tips_are_gone_once_a_game_has_ended(client, app):
    client.get("/")
    from app.store import Database

    database = Database(app.state.settings.database_url)
    with database.session() as session:
        add_daily(session, player_id(client, app), None, "lost")
    database.dispose()
    game_id = start_deal(client)
    assert "data-tips" not in html_tag(client.get(f"/games/{game_id}").text)


def test_the_tips_are_for_the_player_not_for_someone_watching(client, other_client):
    game_id = start_deal(client)
    watched = other_client.get(f"/games/{game_id}").text
    assert 'data-tip="pairs"' not in watched and "data-sound-form" not in watched


# --- read once per page, and never in the way --------------------------------------------------
def test_preferences_are_read_once_per_page_and_never_for_anything_else(client, app,
                                                                        monkeypatch):
    from app.web.views import firstpaint

    reads: list[str] = []
    real = firstpaint.page_facts

    def counted(session, player):
        reads.append(player)
        return real(session, player)

    monkeypatch.setattr(firstpaint, "page_facts", counted)
    client.get("/rules")
    assert reads == [player_id(client, app)]
    for path, headers in (("/rules", HX), ("/api/odds", {}), ("/static/css/themes.css", {}),
                          ("/healthz", {})):
        client.get(path, headers=headers)
    client.post("/settings/sound", data={"sound": "off"}, follow_redirects=False)
    assert len(reads) == 1  # fragments, the API, files and writes never ask
    with TestClient(app) as stranger:  # no cookie yet: a new player, nothing to read
        assert html_tag(stranger.get("/rules").text)["data-tips"] == "shown"
    assert len(reads) == 1


def test_a_page_is_drawn_with_the_defaults_when_the_preferences_cannot_be_read(client,
                                                                               monkeypatch):
    from sqlalchemy.exc import OperationalError

    from app.web.views import firstpaint

    save(client, theme="dark")

    def broken(_session, _player):
        raise OperationalError("SELECT", {}, Exception("server closed the connection"))

    monkeypatch.setattr(firstpaint, "page_facts", broken)
    page = client.get("/rules")
    assert page.status_code == 200 and html_tag(page.text)["data-theme"] == "light"
