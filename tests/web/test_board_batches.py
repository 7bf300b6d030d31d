"""The board's batches (``POST /games/{id}/play`` with ``moves``): the moves a player made while
an answer was on its way, played in order on one version, up to the first the engine refuses;
a batch sent again after its answer was lost is played once; a change this tab made is not
called another tab's."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor

from app.engine import Deal, Game, Move
from app.engine.solver import solve

from .helpers import HX, bad_pair, game_for, start_deal


def version_of(client, game_id: str) -> int:
    return client.get(f"/api/games/{game_id}").json()["version"]


def batch(client, game_id: str, moves: list[str], version: int, input_id: str | None = None):
    data = {"moves": " ".join(moves), "version": str(version)}
    if input_id:
        data["input"] = input_id
    return client.post(f"/games/{game_id}/play", data=data, headers=HX)


def message(html: str) -> str:
    found = re.search(r'id="message"[^>]*>(.*?)</p>', html, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)).strip() if found else ""


def winning_line(client, game_id: str) -> list[Move]:
    return list(solve(game_for(client, game_id)).moves)


def test_a_batch_plays_every_move_in_order_as_one_save(client):
    game_id = start_deal(client, 617, "wholedeck")
    line = winning_line(client, game_id)[:6]
    version = version_of(client, game_id)
    answer = batch(client, game_id, [m.to_text() for m in line], version, "abcdef0123:1")
    assert answer.status_code == 200
    state = client.get(f"/api/games/{game_id}").json()
    assert [Move.from_dict(m) for m in state["moves"]] == line
    assert state["version"] == version + 1  # one save for the whole batch
    assert f'data-moves="{len(line)}"' in answer.text
    assert 'data-last-input="abcdef0123:1"' in answer.text


def test_a_batch_with_a_refused_step_plays_none_of_it_and_says_which(client):
    """A batch is what the page played with its own engine: a step the server refuses means
    the two saw different games, and half of the batch would be a game nobody played."""
    game_id = start_deal(client, 617, "wholedeck")
    line = winning_line(client, game_id)
    first, second = bad_pair(Game.replay(game_for(client, game_id).deal, "wholedeck", 3,
                                         line[:2]))
    steps = [line[0].to_text(), line[1].to_text(), f"{first.name}+{second.name}",
             line[2].to_text()]
    version = version_of(client, game_id)
    answer = batch(client, game_id, steps, version, "abcdef0123:1")
    assert answer.status_code == 422
    said = message(answer.text)
    assert "not 13" in said and "Step 3 of 4; none of them was played" in said
    assert "data-refused" in answer.text
    state = client.get(f"/api/games/{game_id}").json()
    assert state["moves"] == [] and state["version"] == version
    as_data = client.post(f"/games/{game_id}/play", headers={"Accept": "application/json"},
                          data={"moves": " ".join(steps), "version": str(version),
                                "input": "abcdef0123:2"})
    assert as_data.status_code == 422
    assert as_data.json()["refused"] and as_data.json()["moves"] == []


def test_undo_in_a_batch_takes_back_and_counts(client):
    game_id = start_deal(client, 617, "wholedeck")
    line = winning_line(client, game_id)
    answer = batch(client, game_id, [line[0].to_text(), line[1].to_text(), "undo"],
                   version_of(client, game_id))
    assert answer.status_code == 200 and "Took back" in message(answer.text)
    assert [Move.from_dict(m) for m in client.get(f"/api/games/{game_id}").json()["moves"]] == (
        line[:1])


def test_a_batch_sent_again_is_played_once(client):
    """The answer to a batch was lost (the network dropped it): the page sends it again, with
    the same id and version. It is not played twice, and the answer is the board as it is."""
    game_id = start_deal(client, 42)
    version = version_of(client, game_id)
    first = batch(client, game_id, ["draw", "draw"], version, "tab0000001:7")
    again = batch(client, game_id, ["draw", "draw"], version, "tab0000001:7")
    assert first.status_code == again.status_code == 200
    assert "data-refused" not in again.text
    assert client.get(f"/api/games/{game_id}").json()["waste"]["count"] == 2


def test_twenty_copies_of_a_batch_at_once_play_it_once(client):
    game_id = start_deal(client, 42)
    version = version_of(client, game_id)
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(
            lambda _: batch(client, game_id, ["draw"], version, "tab0000002:1"), range(20)))
    assert all(a.status_code in (200, 409) for a in answers)
    assert client.get(f"/api/games/{game_id}").json()["waste"]["count"] == 1


def test_a_batch_made_on_an_older_board_is_refused_with_whose_change_it_was(client):
    game_id = start_deal(client, 42)
    version = version_of(client, game_id)
    assert batch(client, game_id, ["draw"], version, "tabAAAAAAA:1").status_code == 200
    # The same tab, on the board it showed before its own batch landed (a reload, say):
    own = batch(client, game_id, ["draw"], version, "tabAAAAAAA:2")
    assert own.status_code == 409
    assert "Your earlier input reached the game first" in message(own.text)
    assert "another tab" not in message(own.text)
    # Another tab:
    other = batch(client, game_id, ["draw"], version, "tabBBBBBBB:1")
    assert other.status_code == 409 and "another tab" in message(other.text)
    assert client.get(f"/api/games/{game_id}").json()["waste"]["count"] == 1


def test_bad_batches_are_refused_and_change_nothing(client):
    game_id = start_deal(client, 42)
    version = version_of(client, game_id)
    for moves, expected in ((["draw", "5X+8C"], "not a move"), (["  "], "1 to 100 inputs"),
                            (["draw"] * 101, "1 to 100 inputs")):
        answer = batch(client, game_id, moves, version)
        assert answer.status_code == 422 and expected in message(answer.text), moves
    no_version = client.post(f"/games/{game_id}/play", data={"moves": "draw"}, headers=HX)
    assert no_version.status_code == 422 and "says which version" in message(no_version.text)
    huge = batch(client, game_id, ["draw"] * 10_000, version)
    assert 400 <= huge.status_code < 500
    bad_id = client.post(f"/games/{game_id}/play", headers=HX,
                         data={"moves": "draw", "version": str(version), "input": "x" * 60})
    assert bad_id.status_code in (400, 422)
    assert client.get(f"/api/games/{game_id}").json()["moves"] == []


def test_another_players_batch_is_refused(client, other_client):
    game_id = start_deal(client, 42)
    version = version_of(client, game_id)
    answer = batch(other_client, game_id, ["draw"], version)
    assert answer.status_code == 403
    assert client.get(f"/api/games/{game_id}").json()["moves"] == []


def game_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', html,
                      re.S)
    assert found, "the board page carries the game as data"
    return json.loads(found.group(1))


def test_the_page_carries_the_game_its_script_plays(client):
    """The page plays with its own engine: it gets the deal's cards, the moves and where each
    input goes, and they rebuild the server's game exactly."""
    game_id = start_deal(client, 617)
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
    data = game_data(client.get(f"/games/{game_id}").text)
    game = game_for(client, game_id)
    assert data["deal"] == {"number": "617", "pyramid": [c.name for c in game.deal.pyramid],
                            "stock": [c.name for c in game.deal.stock]}
    assert data["moves"] == ["draw"] and data["version"] == version_of(client, game_id)
    replayed = Game.replay(Deal.from_dict({"pyramid": data["deal"]["pyramid"],
                                           "stock": data["deal"]["stock"]}),
                           data["goal"], data["passes"], map(Move.from_text, data["moves"]))
    assert replayed.pyramid == game.pyramid and replayed.stock == game.stock
    assert data["urls"]["play"] == f"/games/{game_id}/play"


def test_free_cards_are_buttons_and_covered_cards_say_what_covers_them(client):
    game_id = start_deal(client, 617)
    html = client.get(f"/games/{game_id}").text
    game = game_for(client, game_id)
    buttons = set(re.findall(r'<button[^>]*data-card="(\w\w)"', html))
    assert buttons == {card.name for card in game.free_cards()}
    covered = dict(re.findall(r'data-card="(\w\w)" role="img"\s+aria-label="([^"]*)"', html))
    assert covered["7D"] == "7 of diamonds, covered by Ace of diamonds and 5 of clubs"
    assert set(covered) == {c.name for c in game.pyramid if c} - buttons


def test_a_batch_answers_the_script_with_the_game_as_data(client):
    game_id = start_deal(client, 42)
    version = version_of(client, game_id)
    answer = client.post(f"/games/{game_id}/play",
                         data={"moves": "draw draw undo", "version": version,
                               "input": "abcdef0123:1"},
                         headers={"Accept": "application/json"})
    assert answer.status_code == 200
    data = answer.json()
    assert data["moves"] == ["draw"] and data["undos"] == 1 and not data["refused"]
    assert data["last_input"] == "abcdef0123:1" and data["version"] > version
    stale = client.post(f"/games/{game_id}/play",
                        data={"moves": "draw", "version": version, "input": "abcdef0123:2"},
                        headers={"Accept": "application/json"})
    assert stale.status_code == 409 and stale.json()["moves"] == ["draw"]


def test_the_board_answers_304_when_nothing_changed(client):
    game_id = start_deal(client, 42)
    first = client.get(f"/games/{game_id}", headers=HX)
    etag = first.headers["etag"]
    same = client.get(f"/games/{game_id}", headers={**HX, "If-None-Match": etag})
    assert same.status_code == 304
    client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
    moved = client.get(f"/games/{game_id}", headers={**HX, "If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["etag"] != etag
