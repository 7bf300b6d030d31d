"""Bad input and the unexpected: never a traceback, always a clear answer.

Non-finite JSON numbers, lax JSON types, unknown games with bad bodies, wrong methods,
a deal number thousands of digits long, non-canonical deal links, unforeseen errors, and the
offline API docs.
"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from .helpers import start_deal

JSON = {"content-type": "application/json"}


@pytest.mark.parametrize("body", [b'{"deal": 1e400}', b'{"deal": -1e400}', b'{"deal": NaN}',
                                  b'{"deal": Infinity}', b'{"passes": NaN}'])
def test_non_finite_numbers_are_a_clean_422(app, body):
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.post("/api/games", content=body, headers=JSON)
    assert response.status_code == 422, response.text
    detail = response.json()["errors"]
    assert detail and all(set(problem) == {"loc", "msg", "type"} for problem in detail)
    assert "Traceback" not in response.text and "input" not in response.text


@pytest.mark.parametrize("body", [b'{"op": NaN}', b'{"op": "remove", "cards": [NaN]}',
                                  b'{"op": "remove", "cards": [1e400, "KS"]}'])
def test_non_finite_numbers_in_a_move_are_a_clean_422(app, body):
    with TestClient(app, raise_server_exceptions=False) as client:
        game_id = client.post("/api/games", json={"deal": 3}).json()["id"]
        response = client.post(f"/api/games/{game_id}/moves", content=body, headers=JSON)
        assert response.status_code == 422, response.text
        assert response.json()["errors"][0]["loc"][0] == "body"
        assert client.get(f"/api/games/{game_id}").json()["moves"] == []


@pytest.mark.parametrize("body", [{"deal": True}, {"deal": "012"}, {"deal": 1.5},
                                  {"deal": 12.5}, {"passes": "3"}, {"passes": True},
                                  {"passes": 3.5}, {"goal": 1}, {"deal": [3]},
                                  {"deal": " 12"}, {"deal": "1" * 21}, {"deal": 2.0**60}])
def test_the_api_takes_json_integers_or_digits_only(client, body):
    response = client.post("/api/games", json=body)
    assert response.status_code == 422, body
    found = response.json()["errors"]
    field = next(iter(body))
    assert found and all(problem["loc"][:2] == ["body", field] for problem in found)
    assert all(problem["msg"] for problem in found)


def test_whole_numbers_written_with_a_point_are_integers_as_json_schema_says(client):
    """The OpenAPI schema says ``integer``, and JSON Schema counts 1251.0 as one: so does the
    API (schemathesis sends such numbers, and a valid request must not be refused)."""
    made = client.post("/api/games", json={"deal": 1251.0, "passes": 2.0})
    assert made.status_code == 201, made.text
    assert (made.json()["deal"], made.json()["passes"]) == (1251, 2)


def test_a_json_integer_deal_is_accepted_up_to_the_largest(client):
    for deal in (1, 12, 2**53 - 1, "12", "99999999999999999999"):
        response = client.post("/api/games", json={"deal": deal, "passes": 2})
        assert response.status_code == 201 and response.json()["deal"] == int(deal)
    message = client.post("/api/games", json={"deal": 2**53}).json()["errors"][0]["msg"]
    assert "9007199254740991" in message


def test_moves_on_an_unknown_game_are_404_whatever_the_body(client):
    for body in (b'{"op": "fly"}', b'{"op": NaN}', b"not json", b"", b'{"op": "draw"}'):
        response = client.post("/api/games/xyz/moves", content=body, headers=JSON)
        assert response.status_code == 404, body
        assert response.json() == {"detail": "no game 'xyz'", "errors": []}


def test_the_move_body_is_still_documented(client):
    schema = client.get("/openapi.json").json()
    body = schema["paths"]["/api/games/{game_id}/moves"]["post"]["requestBody"]
    assert body["required"] is True
    assert set(body["content"]["application/json"]["schema"]["properties"]) == {"op", "cards"}


def test_an_ended_game_lists_nothing_free_and_no_legal_move(client):
    # Deal 8 with one pass is lost once the stock is drawn out.
    game_id = client.post("/api/games", json={"deal": 8, "passes": 1}).json()["id"]
    for _ in range(24):
        state = client.post(f"/api/games/{game_id}/moves", json={"op": "draw"}).json()
    assert state["status"] == "lost"
    assert state["free"] == [] and state["legal_moves"] == []
    playing = client.post("/api/games", json={"deal": 8}).json()
    assert playing["free"] and playing["legal_moves"]
    abandoned = client.get(f"/api/games/{game_id}").json()
    assert abandoned["status"] == "lost" and abandoned["free"] == []


def _add_failing_routes(app) -> None:
    def boom() -> None:
        raise RuntimeError("secret internals")

    app.add_api_route("/boom", boom)
    app.add_api_route("/api/boom", boom)


def test_an_unexpected_error_is_a_friendly_500_page_or_json(app):
    _add_failing_routes(app)
    with TestClient(app, raise_server_exceptions=False) as client:
        page = client.get("/boom")
        assert page.status_code == 500
        assert "text/html" in page.headers["content-type"]
        assert 'class="panel error"' in page.text and "Something went wrong" in page.text
        api = client.get("/api/boom")
        assert api.status_code == 500 and "Internal server error" in api.json()["detail"]
        for response in (page, api):
            assert "secret internals" not in response.text and "Traceback" not in response.text


def test_wrong_methods_get_the_friendly_page_or_json(client):
    game_id = start_deal(client, 3)
    for url in (f"/games/{game_id}/play", f"/games/{game_id}/undo", f"/games/{game_id}/hint"):
        page = client.get(url)
        assert page.status_code == 405, url
        assert 'class="panel error"' in page.text and "Method Not Allowed" not in page.text
        assert "POST" in page.headers["allow"]
    api = client.get(f"/api/games/{game_id}/moves")
    assert api.status_code == 405 and api.json() == {"detail": "Method Not Allowed", "errors": []}


def test_the_games_index_redirects_home(client):
    for url in ("/games", "/games/"):
        response = client.get(url, follow_redirects=False)
        assert response.status_code == 303 and response.headers["location"] == "/", url


def test_a_five_thousand_digit_deal_is_a_normal_error(client):
    # ``client`` has loaded the home page: it holds a player cookie (and the form's token).
    for digits in (5000, 150):
        response = client.post("/games", data={"deal": "9" * digits, "goal": "standard",
                                               "passes": "3"})
        assert response.status_code == 400 and "text/html" in response.headers["content-type"]
        assert "9" * 201 not in response.text
    assert "not a deal number" in response.text


@pytest.mark.parametrize("path", ["1_000", "01", "%205", "5%20", "%EF%BC%95", "+5", "1,000",
                                  "1e3", "٥"])
def test_only_canonical_deal_links_start_a_deal(client, path):
    response = client.get(f"/deal/{path}", follow_redirects=False)
    assert response.status_code == 404, path
    assert 'class="panel error"' in response.text and "no leading zero, like 1000" in response.text
    assert client.get("/api/games/none").status_code == 404  # and no game was started
    assert "data-continue" not in client.get("/").text


def test_error_messages_start_with_a_capital_and_the_buttons_have_room(client):
    page = client.get("/deal/0").text
    message = re.search(r'data-error="404">\s*<h1>[^<]*</h1>\s*<p>([^<]+)</p>', page).group(1)
    assert message[0].isupper(), message
    assert '<p class="error-actions">' in page
    css = client.get("/static/css/pyramid.css").text
    assert re.search(r"\.error-actions \{[^}]*gap: 10px", css)


def test_api_docs_work_offline(client):
    docs = client.get("/docs")
    assert docs.status_code == 200
    urls = re.findall(r'(?:src|href)="([^"]+)"', docs.text)
    urls += re.findall(r"url: '([^']+)'", docs.text)
    assert len(urls) >= 4
    for url in urls:
        assert url.startswith("/") and not url.startswith("//"), url
        assert client.get(url).status_code == 200, url
    assert "cdn" not in docs.text.lower()
    assert client.get("/redoc").status_code == 404
