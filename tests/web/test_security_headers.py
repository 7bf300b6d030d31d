"""Security headers on every kind of answer (CSP, HSTS only over secure cookies, API docs
without inline script), and the hosts the app trusts: a foreign Host header is refused, and
BASE_URL's host is trusted and builds the absolute links."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings

from .conftest import add_test_routes

CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
       "img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
       "base-uri 'self'; form-action 'self'; object-src 'none'")
HSTS = "max-age=31536000; includeSubDomains"


def has_security_headers(response, *, hsts: bool = False) -> bool:
    headers = response.headers
    assert headers.get("content-security-policy") == CSP, response.request.url
    assert headers.get("x-content-type-options") == "nosniff"
    assert headers.get("x-frame-options") == "DENY"
    assert headers.get("referrer-policy") == "same-origin"
    assert headers.get("strict-transport-security") == (HSTS if hsts else None)
    return True


# --- security headers ----------------------------------------------------------------------
def test_every_kind_of_answer_carries_the_security_headers(hardened):
    with TestClient(hardened, raise_server_exceptions=False) as client:
        game_id = client.post("/api/games", json={"deal": 3}).json()["id"]
        answers = [
            client.get("/"),                                   # a page
            client.get(f"/api/games/{game_id}"),               # API JSON
            client.get("/api/games/nope"),                     # an API error
            client.get("/no-such-page"),                       # an error page
            client.get("/static/css/pyramid.css"),             # a static file
            client.get("/docs"),
            client.get("/boom"),                               # an unforeseen 500
            client.get("/healthz"),
            client.post("/api/games", content=b"x" * 70_000,   # refused by a middleware
                        headers={"content-type": "application/json"}),
            client.post("/games", headers={"Sec-Fetch-Site": "cross-site"}),
            client.get("/", headers={"Host": "evil.example"}),
        ]
    assert [r.status_code for r in answers] == [200, 200, 404, 404, 200, 200, 500, 200, 413,
                                                403, 400]
    assert all(has_security_headers(r) for r in answers)


def test_hsts_only_when_cookies_are_secure(sqlite_url):
    app = create_app(make_settings(sqlite_url, cookie_secure=True))
    with TestClient(app, base_url="https://testserver") as client:
        assert has_security_headers(client.get("/"), hsts=True)
        assert has_security_headers(client.get("/api/games/nope"), hsts=True)


def test_the_api_docs_need_no_inline_script(client):
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.text
    scripts = html.count("<script")
    assert scripts == html.count("<script src=") == 2, html
    assert '<script src="/static/js/swagger-init.js"></script>' in html
    assert "style=" not in html and "<style" not in html
    init = client.get("/static/js/swagger-init.js")
    assert init.status_code == 200 and "javascript" in init.headers["content-type"]
    assert "SwaggerUIBundle(" in init.text
    assert client.get("/openapi.json").status_code == 200


# --- allowed hosts (reading ALLOWED_HOSTS and BASE_URL: tests/test_settings.py) -------------
def test_a_foreign_host_is_refused_in_the_apps_own_shapes(client):
    api = client.get("/api/odds", headers={"Host": "evil.example"})
    assert api.status_code == 400 and api.json()["errors"] == []
    assert "host" in api.json()["detail"]
    page = client.get("/rules", headers={"Host": "evil.example:80"})
    assert page.status_code == 400 and "text/html" in page.headers["content-type"]
    assert client.get("/api/odds", headers={"Host": "bad host"}).status_code == 400
    # A health check comes by address: it is answered whatever the Host.
    assert client.get("/healthz", headers={"Host": "10.0.0.7:8000"}).status_code == 200


def test_a_foreign_host_is_refused_not_redirected(client):
    response = client.get("/stats/", headers={"Host": "evil.example"}, follow_redirects=False)
    assert response.status_code == 400
    assert "location" not in response.headers
    assert "set-cookie" not in response.headers
    assert client.get("/", headers={"Host": "localhost:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "[::1]:8000"}).status_code == 200


def test_base_url_host_is_trusted_and_builds_absolute_links(sqlite_url):
    app = create_app(make_settings(sqlite_url, base_url="https://pyramid.example"))
    add_test_routes(app)
    with TestClient(app) as client:
        assert client.get("/link").json()["url"] == "https://pyramid.example/deal/3?goal=standard"
        assert client.get("/", headers={"Host": "pyramid.example"}).status_code == 200


def test_absolute_links_without_base_url_use_the_request(hardened):
    with TestClient(hardened) as client:
        assert client.get("/link").json()["url"] == "http://testserver/deal/3?goal=standard"
        assert (client.get("/link", headers={"Host": "localhost:8000"}).json()["url"]
                == "http://localhost:8000/deal/3?goal=standard")
