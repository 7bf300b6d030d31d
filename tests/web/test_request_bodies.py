"""Request bodies: the API takes JSON only (415 otherwise), and a body past the size limit is
refused up front (413), whole, chunked or streamed, without reading more than the limit."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import anyio
import pytest


# --- JSON bodies on the API ------------------------------------------------------------------
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "application/jsonx", None])
def test_api_bodies_must_be_json(client, content_type):
    headers = {"content-type": content_type} if content_type else {}
    response = client.post("/api/games", content=b'{"deal": 3}', headers=headers)
    assert response.status_code == 415
    assert set(response.json()) <= {"detail", "errors"}


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x"])
def test_a_bodiless_api_post_declared_as_a_form_is_refused(client, content_type):
    """What another site's form sends, even empty: 415, and no hint is counted."""
    game_id = client.post("/api/games", json={"deal": 3}).json()["id"]
    response = client.post(f"/api/games/{game_id}/hint", content=b"",
                           headers={"content-type": content_type})
    assert response.status_code == 415 and response.json()["errors"] == []
    assert client.get(f"/api/games/{game_id}").json()["hints_used"] == 0


def test_json_with_a_charset_and_bodiless_posts_pass(client):
    created = client.post("/api/games", content=b'{"deal": 3}',
                          headers={"content-type": "Application/JSON; charset=utf-8"})
    assert created.status_code == 201
    game_id = created.json()["id"]
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
    assert client.post(f"/api/games/{game_id}/undo").status_code == 200


# --- body size -------------------------------------------------------------------------------
def test_a_large_body_is_refused_up_front(client):
    big = b"x" * 1_000_000
    api = client.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert api.status_code == 413 and set(api.json()) <= {"detail", "errors"}
    page = client.post("/games", content=big,
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert page.status_code == 413 and "text/html" in page.headers["content-type"]


@pytest.mark.parametrize(("path", "content_type"), [
    ("/api/games", "application/json"), ("/games", "application/x-www-form-urlencoded")])
def test_a_chunked_body_is_refused_past_the_limit(client, path, content_type):
    def chunks():
        for _ in range(1024):
            yield b"1" * 1024

    response = client.post(path, content=chunks(), headers={"content-type": content_type})
    assert response.status_code == 413
    if path.startswith("/api/"):
        assert set(response.json()) <= {"detail", "errors"}
    else:
        assert "text/html" in response.headers["content-type"]


@pytest.mark.parametrize(("path", "content_type"), [
    ("/api/games", "application/json"), ("/games", "application/x-www-form-urlencoded")])
def test_a_streamed_body_is_read_only_up_to_the_limit(hardened, path, content_type):
    """Straight through ASGI, because TestClient hands the app a whole body at once."""
    asked = 0

    async def receive():
        nonlocal asked
        asked += 1
        return {"type": "http.request", "body": b"1" * 1024, "more_body": asked < 1024}

    sent = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
             "root_path": "", "query_string": b"", "client": ("127.0.0.1", 50000),
             "server": ("testserver", 80), "state": {},
             "headers": [(b"host", b"testserver"), (b"content-type", content_type.encode()),
                         (b"transfer-encoding", b"chunked")]}
    # On a thread of its own: the browser tests' Playwright keeps an event loop running in
    # this one for the whole session.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(anyio.run, hardened, scope, receive, send).result()
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 413
    assert asked == 65  # 65 KiB is the first count past 64 KiB: nothing more was read
