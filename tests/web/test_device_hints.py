"""A hint the page's own solver gave (static/js/solver/, the WebAssembly build of the server's
solver) is a step ``hint:MOVE`` of the game's batch: the server counts it as it counts a hint
it gave itself (``hints_used``, so the score and the ranking), and writes its move down as its
own hints are (docs/players.md)."""

from __future__ import annotations

from urllib.parse import urlencode

from app.engine import Deal, Game, Move, score
from app.engine.solver import hint

from .helpers import game_for, start_deal

JSON = {"Accept": "application/json"}


def state(client, game_id: str) -> dict:
    return client.get(f"/api/games/{game_id}").json()


def batch(client, game_id: str, steps: list[str], input_id: str):
    return client.post(f"/games/{game_id}/play", headers=JSON, data={
        "moves": " ".join(steps), "version": str(state(client, game_id)["version"]),
        "input": input_id})


def test_a_device_hint_counts_as_the_servers_own(client, other_client):
    """One player asks the server for a hint, another's page works one out (on another deal:
    see the next test for the same one); both play it. Each game counts one hint, and its score
    loses what a hint costs."""
    asked = start_deal(client, 617, "wholedeck")
    served = Move.from_dict(client.post(f"/api/games/{asked}/hint").json()["move"])
    assert client.post(f"/api/games/{asked}/moves", json=served.to_dict()).status_code == 200

    device = start_deal(other_client, 618, "wholedeck")
    game = game_for(other_client, device)
    on_device = hint(game).move
    assert on_device is not None
    answer = batch(other_client, device, [f"hint:{on_device.to_text()}", on_device.to_text()],
                   "devicehint0:1")
    assert answer.status_code == 200, answer.text
    assert answer.json()["hints"] == 1
    game.play(on_device)
    for player, game_id, position in ((client, asked, game_for(client, asked)),
                                      (other_client, device, game)):
        got = state(player, game_id)
        assert got["hints_used"] == 1
        assert got["score"] == score(position, hints=1).total


def test_a_device_hint_is_written_down_as_the_servers_are(client, other_client):
    """A hint the device gave is a move shown (docs/players.md): another game at the same
    address that plays it from the same position counts it as a hint and is not ranked, as it
    would for a hint the server gave."""
    shown = start_deal(client, 617, "wholedeck")
    move = hint(game_for(client, shown)).move
    assert move is not None
    assert batch(client, shown, [f"hint:{move.to_text()}"], "devicehint0:5").status_code == 200
    other = start_deal(other_client, 617, "wholedeck")
    assert batch(other_client, other, [move.to_text()], "devicehint0:6").status_code == 200
    got = state(other_client, other)
    assert got["hints_used"] == 1 and got["ranked"] is False


def test_a_device_hint_in_a_game_begun_offline_is_counted_once_it_arrives(client):
    game = Game(Deal.from_number(11), "standard", 3)
    steps = []
    for _ in range(3):
        move = hint(game).move
        steps += [f"hint:{move.to_text()}", move.to_text()]
        game.play(move)
    answer = client.post("/deal/11/play?goal=standard&passes=3", headers=JSON,
                         data={"moves": " ".join(steps), "version": "0",
                               "input": "devicehint0:2", "offline": "1", "elapsed": "30"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["hints"] == 3 and len(answer.json()["moves"]) == 3


def test_a_device_hint_naming_a_move_not_legal_there_refuses_the_batch(client):
    game_id = start_deal(client, 617, "wholedeck")
    answer = batch(client, game_id, ["draw", "hint:recycle"], "devicehint0:3")
    assert answer.status_code == 422
    after = state(client, game_id)
    assert after["moves"] == [] and after["hints_used"] == 0


def test_a_plain_hint_step_counts_too(client):
    game_id = start_deal(client, 617, "wholedeck")
    answer = batch(client, game_id, ["hint", "draw", "undo", "hint"], "devicehint0:4")
    assert answer.status_code == 200, answer.text
    after = state(client, game_id)
    assert after["hints_used"] == 2 and after["moves"] == []


def test_a_try_again_begun_on_the_device_is_stored_as_the_servers_retry(client):
    """"Try again from move N" of a game lost with no network: the board begins the game on the
    device, and its first batch names the moves it starts from (``retry``): a game not counted,
    at that position, with the batch on top; sent again, the same game."""
    game = Game(Deal.from_number(11), "standard", 3)
    before = []
    for _ in range(4):
        move = hint(game).move
        before.append(move.to_text())
        game.play(move)
    then = hint(game).move.to_text()
    url = "/deal/11/play?" + urlencode({"goal": "standard", "passes": 3, "retry": " ".join(before)})
    sent = {"moves": then, "version": "0", "input": "deviceretry:1", "offline": "1",
            "elapsed": "12"}
    answer = client.post(url, headers=JSON, data=sent)
    assert answer.status_code == 200, answer.text
    assert answer.json()["moves"] == [*before, then]
    game_id = answer.json()["id"]
    got = state(client, game_id)
    assert got["counted"] is False and got["hints_used"] == 0
    again = client.post(url, headers=JSON, data=sent)
    assert again.status_code == 200 and again.json()["id"] == game_id
    assert again.json()["moves"] == [*before, then]
    # A start that is no move, or no legal one, stores nothing.
    for bad in ("5H+8C nonsense", "KS KS"):
        refused = client.post("/deal/12/play?" + urlencode(
            {"goal": "standard", "passes": 3, "retry": bad}), headers=JSON,
            data={**sent, "input": "deviceretry:2", "abandon": "1"})
        assert refused.status_code == 422, refused.text
        assert refused.json()["id"] is None
    assert state(client, game_id)["status"] == "playing"


def test_a_move_known_elsewhere_and_hinted_here_counts_once(client, other_client):
    """A move another player at this address was shown, played in this game on this game's
    own hint (the device's), is one hint here, not two: it is the hint taken, not a move
    known beforehand."""
    shown = start_deal(client, 617, "wholedeck")
    served = Move.from_dict(client.post(f"/api/games/{shown}/hint").json()["move"])
    other = start_deal(other_client, 617, "wholedeck")
    answer = batch(other_client, other, [f"hint:{served.to_text()}", served.to_text()],
                   "devicehint0:9")
    assert answer.status_code == 200, answer.text
    got = state(other_client, other)
    assert got["hints_used"] == 1 and got["ranked"] is True  # a hint taken, as any hint
    # Without its own hint, the same move is a borrowed hint all the same: known beforehand.
    assert client.post(f"/api/games/{shown}/moves", json=served.to_dict()).status_code == 200
    third = start_deal(client, 617, "wholedeck")  # a new game: the first has a move
    assert third != shown
    assert batch(client, third, [served.to_text()], "devicehint1:1").status_code == 200
    got = state(client, third)
    assert got["hints_used"] == 1 and got["unranked_why"] == "known"


def test_a_move_the_server_hinted_here_and_known_elsewhere_counts_once(client, other_client):
    """The same with the server's hint, asked in one input and played in the next."""
    shown = start_deal(client, 617, "wholedeck")
    served = Move.from_dict(client.post(f"/api/games/{shown}/hint").json()["move"])
    other = start_deal(other_client, 617, "wholedeck")
    again = Move.from_dict(other_client.post(f"/api/games/{other}/hint").json()["move"])
    assert again == served
    assert other_client.post(f"/api/games/{other}/moves", json=served.to_dict()).status_code == 200
    got = state(other_client, other)
    assert got["hints_used"] == 1 and got["ranked"] is True
