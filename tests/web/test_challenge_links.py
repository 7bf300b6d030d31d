"""A challenge link carries nothing to spoil, and its answers are earned.

The old token was the sender's game id, signed but readable: the friend could decode it and
watch the sender's winning replay. Strangers could add answers under any name. Now the link
carries an opaque key (``games.challenge_key``), an answer is a game its player played from
the link to its end (won or lost), and an answer never shows a name another player on the
challenge already goes by. Links shared before still work: they move to the new form."""

from __future__ import annotations

import base64
import binascii
import contextlib
import re
import zlib
from urllib.parse import parse_qs, urlsplit

from itsdangerous import URLSafeSerializer

from tests.conftest import SECRET

from .helpers import HX
from .test_results import DEAL, challenge_link, first_input, line, play_on_board, win_deal

__all__ = ["line"]  # the module-scoped fixture, used here


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["challenge"][0]


def path_of(link: str) -> str:
    parts = urlsplit(link)
    return f"{parts.path}?{parts.query}"


def everything_readable(token: str) -> list[str]:
    """Whatever a curious friend can read out of a token without the server's key: the token
    and its parts, each base64-decoded (and inflated, as itsdangerous does), and what
    itsdangerous loads without checking the signature."""
    found = [token, *token.split(".")]
    for part in token.lstrip(".").split("."):
        try:
            raw = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
        except (binascii.Error, ValueError):
            continue
        found.append(raw.decode("latin-1"))
        with contextlib.suppress(zlib.error):
            found.append(zlib.decompress(raw).decode("latin-1"))
    _, payload = URLSafeSerializer("not the key").loads_unsafe(token)
    if payload is not None:
        found.append(str(payload))
    return [text for text in found if text]


def answer_from(client, link: str, moves) -> str:
    """Open a challenge link, start its game with the first move, play ``moves`` after it."""
    page = client.get(path_of(link))
    assert page.status_code == 200, page.text
    play_url = re.search(r'data-play="([^"]+)"', page.text).group(1).replace("&amp;", "&")
    started = client.post(play_url, data=first_input(moves[0]), follow_redirects=False)
    assert started.status_code == 303, started.text
    game_id = started.headers["location"].rsplit("/", 1)[1]
    if moves[1:]:
        play_on_board(client, game_id, moves[1:])
    return game_id


def answers_block(client, game_id: str) -> str:
    results = client.get(f"/games/{game_id}/results", headers=HX).text
    return results.split("data-challenge-answers", 1)[1] if "data-challenge-answers" in \
        results else ""


def test_a_challenge_token_reveals_no_game_id(client, other_client, line):
    sent = win_deal(client, line)
    link = challenge_link(client, sent)
    token = token_of(link)
    for text in everything_readable(token):
        assert sent not in text, text
    # Nor does anything the friend is shown on the way: the deal page, their own results.
    page = other_client.get(path_of(link))
    assert page.status_code == 200 and sent not in page.text
    friend = answer_from(other_client, link, line)
    assert sent not in other_client.get(f"/games/{friend}/results", headers=HX).text
    assert sent not in other_client.get(f"/games/{friend}/results").text
    assert sent not in other_client.get(f"/games/{friend}").text


def test_what_the_token_gives_opens_no_replay(client, other_client, line):
    sent = win_deal(client, line)
    assert other_client.get(f"/games/{sent}/replay").status_code == 200  # the id would do
    token = token_of(challenge_link(client, sent))
    for text in everything_readable(token):
        candidate = text.strip('"')
        if not re.fullmatch(r"[\w-]+", candidate):
            continue  # not a path segment
        assert other_client.get(f"/games/{candidate}/replay").status_code == 404, candidate
        assert other_client.get(f"/api/games/{candidate}").status_code == 404, candidate


def test_an_answer_needs_a_finished_game_of_ones_own(app, client, other_client, line):
    from fastapi.testclient import TestClient

    from .conftest import browser_like

    client.post("/stats/name", data={"name": "Alice"})
    sent = win_deal(client, line)
    link = challenge_link(client, sent)
    # Looking stores nothing; a move then leaving for another game is no answer.
    other_client.post("/stats/name", data={"name": "Quitter"})
    assert other_client.get(path_of(link)).status_code == 200
    quit_game = answer_from(other_client, link, line[:1])
    other_client.post("/api/games", json={"deal": DEAL + 1})
    assert other_client.get(f"/api/games/{quit_game}").json()["status"] == "abandoned"
    assert answers_block(client, sent) == ""
    # A game still being played is none either; played to the end, it is.
    with TestClient(app) as third:
        browser_like(third)
        third.post("/stats/name", data={"name": "Carol"})
        playing = answer_from(third, link, line[:5])
        assert answers_block(client, sent) == ""
        play_on_board(third, playing, line[5:])
    block = answers_block(client, sent)
    assert block.count("data-answer=") == 1 and "Carol" in block and "Quitter" not in block
    # The sender playing their own link again answers nobody.
    again = answer_from(client, link, line)
    assert client.get(f"/api/games/{again}").json()["status"] == "won"
    assert answers_block(client, sent).count("data-answer=") == 1


def test_an_answer_cannot_take_another_players_name(app, client, other_client, line):
    from fastapi.testclient import TestClient

    from .conftest import browser_like

    client.post("/stats/name", data={"name": "Alice"})
    sent = win_deal(client, line)
    link = challenge_link(client, sent)
    other_client.post("/stats/name", data={"name": "Bob"})
    answer_from(other_client, link, line)
    for impostor in ("bob", "  ALICE "):
        with TestClient(app) as stranger:
            browser_like(stranger)
            stranger.post("/stats/name", data={"name": impostor})
            page = stranger.get(path_of(link))
            play_url = re.search(r'data-play="([^"]+)"', page.text).group(1).replace(
                "&amp;", "&")
            # A name sent with the answer is no name either.
            started = stranger.post(f"{play_url}&name=Bob", data={
                **first_input(line[0]), "name": "Bob"}, follow_redirects=False)
            play_on_board(stranger, started.headers["location"].rsplit("/", 1)[1], line[1:])
    block = answers_block(client, sent)
    assert block.count("data-answer=") == 3
    names = re.findall(r'data-answer="[^"]+">\s*([^:<]+):', block)
    assert sorted(name.strip() for name in names) == ["A friend", "A friend", "Bob"]


def test_a_challenge_link_shared_before_moves_to_the_new_form(client, other_client, line):
    client.post("/stats/name", data={"name": "Alice"})
    sent = win_deal(client, line)
    old = URLSafeSerializer(SECRET, salt="pyramid.challenge").dumps(sent)
    opened = other_client.get(f"/deal/{DEAL}?goal=standard&passes=3&challenge={old}",
                              follow_redirects=False)
    assert opened.status_code == 303
    moved = opened.headers["location"]
    assert token_of(moved) == token_of(challenge_link(client, sent)) and sent not in moved
    page = other_client.get(moved)
    assert "Alice won this deal in" in page.text and sent not in page.text
    # A page drawn before the change still plays its old link: the game answers the challenge.
    started = other_client.post(f"/deal/{DEAL}/play?goal=standard&passes=3&challenge={old}",
                                data=first_input(line[0]), follow_redirects=False)
    assert started.status_code == 303, started.text
    play_on_board(other_client, started.headers["location"].rsplit("/", 1)[1], line[1:])
    assert answers_block(client, sent).count("data-answer=") == 1
    # Old links keep their checks: for this deal and these rules only.
    wrong = other_client.get(f"/deal/{DEAL + 1}?goal=standard&passes=3&challenge={old}")
    assert wrong.status_code == 400 and "challenge link is broken" in wrong.text


def test_an_unknown_key_is_a_broken_link(other_client):
    page = other_client.get(f"/deal/{DEAL}?goal=standard&passes=3&challenge=AAAAAAAAAAAAAAAAAAAAAA")
    assert page.status_code == 400 and "challenge link is broken" in page.text
