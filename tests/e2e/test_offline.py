"""Plays anywhere, in Chromium: moves with no network (an undo among them), a reload
with no network, a deal and a new game begun with no network, the network back and the server
holding every move, the board drawn here equal to the server's, the site installable, and a
new release's worker taking over only at the next visit.

Every wait is for what is checked (``wait_until`` polls the page; it never sleeps a fixed
time before a check)."""

from __future__ import annotations

import shutil
import time

import pytest

from app.engine import Deal, Game, Move

from .conftest import Server
from .helpers import start_game
from .test_board import board_html
from .test_play_feel import board_matches_server, game_id, settled

pytestmark = [pytest.mark.browser, pytest.mark.offline]
WAIT = 60.0


def wait_until(page, script: str, what: str, arg=None, seconds: float = WAIT):
    """Evaluate ``script`` (a function) until it returns something true, or fail."""
    deadline = time.monotonic() + seconds
    while True:
        found = page.evaluate(script, arg)
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        page.wait_for_timeout(50)


def controlled(page) -> None:
    """The service worker has installed its shell and controls the page."""
    wait_until(page, "() => !!navigator.serviceWorker.controller", "the service worker")


def kept_games(page) -> list[dict]:
    return page.evaluate("() => Object.values(JSON.parse("
                         "localStorage.getItem('pyramid.games.v1') || '{}').games || {})")


def test_moves_without_network_an_undo_and_a_reload_then_every_move_is_saved(page):
    start_game(page, 42)
    settled(page)
    controlled(page)
    page.context.set_offline(True)
    for key in ("d", "d", "u", "d", "d"):
        page.keyboard.press(key)
    page.wait_for_selector("[data-offline]:not([hidden])", state="attached")
    assert page.get_attribute("#board", "data-moves") == "3"
    assert page.get_attribute("html", "data-inputs") == "5"  # four draws and an undo
    page.reload()  # no network: the worker's board, the moves kept on this device
    page.wait_for_selector('#board[data-moves="3"]')
    assert page.locator('[data-count="waste"]').inner_text() == "3"
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-moves="4"]')
    page.context.set_offline(False)
    settled(page)
    state = board_matches_server(page)
    assert state["moves"] == [Move.draw().to_dict()] * 4
    assert page.request.get(f"/api/games/{game_id(page)}").json()["score"] == 0


def test_hints_say_they_need_the_network_where_the_device_cannot_solve(page):
    """A browser with no Web Worker has no solver of its own (tests/e2e/test_device_solver.py:
    with one, the hint comes from the device): with no network it says so."""
    page.add_init_script("delete window.Worker;")
    start_game(page, 42)
    settled(page)
    page.context.set_offline(True)
    page.keyboard.press("h")
    page.wait_for_selector("#message:has-text('Hints need the network')")
    page.context.set_offline(False)


def test_a_deal_and_a_new_game_begun_without_network_are_saved_when_it_is_back(page):
    page.goto("/")
    controlled(page)
    wait_until(page, "() => !!localStorage.getItem('pyramid.pack.v1')", "the offline pack")
    page.context.set_offline(True)
    page.goto("/deal/1234?goal=standard&passes=1")
    page.wait_for_selector("#board[data-play]:not([data-shell])")
    deal = Deal.from_number(1234)
    assert page.locator(".deal-info h1").inner_text() == "Deal #1234"
    bottom = {card.name for card in deal.pyramid[21:]}
    shown = set(page.eval_on_selector_all("#board .pyramid button[data-card]",
                                          "els => els.map(e => e.dataset.card)"))
    assert shown == bottom
    for _ in range(3):
        page.keyboard.press("d")
    page.wait_for_selector('#board[data-moves="3"]')
    # "New game" with no network: a random deal, begun here, once the game in progress is
    # left (the page asks, as the server would).
    page.goto("/")
    page.click("[data-action=start]")
    page.wait_for_selector("[data-ask-leave]:not([hidden])")
    page.click('[data-ask-leave] [data-answer="yes"]')
    page.wait_for_selector("#board[data-play]:not([data-shell])")
    assert "/deal/" in page.url
    page.keyboard.press("d")
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-moves="2"]')
    page.context.set_offline(False)
    page.wait_for_selector("[data-synced]:has-text('2 games played offline were saved')")
    settled(page)
    games = {g["server"]["moves"].__len__(): g for g in kept_games(page)}
    assert set(games) == {3, 2} and all(g["id"] for g in games.values())
    first = page.request.get(f"/api/games/{games[3]['id']}").json()
    assert first["deal"] == 1234 and first["status"] == "abandoned" and len(first["moves"]) == 3
    second = page.request.get(f"/api/games/{games[2]['id']}").json()
    assert second["status"] == "playing" and len(second["moves"]) == 2
    assert games[2]["id"] in page.url  # the page's address is the game's own now


def table_html(page) -> str:
    """What the page's script draws (the pyramid and the piles, and the board's attributes),
    in board_html's canonical form; the banner's parts that load later are left out."""
    full = board_html(page)
    head = full[:full.index(">") + 1]
    return head + page.evaluate(r"""() => ['.pyramid', '.piles'].map(s => {
        const copy = document.querySelector('#board ' + s).cloneNode(true);
        const walk = node => {
          if (node.nodeType === Node.TEXT_NODE) return node.textContent.trim();
          if (node.nodeType !== Node.ELEMENT_NODE) return '';
          const attrs = Array.from(node.attributes).filter(a => a.name !== 'tabindex')
            .map(a => a.name !== 'class' ? a.name + '=' + a.value
                 : 'class=' + a.value.split(/\s+/).filter(Boolean).sort().join(' ')).sort();
          return '<' + node.tagName + ' ' + attrs.join(' ') + '>'
            + Array.from(node.childNodes).map(walk).join('') + '</' + node.tagName + '>';
        };
        return walk(copy);
    }).join('')""")


POSITIONS = [(617, "standard", 3, 0), (617, "standard", 3, 9), (42, "wholedeck", 1, 30),
             (7, "wholedeck", 3, 60), (99, "standard", 2, 40)]


@pytest.mark.parametrize(("number", "goal", "passes", "steps"), POSITIONS)
def test_the_board_drawn_here_equals_the_servers(page, number, goal, passes, steps):
    """The page draws every position with its own engine: in the same markup as the server's
    templates, so a reload, the script's first drawing and the server's page are one board."""
    start_game(page, number, f"?goal={goal}&passes={passes}")
    settled(page)
    game = Game(Deal.from_number(number), goal, passes)
    for turn in range(steps):
        if game.is_over():
            break
        moves = game.legal_moves
        move = moves[(turn * 7) % len(moves)]
        game.play(move)
        assert page.request.post(f"/api/games/{game_id(page)}/moves",
                                 data=move.to_dict()).ok
    page.reload()
    page.wait_for_selector(f'#board[data-moves="{len(game.moves)}"]')
    settled(page)
    drawn = table_html(page)
    page.evaluate("() => window.pyramidBoard.draw()")
    assert table_html(page) == drawn
    served = page.request.get(page.url, headers={"HX-Request": "true"}).text()
    page.evaluate("html => { const t = document.createElement('template'); t.innerHTML = html;"
                  " document.getElementById('board').replaceWith(t.content.querySelector('#board'))"
                  " }", served)
    assert table_html(page) == drawn


def test_the_site_can_be_installed(browser, server, chromium, tmp_path):
    """Chromium's own installability check (it needs a profile on disk, not incognito)."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium, args=["--no-sandbox"],
        base_url=server.url)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        for path in ("/", "/deal/617"):
            page.goto(path)
            controlled(page)
            errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
            assert errors == [], (path, errors)
    finally:
        context.close()


def release_of(page) -> str:
    """The release of the page's scripts, and of the worker that serves it."""
    scripts = page.evaluate("() => document.querySelector('script[src*=\"/assets/\"]')"
                            ".getAttribute('src').split('/')[2]")
    # While a new worker takes over, the page may have none for a moment, or ask the one that
    # is going: "none" or "silent" then, and the caller asks again.
    worker = page.evaluate("""() => new Promise(resolve => {
        const controller = navigator.serviceWorker.controller;
        if (!controller) return resolve('none');
        navigator.serviceWorker.addEventListener('message', e => resolve(e.data.release),
                                                 {once: true});
        setTimeout(() => resolve('silent'), 2000);
        controller.postMessage('release?');
    })""")
    return f"{scripts}/{worker}"


def active_release(context) -> str | None:
    """The release of the context's active service worker, if one is active."""
    for worker in context.service_workers:
        try:
            release = worker.evaluate("self.serviceWorker?.state === 'activated' ? RELEASE : null")
        except Exception:  # a worker gone meanwhile
            continue
        if release:
            return release
    return None


def test_a_new_release_waits_for_the_next_visit(browser, tmp_path, _migrated_sqlite):
    if shutil.which("chromium") is None:  # pragma: no cover - the browser fixture skips first
        pytest.skip("no Chromium")
    site = Server(f"sqlite:///{tmp_path / 'release.db'}")
    site.env["RELEASE"] = "first"
    site.migrate(_migrated_sqlite)
    site.start()
    context = browser.new_context(base_url=site.url, service_workers="allow")
    try:
        page = context.new_page()
        start_game(page, 42)
        controlled(page)
        page.keyboard.press("d")
        settled(page)
        assert release_of(page) == "first/first"
        site.stop()
        site.env["RELEASE"] = "second"
        site.start()
        # The browser finds the new worker; it waits, and the game goes on with its scripts.
        wait_until(page, "async () => { const r = await navigator.serviceWorker.ready;"
                   " try { await r.update(); } catch { return false; }"  # asked again
                   " return !!r.waiting; }", "the new worker to wait")
        page.keyboard.press("d")
        settled(page)
        page.reload()  # a reload is no new visit: the old worker serves it still
        page.wait_for_selector('#board[data-moves="2"]')
        controlled(page)
        assert release_of(page).endswith("/first")
        url = page.url
        page.close()  # the last page of the old release
        # The next visit is the first one after that: a page opened before the browser has let
        # the old worker go would still be its own (and keep it).
        deadline = time.monotonic() + WAIT
        while active_release(context) != "second" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert active_release(context) == "second"
        fresh = context.new_page()
        fresh.goto(url)
        fresh.wait_for_selector('#board[data-moves="2"]')
        controlled(fresh)
        # The old worker may still answer the visit's first moment: the new one, once active
        # (its last old page gone), claims the page.
        deadline = time.monotonic() + WAIT
        while (release := release_of(fresh)) != "second/second" and time.monotonic() < deadline:
            fresh.wait_for_timeout(50)
        assert release == "second/second"
        wait_until(fresh, "async () => (await caches.keys()).join(' ') === 'pyramid-second'",
                   "the old release's cache to go")
    finally:
        context.close()
        site.stop()


def test_a_page_that_needs_the_network_says_so_in_one_sentence(page):
    page.goto("/")
    controlled(page)
    page.context.set_offline(True)
    try:
        page.goto("/odds")  # never visited: nothing kept of it
        note = page.locator("[data-needs-network]")
        note.wait_for()
        assert note.inner_text() == "This page needs the network: you can play a game meanwhile."
        page.goto("/games/NotOnThisDevice")
        page.wait_for_selector('[data-needs-network="not_on_device"]')
    finally:
        page.context.set_offline(False)


def test_statistics_offline_after_the_cookies_are_cleared_show_nobody_s(page):
    """The worker kept /stats (display name, figures, history, linked browsers)
    whichever cookie fetched it; after the cookies were cleared (or the player signed out),
    offline, the next person read the previous player's statistics."""
    page.goto("/")
    controlled(page)
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    named = page.request.post("/stats/name", form={"name": "Previous Player",
                                                   "csrf_token": token}, max_redirects=0)
    assert named.status == 303
    page.goto("/stats")
    assert "Previous Player" in page.locator("[data-display-name]").inner_text()
    page.goto("/daily/calendar")
    page.goto("/")  # a page the worker keeps, drawn for nobody in particular
    page.context.clear_cookies()
    page.context.set_offline(True)
    try:
        page.goto("/stats")
        page.locator("[data-needs-network]").wait_for()
        assert "Previous Player" not in page.content()
        page.goto("/daily/calendar")  # the offline board (the deal of the day's), no calendar
        page.locator("#board").wait_for()
        assert page.locator("[data-calendar-day], .calendar").count() == 0
        page.goto("/")
        assert "Previous Player" not in page.content()
    finally:
        page.context.set_offline(False)


def test_a_first_install_that_fails_is_tried_again_while_the_page_is_open(browser, tmp_path,
                                                                         _migrated_sqlite):
    """One of the shell's files refused once (tests/e2e/flaky_server.py): the install fails as
    a whole; the page tries again, and is controlled without being opened again."""
    site = Server(f"sqlite:///{tmp_path / 'flaky.db'}", app="tests.e2e.flaky_server:app")
    site.migrate(_migrated_sqlite)
    site.start()
    context = browser.new_context(base_url=site.url, service_workers="allow")
    try:
        page = context.new_page()
        page.goto("/")
        controlled(page)
        assert len(page.request.get("/__failed").json()) == 1  # the first install did fail
        assert page.evaluate("async () => (await caches.keys()).length") == 1
    finally:
        context.close()
        site.stop()


def test_a_page_still_loading_when_the_worker_activates_is_taken_too(page):
    """The home page installs the worker and a game is opened at once, its page slow to come
    (held here until the worker is active): the worker's claim at its activation took only
    the pages already running, so the game's page asks to be taken (static/js/site.js), and
    has offline play from its first visit, not from the next page opened."""
    page.goto("/")
    held = []
    page.context.route("**/games/*", lambda route: held.append(route)
                       if route.request.resource_type == "document" else route.continue_())
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    started = page.request.post("/deal/42", form={"csrf_token": token}, max_redirects=0)
    assert started.status == 303, started.status
    page.evaluate("url => { location.href = url; }", started.headers["location"])
    other = page.context.new_page()  # a tab to watch the worker from while the game's waits
    other.goto("/")
    deadline = time.monotonic() + WAIT
    while not held:
        assert time.monotonic() < deadline, "the game's page was never asked for"
        other.wait_for_timeout(50)
    wait_until(other, "async () => (await navigator.serviceWorker.getRegistration())"
               "?.active?.state === 'activated'", "the worker's activation")
    held[0].continue_()
    page.wait_for_selector("#board[data-game]:not([data-game=''])")
    controlled(page)
