"""Statistics on every device: a private link moves a player's identity to another
browser, and is refused once revoked; nobody else can revoke it or learn whose it is; an
export imports back only unedited, and only once."""

from __future__ import annotations

import json
import re

from app.engine import Deal, Game
from app.engine.solver import solve

from .conftest import browser_like
from .helpers import import_file, play_at_once


def make_link(client) -> str:
    page = client.post("/stats/devices")
    assert page.status_code == 200 and "no-store" in page.headers["cache-control"]
    return re.search(r'<a href="([^"]+)" data-device-link', page.text).group(1)


def won_game(client, number: int = 5) -> str:
    game_id = client.post("/api/games", json={"deal": number}).json()["id"]
    play_at_once(client, game_id, solve(Game(Deal.from_number(number), "standard", 3)).moves)
    return game_id


def test_a_link_takes_the_player_to_another_browser(client, app):
    from fastapi.testclient import TestClient

    client.post("/stats/name", data={"name": "Alice"})
    game_id = won_game(client)
    link = make_link(client)
    path = re.sub(r"^https?://[^/]+", "", link)
    with TestClient(app) as phone:
        browser_like(phone)
        assert "Alice" not in phone.get("/stats").text
        ask = phone.get(path)
        assert ask.status_code == 200 and "Alice" in ask.text
        assert "data-action=\"use-link\"" in ask.text
        # Looking changed nothing: still a stranger.
        assert "Alice" not in phone.get("/stats").text
        moved = phone.post(path, follow_redirects=False)
        assert moved.status_code == 303
        stats = phone.get("/stats").text
        assert "Alice" in stats and f'data-game="{game_id}"' in stats
        # The phone now owns the game: it can play it again (with the page's new form token).
        browser_like(phone)
        assert phone.post(f"/games/{game_id}/restart", data={"confirm": "1"},
                          follow_redirects=False).status_code == 303


def test_a_revoked_link_is_refused_and_only_its_owner_can_revoke(client, other_client, app):
    from fastapi.testclient import TestClient

    link = make_link(client)
    path = re.sub(r"^https?://[^/]+", "", link)
    key = re.search(r'data-device-link-key="(\w+)"', client.get("/stats").text).group(1)
    # Someone else cannot revoke it, even knowing its key.
    assert other_client.post(f"/stats/devices/{key}/revoke").status_code == 404
    assert client.post(f"/stats/devices/{key}/revoke", follow_redirects=False).status_code == 303
    assert f'data-device-link-key="{key}"' not in client.get("/stats").text
    with TestClient(app) as phone:
        browser_like(phone)
        assert phone.get(path).status_code == 410
        refused = phone.post(path)
        assert refused.status_code == 410 and "revoked" in refused.text
    assert other_client.get("/link/not-a-real-secret").status_code == 404
    assert other_client.get("/link/" + "x" * 500).status_code == 404


def test_making_a_link_from_another_site_is_refused(client):
    del client.headers["X-CSRF-Token"]
    assert client.post("/stats/devices",
                       headers={"Origin": "https://evil.example"}).status_code == 403


def test_an_export_imports_into_its_own_player_once_and_not_edited(client, other_client, app):
    won_game(client, 5)
    lost_id = client.post("/api/games", json={"deal": 1, "passes": 1}).json()["id"]
    game = Game(Deal.from_number(1), "standard", 1)
    while not game.is_over():
        move = game.legal_moves[0]
        game.play(move)
        client.post(f"/api/games/{lost_id}/moves", json=move.to_dict())
    exported = client.get("/stats/export.json")
    data = exported.json()
    assert len(data["games"]) == 2 and len(data["signature"]) == 64

    def send(payload: bytes, who=client):
        return import_file(who, payload)

    # Another player's is refused (a device link is the way to move statistics).
    refused = send(exported.content, other_client)
    assert refused.status_code == 400 and "the player who made it" in refused.text
    # Its own player's, once its games are lost, brings them back once.
    from sqlalchemy import delete

    from app.store.models import GameRecord
    with app.state.db.session() as session:
        session.execute(delete(GameRecord))
    done = send(exported.content)
    assert done.status_code == 303 and "imported=2" in done.headers["location"]
    html = client.get("/stats").text
    assert re.search(r'data-figure="played">\s*2\s*<', html)
    again = send(exported.content)
    assert again.status_code == 400 and "imported already" in again.text
    # An edited file is refused whole: the loss turned into a win.
    data["games"][1]["result"] = "won"
    edited = send(json.dumps(data).encode())
    assert edited.status_code == 400 and "changed after it was exported" in edited.text
    assert send(b"not json").status_code == 400
    assert send(json.dumps({"games": []}).encode()).status_code == 400


# --- a link signs a browser into a session its owner can end -------------------------------
def link_path(client) -> str:
    return re.sub(r"^https?://[^/]+", "", make_link(client))


def linked_browser(app, path: str):
    """A new browser that has used the link at ``path``."""
    from fastapi.testclient import TestClient

    phone = TestClient(app)
    phone.__enter__()
    browser_like(phone)
    assert phone.post(path, follow_redirects=False).status_code == 303
    browser_like(phone)  # the page's new form token, for its new identity
    return phone


def test_a_link_works_once(client, app):
    from fastapi.testclient import TestClient

    client.post("/stats/name", data={"name": "Alice"})
    path = link_path(client)
    phone = linked_browser(app, path)
    assert "Alice" in phone.get("/stats").text
    with TestClient(app) as thief:
        browser_like(thief)
        asked = thief.get(path)
        assert asked.status_code == 410 and "already used" in asked.text
        refused = thief.post(path, follow_redirects=False)
        assert refused.status_code == 410 and "already used" in refused.text
        assert "Alice" not in thief.get("/stats").text
    phone.__exit__(None, None, None)


def test_a_link_expires_after_a_quarter_of_an_hour(client, app):
    from datetime import timedelta

    from fastapi.testclient import TestClient

    from app.store.models import DeviceLink

    path = link_path(client)
    with app.state.db.sessions() as session:
        for row in session.query(DeviceLink):
            row.created_at = row.created_at - timedelta(minutes=16)
        session.commit()
    with TestClient(app) as phone:
        browser_like(phone)
        asked = phone.get(path)
        assert asked.status_code == 410 and "expired" in asked.text
        assert phone.post(path).status_code == 410


def test_each_linked_browser_is_listed_and_revoked_at_once(client, app):
    client.post("/stats/name", data={"name": "Alice"})
    game_id = won_game(client)
    phone = linked_browser(app, link_path(client))
    laptop = linked_browser(app, link_path(client))
    for browser in (phone, laptop):
        assert "Alice" in browser.get("/stats").text
    page = client.get("/stats").text
    keys = re.findall(r'data-device-session-key="([\w-]+)"', page)
    assert len(keys) == 2
    # Only the owner's player can end a session.
    with_key = client.post(f"/stats/devices/sessions/{keys[0]}/revoke", follow_redirects=False)
    assert with_key.status_code == 303
    # At once: whichever browser it was, one of the two is now a stranger, the other still Alice.
    seen = [("Alice" in browser.get("/stats").text) for browser in (phone, laptop)]
    assert sorted(seen) == [False, True]
    gone = (phone, laptop)[seen.index(False)]
    stranger = gone.get("/stats").text
    assert f'data-game="{game_id}"' not in stranger
    browser_like(gone)
    assert gone.post(f"/games/{game_id}/restart", data={"confirm": "1"},
                     follow_redirects=False).status_code in (403, 404)
    # It cannot make a fresh link to the owner's player either: any link it makes is its own.
    assert "Alice" not in gone.get(link_path(gone)).text
    # The owner's own browser is unaffected, and lists only the live session now.
    page = client.get("/stats").text
    assert "Alice" in page and f'data-game="{game_id}"' in page
    assert re.findall(r'data-device-session-key="([\w-]+)"', page) == [keys[1]]
    for browser in (phone, laptop):
        browser.__exit__(None, None, None)


def test_a_signed_out_browser_cannot_sign_out_the_owners_others(client, app):
    client.post("/stats/name", data={"name": "Alice"})
    path = link_path(client)
    phone = linked_browser(app, path)
    page = client.get("/stats").text
    (key,) = re.findall(r'data-device-session-key="([\w-]+)"', page)
    assert client.post(f"/stats/devices/sessions/{key}/revoke",
                       follow_redirects=False).status_code == 303
    assert "Alice" not in phone.get("/stats").text
    # Another player cannot end the owner's sessions, knowing the key.
    phone2 = linked_browser(app, link_path(client))
    (key2,) = re.findall(r'data-device-session-key="([\w-]+)"', client.get("/stats").text)
    browser_like(phone)  # the form token of its new identity
    assert phone.post(f"/stats/devices/sessions/{key2}/revoke").status_code == 404
    assert "Alice" in phone2.get("/stats").text
    phone.__exit__(None, None, None)
    phone2.__exit__(None, None, None)


def test_a_link_visit_leaves_no_secret_in_the_access_log(client, app):
    import logging

    from fastapi.testclient import TestClient

    path = link_path(client)
    secret = path.rsplit("/", 1)[1]
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage() + " " + repr(record.__dict__))

    access = logging.getLogger("pyramid.access")
    handler, level = Keep(), access.level
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    try:
        with TestClient(app) as phone:
            browser_like(phone)
            assert phone.get(path).status_code == 200
            assert phone.post(path, follow_redirects=False).status_code == 303
    finally:
        access.removeHandler(handler)
        access.setLevel(level)
    assert len([line for line in lines if "/link/<secret>" in line]) == 2
    assert not any(secret in line for line in lines)


def test_a_linked_browser_keeps_its_identity_through_a_database_outage():
    """The session cannot be read: the cookie stands (the route answers the outage), rather
    than the browser being handed a new player for good."""
    from app.store.db import DatabaseUnavailable
    from app.web.core.player import Claim, still_signed_in

    class Down:
        def sessions(self):
            raise DatabaseUnavailable("the database file is missing")

    assert still_signed_in(Down(), Claim("owner", "session")) is True
