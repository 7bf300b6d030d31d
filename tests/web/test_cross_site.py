"""Cross-site requests and the player cookie: a write from another site (or origin) is refused
before it can hand out a cookie; same-origin writes and cross-site reads pass; with BASE_URL
the origin must be BASE_URL; a cookie comes with a page or a created game, never with a refusal
or another POST."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings


# --- cross-site requests ---------------------------------------------------------------------
@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "http://evil.example"},
    {"Origin": "http://testserver:8001"},
    {"Origin": "https://testserver"},
    {"Origin": "null"},
])
def test_cross_site_writes_are_refused_without_a_cookie(fresh, headers):
    page = fresh.post("/games", data={"deal": "3"}, headers=headers, follow_redirects=False)
    assert page.status_code == 403 and "text/html" in page.headers["content-type"]
    assert "set-cookie" not in page.headers
    api = fresh.post("/api/games", json={"deal": 3}, headers=headers)
    assert api.status_code == 403 and api.json()["errors"] == []  # the one Problem shape
    assert "set-cookie" not in api.headers


def test_same_origin_writes_and_cross_site_reads_pass(client):
    same = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/games", json={"deal": 3}, headers=same).status_code == 201
    # A share link followed from another site is a plain GET, and works.
    response = client.get("/deal/3", headers={"Sec-Fetch-Site": "cross-site"},
                          follow_redirects=False)
    assert response.status_code == 303


def test_with_base_url_the_origin_must_be_base_url(sqlite_url):
    app = create_app(make_settings(sqlite_url, base_url="https://pyramid.example"))
    with TestClient(app) as client:
        ok = client.post("/api/games", json={"deal": 3},
                         headers={"Origin": "https://pyramid.example"})
        assert ok.status_code == 201
        refused = client.post("/api/games", json={"deal": 3},
                              headers={"Origin": "http://testserver"})
        assert refused.status_code == 403


# --- the player cookie -----------------------------------------------------------------------
def test_no_new_cookie_in_answer_to_a_post(fresh):
    response = fresh.post("/games", data={"deal": "3"}, follow_redirects=False)
    assert "set-cookie" not in response.headers
    succeeded = fresh.post("/echo")
    assert succeeded.status_code == 200 and "set-cookie" not in succeeded.headers
    assert "set-cookie" in fresh.get("/").headers  # a page still hands one out


def test_the_json_api_hands_out_a_cookie_on_a_created_game_only(hardened):
    with TestClient(hardened) as first, TestClient(hardened) as second:
        refused = first.post("/api/games", json={"deal": 0})
        assert refused.status_code == 422 and "set-cookie" not in refused.headers
        created = second.post("/api/games", json={"deal": 3})
        assert created.status_code == 201 and "set-cookie" in created.headers
        game_id = created.json()["id"]
        assert second.post(f"/api/games/{game_id}/moves", json={"op": "draw"}).status_code == 200
        stranger = first.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
        assert stranger.status_code == 403 and "set-cookie" not in stranger.headers
