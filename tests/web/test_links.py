"""Links are built from route names (``app.web.links``): each name must name one route."""

from __future__ import annotations

from collections import Counter

from starlette.routing import Route

from app.engine import Variant
from app.web.links import deal_path, path_for


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
