"""Personal pages are sent with ``Cache-Control: no-store`` (/stats was the
one that was not), and the service worker keeps none of them; the home page it keeps names
nobody's game (tests/e2e/test_offline.py has the browser's side)."""

from __future__ import annotations

import re

import pytest

PERSONAL = ["/", "/stats", "/stats/reset", "/daily/calendar", "/settings", "/daily"]


@pytest.mark.parametrize("path", PERSONAL)
def test_personal_pages_are_never_stored(client, path):
    client.post("/stats/name", data={"name": "Alice"})
    answer = client.get(path)
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "no-store"


def test_the_worker_keeps_no_personal_page(client):
    script = client.get("/sw.js").text
    kept = re.search(r"const KEPT_PAGES = (\[[^\]]*\])", script).group(1)
    assert "/stats" not in kept and "/daily/calendar" not in kept
    assert '"/"' in kept  # the home page, drawn for nobody in particular


def test_the_home_page_the_worker_keeps_names_no_game(client):
    game_id = client.post("/api/games", json={"deal": 5}).json()["id"]
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
    assert "data-continue" in client.get("/").text
    kept = client.get("/", headers={"X-Pyramid-Kept": "1"}).text
    assert "data-continue" not in kept and game_id not in kept
