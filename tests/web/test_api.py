"""The JSON API: create, read, move, undo; bad input; ownership; the OpenAPI schema."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.engine import Deal, Game, Move
from app.engine.solver import solve


def create(client, **body):
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_create_answers_201_with_the_state(client):
    state = create(client, deal=3, goal="wholedeck", passes=2)
    assert state["deal"] == 3 and state["goal"] == "wholedeck" and state["passes"] == 2
    assert state["status"] == "playing" and state["pass"] == 1 and state["passes_left"] == 1
    game = Game(Deal.from_number(3), "wholedeck", 2)
    assert state["pyramid"] == [card.name for card in game.pyramid]
    assert state["stock"] == {"top": game.stock_top.name, "count": 24}
    assert state["waste"] == {"top": None, "count": 0}
    assert state["free"] == [card.name for card in game.free_cards()]
    assert state["legal_moves"] == [{"op": "remove", "cards": ["KS"]}, {"op": "draw"}]
    assert state["moves"] == []
    assert state["reason"] is None


def test_create_has_a_location_and_sets_the_player_cookie(app):
    with TestClient(app) as fresh:  # a script's first call: no cookie yet
        response = fresh.post("/api/games", json={"deal": 3})
    assert response.headers["location"].endswith(f"/api/games/{response.json()['id']}")
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie


def test_create_defaults_to_a_random_standard_game(client):
    state = create(client)
    assert state["goal"] == "standard" and state["passes"] == 3
    assert 1 <= state["deal"] <= 1_000_000_000


def test_the_largest_deal_number_round_trips(client):
    """Deals past 2**53 - 1 (which a JSON double cannot hold exactly) are sent as digits."""
    state = create(client, deal="99999999999999999999")
    assert state["deal"] == 10**20 - 1
    assert client.get(f"/api/games/{state['id']}").json()["deal"] == 10**20 - 1
    assert create(client, deal=2**53 - 1)["deal"] == 2**53 - 1
    assert client.post("/api/games", json={"deal": 2**53}).status_code == 422
    assert client.post("/api/games", json={"deal": 10**20 - 1}).status_code == 422


def test_create_rejects_bad_input(client):
    for body in ({"deal": 0}, {"deal": 10**20}, {"deal": "x"}, {"goal": "easy"},
                 {"passes": 4}, {"passes": "three"}, {"deal": 3, "colour": "red"}):
        response = client.post("/api/games", json=body)
        assert response.status_code == 422, body
        assert response.json()["detail"]
    assert client.post("/api/games", content=b"not json",
                       headers={"content-type": "application/json"}).status_code == 422


def test_read_unknown_game_is_404(client):
    response = client.get("/api/games/unknown")
    assert response.status_code == 404 and response.json() == {"detail": "no game 'unknown'",
                                                         "errors": []}


def test_a_legal_move_answers_the_new_state(client):
    state = create(client, deal=3)
    response = client.post(f"/api/games/{state['id']}/moves", json={"op": "remove",
                                                                    "cards": ["KS"]})
    assert response.status_code == 200
    after = response.json()
    assert after["pyramid"][state["pyramid"].index("KS")] is None
    assert after["moves"] == [{"op": "remove", "cards": ["KS"]}]
    drawn = client.post(f"/api/games/{state['id']}/moves", json={"op": "draw"}).json()
    assert drawn["waste"] == {"top": state["stock"]["top"], "count": 1}
    assert drawn["stock"]["count"] == 23


def test_an_illegal_move_is_422_with_the_refusals_code_and_the_engines_reason(client):
    state = create(client, deal=3)
    game = Game(Deal.from_number(3))
    covered = next(c for i, c in enumerate(game.pyramid) if not game.is_free_position(i))
    cases = [
        ({"op": "recycle"}, "stock_not_empty", "The stock still has 24 cards"),
        ({"op": "remove", "cards": [covered.name]}, "covered",
         f"{covered.name} is covered by"),
        ({"op": "remove", "cards": ["AD", "4H"]}, "not_thirteen", "make 5, not 13"),
        ({"op": "remove", "cards": ["AD"]}, "not_a_king", "not a King"),
        ({"op": "remove", "cards": ["XX"]}, "not_a_card", "is not a card"),
        ({"op": "draw", "cards": ["KS"]}, "takes_no_cards", "names no cards"),
    ]
    for body, code, reason in cases:
        response = client.post(f"/api/games/{state['id']}/moves", json=body)
        assert response.status_code == 422, body
        problem = response.json()
        assert reason in problem["detail"], (body, problem)
        assert [error["type"] for error in problem["errors"]] == [code], (body, problem)
        assert problem["errors"][0]["loc"] == ["body"] and problem["errors"][0]["msg"]
    assert client.post(f"/api/games/{state['id']}/moves", json={"op": "recycle"}).json()[
        "errors"][0]["ctx"] == {"count": 24}
    for body in ({"op": "jump"}, {"cards": ["KS"]}, {"op": "draw", "extra": 1}, [1, 2],
                 {"op": "remove", "cards": []}, {"op": "remove", "cards": None}):
        assert client.post(f"/api/games/{state['id']}/moves", json=body).status_code == 422
    assert client.get(f"/api/games/{state['id']}").json()["moves"] == []


def test_moves_and_undo_on_unknown_games_are_404(client):
    assert client.post("/api/games/nope/moves", json={"op": "draw"}).status_code == 404
    assert client.post("/api/games/nope/undo").status_code == 404


def test_another_player_can_read_but_not_move(client, other_client):
    state = create(client, deal=3)
    assert other_client.get(f"/api/games/{state['id']}").status_code == 200
    response = other_client.post(f"/api/games/{state['id']}/moves", json={"op": "draw"})
    assert response.status_code == 403
    assert other_client.post(f"/api/games/{state['id']}/undo").status_code == 403
    assert client.get(f"/api/games/{state['id']}").json()["moves"] == []


def test_a_forged_cookie_is_a_different_player(client, app):
    from fastapi.testclient import TestClient

    from app.web.core.player import PlayerCookie

    state = create(client, deal=3)
    name = app.state.settings.cookie_name
    real = client.cookies.get(name)
    player_id = PlayerCookie(app.state.settings).read(real)
    assert player_id  # the cookie holds a signed id
    other_key = PlayerCookie(app.state.settings.model_copy(update={"secret_key": "x" * 32}))
    for forged in (real[:-4] + "AAAA", other_key.sign(player_id), player_id):
        with TestClient(app, cookies={name: forged}) as intruder:
            response = intruder.post(f"/api/games/{state['id']}/moves", json={"op": "draw"})
            assert response.status_code == 403, forged
            # A refused POST hands out no cookie: the forgery is ignored, not replaced.
            assert "set-cookie" not in response.headers
    assert client.post(f"/api/games/{state['id']}/moves", json={"op": "draw"}).status_code == 200


def test_undo(client):
    state = create(client, deal=3)
    client.post(f"/api/games/{state['id']}/moves", json={"op": "draw"})
    after = client.post(f"/api/games/{state['id']}/undo")
    assert after.status_code == 200 and after.json()["moves"] == []
    nothing = client.post(f"/api/games/{state['id']}/undo")
    assert nothing.status_code == 422 and nothing.json()["detail"] == "There is no move to undo."


def test_a_whole_winning_game_through_the_api(client):
    state = create(client, deal=5, goal="standard", passes=3)
    line = solve(Game(Deal.from_number(5), "standard", 3)).moves
    assert line
    for move in line:
        response = client.post(f"/api/games/{state['id']}/moves", json=move.to_dict())
        assert response.status_code == 200, (move, response.text)
    final = response.json()
    assert final["status"] == "won" and final["reason"] == "The pyramid is cleared."
    assert final["legal_moves"] == [] and final["finished_at"] is not None
    assert all(slot is None for slot in final["pyramid"])
    assert [Move.from_dict(m) for m in final["moves"]] == list(line)
    late = client.post(f"/api/games/{state['id']}/moves", json={"op": "draw"})
    assert late.status_code == 422 and "The game is over" in late.json()["detail"]
    assert client.post(f"/api/games/{state['id']}/undo").status_code == 422


def test_the_api_is_in_the_openapi_schema(client):
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    assert set(paths) >= {"/api/games", "/api/games/{game_id}", "/api/games/{game_id}/moves",
                          "/api/games/{game_id}/undo"}
    assert "/games/{game_id}" not in paths  # the HTML pages are not API
    state = schema["components"]["schemas"]["GameState"]["properties"]
    assert {"id", "deal", "goal", "passes", "status", "pyramid", "stock", "waste", "pass",
            "free", "legal_moves", "moves"} <= set(state)
    assert paths["/api/games"]["post"]["responses"].keys() >= {"201", "422"}
    assert client.get("/docs").status_code == 200


def test_if_match_is_documented_as_a_string(app):
    """A header is a string: the schema says so (no "null", which a client would send as the
    four letters and be refused for)."""
    schema = app.openapi()
    for path in ("/api/games/{game_id}/moves", "/api/games/{game_id}/undo"):
        (header,) = [p for p in schema["paths"][path]["post"]["parameters"]
                     if p["name"] == "if-match"]
        assert header["schema"]["type"] == "string" and "anyOf" not in header["schema"]
