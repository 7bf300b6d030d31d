"""What several browser tests do: start a deal as a player does."""

from __future__ import annotations

from urllib.parse import parse_qs


def start_game(page, number: int, query: str = "") -> str:
    """Start deal ``number`` the way its deal page's "Abandon it and start" form does (a deal
    link's page stores nothing until the first input), open the new game's board, and return
    its URL."""
    if not page.url.startswith("http"):
        page.goto("/")
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    rules = {key: values[0] for key, values in parse_qs(query.lstrip("?")).items()}
    answer = page.request.post(f"/deal/{number}", form={**rules, "csrf_token": token},
                               max_redirects=0)
    assert answer.status == 303, answer.status
    page.goto(answer.headers["location"])
    page.wait_for_selector("#board[data-game]:not([data-game=''])")
    return page.url
