"""Links are built from route names (``app.web.core.links``): each name must name one route."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from starlette.routing import NoMatchFound, Route

from app.engine import Variant
from app.web.core.links import deal_path, path_for


def test_every_route_name_names_one_route(app):
    names = Counter(route.name for route in app.routes if isinstance(route, Route))
    assert not [name for name, count in names.items() if count > 1]


class FakeRequest:
    def __init__(self, app) -> None:
        self.app = app


def test_paths_come_from_the_routes_with_their_query(app):
    request = FakeRequest(app)
    assert path_for(request, "board", game_id="abc") == "/games/abc"
    assert path_for(request, "board", game_id="abc", query={"selected": None}) == "/games/abc"
    assert path_for(request, "replay", game_id="x", query={"win_from": 3, "step": 4}) == (
        "/games/x/replay?win_from=3&step=4")
    assert deal_path(request, 617, Variant("wholedeck", 2)) == (
        "/deal/617?goal=wholedeck&passes=2")
    assert deal_path(request, None, Variant("standard", 3)) is None


def test_every_named_route_s_path_is_starlette_s(app):
    """``path_for`` finds a route by its name in an index, not by asking each route: the
    same path as Starlette's ``url_path_for`` for every named route, a route added later
    included, and an unknown name refused as Starlette refuses it."""
    request = FakeRequest(app)
    named = [route for route in app.routes if getattr(route, "name", None)]
    assert len(named) > 50
    for route in named:
        params = {name: "7" for name in getattr(route, "param_convertors", {})}
        assert path_for(request, route.name, **params) == str(app.url_path_for(route.name,
                                                                               **params))
    app.add_api_route("/added-later/{n}", lambda n: n, name="added_later")
    assert path_for(request, "added_later", n=3) == "/added-later/3"
    with pytest.raises(NoMatchFound):
        path_for(request, "no_such_route")


ROOT = Path(__file__).resolve().parents[2]
WRITTEN_PATH = re.compile(r'''(?:href|action|hx-get|hx-post|src)="/|[\w-]+=["']/[a-z]''')
TRANSLATED = re.compile(r"{%-?\s*trans\b.*?{%-?\s*endtrans\s*-?%}", re.S)


def test_templates_write_no_path_by_hand():
    """Every address in a template comes from ``path_for`` (or ``asset``): a path written by
    hand stays behind when a route moves. A link inside a translated sentence stays in the
    sentence, as its translations have it."""
    found = []
    for path in sorted((ROOT / "templates").glob("*.html")):
        text = TRANSLATED.sub("", path.read_text())
        found += [f"{path.name}: {match.group(0)}" for match in WRITTEN_PATH.finditer(text)]
    assert found == []


def test_the_board_script_writes_no_address():
    """The board's script goes where the page says (its data, #board's data-*-url): no route
    of the app is written in it, not even the home page's "/"."""
    routes = re.compile(
        r'''["'`]/(?:(?:games|deal|daily|stats|settings|api|link|learn|offline)\b|["'`])''')
    found = [f"{path.name}: {line.strip()}"
             for path in sorted((ROOT / "static" / "js" / "board").glob("*.js"))
             for line in path.read_text().splitlines() if routes.search(line)]
    assert found == []


def test_the_board_page_says_where_a_game_is(client):
    html = client.get("/deal/617").text
    assert 'data-home-url="/"' in html and 'data-board-url="/games/GAME"' in html
