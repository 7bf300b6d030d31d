"""The production set-up, minus containers: Debian's nginx with ``deploy/pyramid.conf.template``
in front of two app processes (``tests/deploy/proxysite.py``). A game is played through it by
the API and by the pages' forms; slow clients are cut off; the site stays up, and no request
waits, while an app process is down or gone, even across a restart of the proxy; a POST that
reached an app is never sent to another; a crowd behind one address gets through (a class
asking for hints at once too) while the costly requests of one address are held to a rate,
every 429 with a Retry-After; the app sees the client's own address, never one the client
claims, and the proxy's request id; an import of a megabyte gets through, one over the app's
limit gets the app's page saying so; /metrics and device links' secrets stay out of reach and
out of the logs.

The store is PostgreSQL when TEST_DATABASE_URL is set (as in CI and in compose.yaml), else one
SQLite file both processes share."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import httpx
import pytest

from app.prestart import migrate
from tests.conftest import POSTGRES_URL, _reset_postgres
from tests.deploy.proxysite import (
    APP_ADDRESSES,
    CLIENT_TIMEOUT,
    METRICS_TOKEN,
    NGINX,
    TEMPLATE,
    Proxy,
    Site,
    wait_until,
)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    if not os.path.exists(NGINX):
        pytest.fail("nginx is not installed: `apt-get install nginx` (.ci/run does)")
    folder = tmp_path_factory.mktemp("proxy")
    if POSTGRES_URL:
        _reset_postgres(POSTGRES_URL)
        database_url = POSTGRES_URL
    else:
        database_url = f"sqlite:///{folder / 'pyramid.db'}"
        migrate(database_url)
    built = Site(folder, database_url)
    try:
        built.both_apps()
        built.proxy.start()
        yield built
    finally:
        built.close()


@pytest.fixture
def up(site: Site) -> Site:
    """The site with both app processes running, and its proxy running: a test before this
    one may have stopped any of them."""
    site.both_apps()
    if site.proxy.process is None or site.proxy.process.poll() is not None:
        site.proxy.start()
    return site


@pytest.fixture
def own_proxy(site: Site, tmp_path) -> Iterator[Proxy]:
    """A proxy of its own in front of the same apps: its per-address counts start from
    nothing, whatever the other tests sent."""
    site.both_apps()
    proxy = Proxy(tmp_path / "own", site.cert, site.key, site.proxy.apps)
    proxy.start()
    yield proxy
    proxy.stop()


def test_plain_http_only_redirects_to_https(up):
    answer = httpx.get(up.proxy.http_base + "/odds", follow_redirects=False)
    assert answer.status_code == 308 and answer.headers["location"] == up.proxy.base + "/odds"


def test_a_game_through_the_api_over_tls(up):
    with up.proxy.client() as client:
        created = client.post("/api/games", json={"deal": 617, "goal": "wholedeck"})
        assert created.status_code == 201
        assert "secure" in created.headers["set-cookie"].lower()
        game = created.json()
        version = created.headers["etag"]
        for move in ({"op": "remove", "cards": ["KD"]}, {"op": "draw"}):
            answer = client.post(f"/api/games/{game['id']}/moves", json=move,
                                 headers={"If-Match": version})
            assert answer.status_code == 200, answer.text
            version = answer.headers["etag"]
        state = client.get(f"/api/games/{game['id']}").json()
        assert state["moves"] == [{"op": "remove", "cards": ["KD"]}, {"op": "draw"}]
        # Share links carry the public origin, from BASE_URL behind the proxy.
        page = client.get(f"/games/{game['id']}").text
        assert f'href="{up.proxy.base}/deal/617?goal=wholedeck' in page
        assert client.get("/healthz").headers.get("strict-transport-security")


@contextmanager
def browser(proxy: Proxy) -> Iterator[tuple[httpx.Client, str]]:
    """A client that has loaded the home page (its cookie), and the page's CSRF token."""
    with proxy.client() as client:
        home = client.get("/")
        yield client, re.search(r'name="csrf-token" content="([0-9a-f]+)"', home.text).group(1)


def test_the_pages_forms_work_through_the_proxy(up):
    """A browser's post: Origin is the public https origin, which the app can only accept
    because BASE_URL says so (it speaks plain HTTP to the proxy)."""
    with browser(up.proxy) as (client, token):
        started = client.post("/games", data={"deal": "5", "goal": "standard", "passes": "3",
                                              "csrf_token": token},
                              headers={"Origin": up.proxy.base, "Sec-Fetch-Site": "same-origin"},
                              follow_redirects=False)
        assert started.status_code == 303, started.text
        board = client.get(started.headers["location"])
        assert board.status_code == 200 and 'data-status="playing"' in board.text
        forged = client.post("/games", data={"deal": "6", "csrf_token": token},
                             headers={"Origin": "https://evil.example"})
        assert forged.status_code == 403


def tls_socket(proxy: Proxy) -> ssl.SSLSocket:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    sock = socket.create_connection(("localhost", proxy.https_port))
    return context.wrap_socket(sock, server_hostname="localhost")


def closes_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> float:
    """Send ``trickle`` now and then until the other side closes; how long that took."""
    began = time.monotonic()
    sock.settimeout(0.25)
    while time.monotonic() - began < seconds:
        try:
            if trickle:
                sock.sendall(trickle)
            if not sock.recv(4096):
                return time.monotonic() - began
        except (TimeoutError, ssl.SSLWantReadError):
            continue
        except (OSError, ssl.SSLError):
            return time.monotonic() - began
    raise AssertionError(f"the connection was still open after {seconds} s")


def test_stalled_clients_are_cut_off_while_players_play(up):
    """nginx's timeouts run between two reads: a head or a body that stalls for
    CLIENT_TIMEOUT is cut off. One that trickles on is held by nginx alone (it reads a whole
    body before passing it on), so it costs the app processes nothing."""
    sockets = [tls_socket(up.proxy) for _ in range(40)]
    try:
        for sock in sockets[:15]:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: local")  # a head that never ends
        for sock in sockets[15:]:
            sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: "
                         b"application/json\r\nContent-Length: 500\r\n\r\n{")  # a body
        began = time.monotonic()
        with up.proxy.client() as client:  # meanwhile, players are answered at once
            for _ in range(5):
                made = client.post("/api/games", json={"deal": 9})
                assert made.status_code == 201
            # Trickling bodies never reach an app process: it answers as if they were not.
            for address in APP_ADDRESSES:
                assert httpx.get(up.app_url(address) + "/healthz", timeout=2).status_code == 200
        assert time.monotonic() - began < CLIENT_TIMEOUT
        for sock in (sockets[0], sockets[14], sockets[20], sockets[39]):
            assert closes_within(sock, CLIENT_TIMEOUT + 4) <= CLIENT_TIMEOUT + 3
        trickling = tls_socket(up.proxy)
        trickling.sendall(b"POST /api/games HTTP/1.1\r\nHost: localhost\r\n"
                          b"Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n")
        with pytest.raises(AssertionError, match="still open"):
            closes_within(trickling, CLIENT_TIMEOUT + 1, trickle=b" ")
        trickling.close()
    finally:
        for sock in sockets:
            sock.close()


def test_the_game_goes_on_at_once_when_one_app_process_stops(up):
    """A process gone inside a container that is still up: its address refuses connections.
    Every request, moves included, goes to the other at once."""
    with up.proxy.client() as client:
        game = client.post("/api/games", json={"deal": 11}).json()
        # The app this player is kept on (their cookie's hash): the one to stop.
        seen = client.get(f"/api/games/{game['id']}")
        served = up.proxy.upstream_of(seen.headers["x-request-id"]).split(":")[0]
        up.stop_app(served)
        for _ in range(8):
            began = time.monotonic()
            read = client.get(f"/api/games/{game['id']}")
            assert read.status_code == 200 and read.json()["id"] == game["id"]
            assert time.monotonic() - began < 1
        for count in range(1, 5):
            began = time.monotonic()
            moved = client.post(f"/api/games/{game['id']}/moves", json={"op": "draw"})
            assert moved.status_code == 200 and moved.json()["waste"]["count"] == count
            assert time.monotonic() - began < 1


def test_the_proxy_starts_and_serves_while_one_app_is_gone(up):
    """A stopped container's name is gone from the DNS: nginx used to refuse to start ("host
    not found in upstream") and take the whole site down. It knows the apps by address now:
    it starts, serves through the other app, answers 502 (and keeps running) while none is
    there, and finds an app that comes back without a restart."""
    up.stop_app(APP_ADDRESSES[1])
    up.proxy.restart()
    with up.proxy.client() as client:
        for _ in range(6):
            assert client.get("/healthz").status_code == 200
        up.stop_app(APP_ADDRESSES[0])
        up.proxy.restart()
        assert client.get("/healthz").status_code == 502
        up.start_app(APP_ADDRESSES[1])
        wait_until(lambda: client.get("/healthz").status_code == 200,
                   "the proxy finding the app that came back")
        assert up.proxy.process.poll() is None


class HalfDeadApp:
    """An app process that dies with each request: it reads the request, notes it, and closes
    the connection without answering."""

    def __init__(self, address: str, port: int) -> None:
        self.seen: list[tuple[str, str]] = []  # (method, X-Request-ID)
        self.server = socket.create_server((address, port))
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                head = b""
                while b"\r\n\r\n" not in head:
                    chunk = conn.recv(4096)
                    if not chunk:
                        break
                    head += chunk
                text = head.decode("latin-1")
                found = re.search(r"(?im)^x-request-id: *(\S+)", text)
                self.seen.append((text.split(" ", 1)[0], found.group(1) if found else ""))

    def close(self) -> None:
        self.server.close()


def test_a_request_sent_to_an_app_that_died_moves_only_if_it_can_be_repeated(site, tmp_path):
    """One of the two apps dies with each request it reads; the other lives. A POST that met
    the dead one is not sent on (502): it may have been carried out, and no POST ever reaches
    both. A GET that met it is sent on to the live one. Either way the dead one is then left
    out: the next requests all go to the live one. And an address that refuses the connection
    (no process there) never held a request: a POST moves on from it at once. (Each request
    comes without a cookie, so the proxy may send it to either app.)"""
    site.both_apps()
    dead = HalfDeadApp("127.0.0.3", site.app_port)
    live = f"{APP_ADDRESSES[0]}:{site.app_port}"
    flaky = Proxy(tmp_path / "flaky", site.cert, site.key, (f"127.0.0.3:{site.app_port}", live))
    refusing = Proxy(tmp_path / "refusing", site.cert, site.key,
                     (f"127.0.0.4:{site.app_port}", live))

    def until_the_dead_one_sees(method: str) -> list[httpx.Response]:
        """Requests without a cookie until one reaches the dead app, then 8 more."""
        answers = []
        with flaky.client() as client:
            while not any(seen == method for seen, _rid in dead.seen):
                assert len(answers) < 40, "the proxy never chose the dead app"
                client.cookies.clear()
                answers.append(client.request(method, "/api/games", json={"deal": 3})
                               if method == "POST" else client.get("/healthz"))
            for _ in range(8):
                client.cookies.clear()
                answers.append(client.request(method, "/api/games", json={"deal": 3})
                               if method == "POST" else client.get("/healthz"))
        return answers

    try:
        flaky.start()
        posts = until_the_dead_one_sees("POST")
        assert [a.status_code for a in posts].count(502) == 1
        assert {a.status_code for a in posts} == {201, 502}
        (failed,) = [a.headers["x-request-id"] for a in posts if a.status_code == 502]
        assert [rid for method, rid in dead.seen] == [failed]  # and it was left out after
        flaky.restart()  # a fresh proxy: the dead app is in the rotation again
        gets = until_the_dead_one_sees("GET")
        assert all(answer.status_code == 200 for answer in gets)
        assert [method for method, _rid in dead.seen] == ["POST", "GET"]
        wait_until(lambda: len(site.app_lines()) > 0, "the app's log")
        app_ids = {line.get("request_id") for line in site.app_lines()}
        assert failed not in app_ids, "a POST reached both apps"
        assert dead.seen[1][1] in app_ids  # the GET was sent on, and answered
        refusing.start()
        with refusing.client() as client:
            for _ in range(8):
                client.cookies.clear()
                began = time.monotonic()
                assert client.post("/api/games", json={"deal": 4}).status_code == 201
                assert time.monotonic() - began < 1
    finally:
        flaky.stop()
        refusing.stop()
        dead.close()


@contextmanager
def hung(site: Site, address: str) -> Iterator[None]:
    """The app process at ``address`` stopped (SIGSTOP) as a paused container is: its address
    still accepts connections, and nothing answers them. Woken up after."""
    process = site.apps[address]
    os.kill(process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(process.pid, signal.SIGCONT)


def test_a_hung_app_leaves_the_rotation_within_seconds(site, tmp_path):
    """A player on the app that hangs: their first request waits the proxy's read timeout (5
    s), then the hung app is left out and every request goes to the other at once. A read is
    answered anyway; a move with its version (If-Match) too, played once, even after the hung
    app wakes up with it; a move without one gets 504 (it may have been played)."""
    site.both_apps()
    proxy = Proxy(tmp_path / "hung", site.cert, site.key, site.proxy.apps)
    proxy.start()
    try:
        with proxy.client() as client:
            created = client.post("/api/games", json={"deal": 21})
            game_id, version = created.json()["id"], created.headers["etag"]
            # The app this player is kept on, now that they have a cookie.
            seen = client.get(f"/api/games/{game_id}")
            kept_on = proxy.upstream_of(seen.headers["x-request-id"]).split(":")[0]
            with hung(site, kept_on):
                waits = []
                for _ in range(10):
                    began = time.monotonic()
                    read = client.get(f"/api/games/{game_id}")
                    waits.append(time.monotonic() - began)
                    assert read.status_code == 200 and read.json()["id"] == game_id
                print(f"\nreads while an app hangs: {', '.join(f'{w:.2f}' for w in waits)} s")
                assert 4.5 < waits[0] < 8  # the read timeout, then the other app
                assert max(waits[1:]) < 1  # left out: no request waits for it
            proxy.restart()  # the hung app is in the rotation again: the move meets it first
            with hung(site, kept_on):
                began = time.monotonic()
                moved = client.post(f"/api/games/{game_id}/moves", json={"op": "draw"},
                                    headers={"If-Match": version})
                took = time.monotonic() - began
            assert moved.status_code == 200, moved.text
            assert 4.5 < took < 8
            print(f"a versioned move sent to the hung app: answered in {took:.2f} s")
            # The hung app, awake, reads the move it was sent: its version refuses it.
            wait_until(lambda: any(line.get("status") == 412 and game_id in line.get("path", "")
                                   for line in site.app_lines()), "the woken app's 412")
            assert client.get(f"/api/games/{game_id}").json()["moves"] == [{"op": "draw"}]
            proxy.restart()
            with hung(site, kept_on):
                unversioned = client.post(f"/api/games/{game_id}/moves", json={"op": "draw"})
            assert unversioned.status_code == 504
    finally:
        proxy.stop()


def test_the_app_sees_the_client_and_the_proxys_request_id(up):
    """The proxy is the edge: it sets X-Forwarded-For to the peer it sees. The apps believe
    that header from any peer (TRUSTED_PROXIES=*, as in compose.yaml), so if the proxy appended
    to a client's own, the app would record the client's leftmost claim (1.2.3.4) as its
    address, and every per-address limit with it. The request id is the proxy's, in its log,
    the app's log, and the answer."""
    claims = ("1.2.3.4", "1.2.3.4, 5.6.7.8", "unknown, 1.2.3.4")
    ids = []
    with up.proxy.client() as client:
        for claim in claims:
            answer = client.get("/healthz", headers={"X-Forwarded-For": claim,
                                                    "X-Request-ID": "chosen-by-the-client"})
            ids.append(answer.headers["x-request-id"])
        # Two headers of it, too (uvicorn joins them).
        answer = client.get("/healthz", headers=[("X-Forwarded-For", "1.2.3.4"),
                                                 ("X-Forwarded-For", "5.6.7.8")])
        ids.append(answer.headers["x-request-id"])
    for request_id in ids:
        assert re.fullmatch(r"[0-9a-f]{32}", request_id)
    wait_until(lambda: {line.get("request_id") for line in up.app_lines()} >= set(ids),
               "the app's access lines")
    for request_id in ids:
        (line,) = [line for line in up.app_lines() if line.get("request_id") == request_id]
        assert line["client"] == "127.0.0.1" and line["route"] == "/healthz"
        assert line["status"] == 200 and line["logger"] == "pyramid.access"
        (edge,) = [line for line in up.proxy.access_lines() if line["request_id"] == request_id]
        assert edge["client"] == "127.0.0.1" and edge["status"] == 200


def test_a_trusted_hops_request_id_is_kept(site, tmp_path):
    """Behind a load balancer named in TRUSTED_HOP, its X-Request-ID goes on to the app and
    into both logs, when it is a safe one (else nginx's own); from any other peer it is
    replaced (above)."""
    site.both_apps()
    proxy = Proxy(tmp_path / "behind", site.cert, site.key, site.proxy.apps,
                  trusted_hop="127.0.0.1/32")
    proxy.start()
    try:
        with proxy.client() as client:
            kept = client.get("/healthz", headers={"X-Request-ID": "lb-7f3a.2:9"})
            unsafe = client.get("/healthz", headers={"X-Request-ID": "two words"})
    finally:
        proxy.stop()
    assert kept.headers["x-request-id"] == "lb-7f3a.2:9"
    assert re.fullmatch(r"[0-9a-f]{32}", unsafe.headers["x-request-id"])
    wait_until(lambda: any(line.get("request_id") == "lb-7f3a.2:9" for line in site.app_lines()),
               "the app's access line")
    assert [line["request_id"] for line in proxy.access_lines() if line["uri"] == "/healthz"] == [
        "lb-7f3a.2:9", unsafe.headers["x-request-id"]]


def test_metrics_are_for_scrapers_that_reach_an_app_not_for_the_public(up):
    with up.proxy.client() as client:
        assert client.get("/metrics", headers={
            "Authorization": f"Bearer {METRICS_TOKEN}"}).status_code == 404
    direct = httpx.get(up.app_url(APP_ADDRESSES[0]) + "/metrics",
                       headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    assert direct.status_code == 200
    assert "pyramid_http_request_duration_seconds_bucket" in direct.text


def test_a_device_links_secret_is_in_no_log(up):
    secret = "Zq8cWv2Lr5tY7uI9oP3aS6dF1gH4jK0l"
    with up.proxy.client() as client:
        assert client.get(f"/link/{secret}").status_code == 404
    wait_until(lambda: any(line.get("route") == "/link/{secret}" for line in up.app_lines()),
               "the app's access line")
    logs = "".join(path.read_text() for path in up.folder.rglob("*.log"))
    assert "/link/<secret>" in logs and secret not in logs


def import_file(client: httpx.Client, origin: str, token: str, content: bytes,
                **headers: str) -> httpx.Response:
    """A browser's import form sent with ``content`` as its file."""
    return client.post("/stats/import", data={"csrf_token": token},
                       files={"file": ("games.json", content, "application/json")},
                       headers={"Origin": origin, **headers}, follow_redirects=False)


def test_an_import_of_a_megabyte_gets_through(up, tmp_path):
    """The proxy's body limit for other requests (MAX_BODY_BYTES, 64 KiB) refused imports of
    more than about 110 games with 413. /stats/import takes the app's own limit (IMPORT_MAX_MB,
    8 MiB, the same variable for both): an export of 300 games, pretty-printed to over 1 MB
    (as an editor may save it), is imported whole."""
    with browser(up.proxy) as (client, token):
        # An export imports into its own player only: the browser's.
        exported = json.loads(export_of_games(tmp_path, 300, player_of(client)))
        indent = 2
        while len(pretty := json.dumps(exported, indent=indent).encode()) < 1_000_000:
            indent *= 2
        assert 1_000_000 <= len(pretty) < 8 * 1024 * 1024
        answer = import_file(client, up.proxy.base, token, pretty)
        # Answered at once (a slow import through the proxy could answer 504 though
        # it completed); the statistics page, through the proxy, says how it ended.
        assert answer.status_code == 202, answer.text[:300]
        ended: list = []
        wait_until(lambda: ended.append(re.search(
            r'data-import-progress="(?:done|refused)"[^>]*>([^<]*)<',
            client.get("/stats").text)) or ended[-1], "the import to end", seconds=120)
    assert "Imported 300 games." in ended[-1].group(1), ended[-1].group(0)


def test_an_import_over_the_limit_gets_a_clear_page_whoever_refuses_it(up):
    """A file over the limit is refused by the proxy (the whole request is over its
    client_max_body_size) or by the app: either way the player reads why, in their language,
    on the app's page, never nginx's bare 413."""
    too_large = b" " * (9 * 1024 * 1024)
    with browser(up.proxy) as (client, token):
        for language, title, reason in (
                ("en", "This file cannot be imported", "The file is over 8 MB."),
                ("fr", "Ce fichier ne peut pas être importé", "Le fichier dépasse 8 Mo.")):
            answer = import_file(client, up.proxy.base, token, too_large,
                                 **{"Accept-Language": language})
            assert answer.status_code == 413
            assert "nginx" not in answer.text
            assert title in answer.text and reason in answer.text, answer.text[:500]
            assert f'lang="{language}"' in answer.text
            assert re.fullmatch(r"[0-9a-f]{32}", answer.headers["x-request-id"])
        # The app alone (reached directly, no proxy in front) says the same.
        with httpx.Client(base_url=up.app_url(APP_ADDRESSES[0]), headers={"Host": "localhost"},
                          cookies=client.cookies) as direct:
            answer = import_file(direct, up.proxy.base, token, too_large)
        assert answer.status_code == 413
        assert "This file cannot be imported" in answer.text
        assert "The file is over 8 MB." in answer.text


def player_of(client: httpx.Client) -> str:
    """The player id the site's cookie gives ``client``."""
    from itsdangerous import URLSafeSerializer

    from app.web.core.player import SALT
    from tests.deploy.proxysite import SECRET

    serializer = URLSafeSerializer(SECRET, salt=SALT)
    for value in client.cookies.values():
        with contextlib.suppress(Exception):
            claim = serializer.loads(value)
            return claim if isinstance(claim, str) else claim[0]
    raise AssertionError("no player cookie")


def export_of_games(folder, count: int, player_id: str) -> bytes:
    """A signed export (the app's own format and key) of ``count`` ended games of
    ``player_id``."""
    from app.engine import Deal, Game, Goal
    from app.store import Database, create_game, mark_abandoned, save_position
    from app.web.services.gamesfile import export_json
    from tests.deploy.proxysite import SECRET

    url = f"sqlite:///{folder / 'exporter.db'}"
    migrate(url)
    database = Database(url)
    try:
        with database.session() as session:
            for number in range(1, count + 1):
                record = create_game(session, player_id, Deal.from_number(number),
                                     Goal.STANDARD, 3)
                game = Game(Deal.from_number(number), Goal.STANDARD, 3)
                game.play(game.legal_moves[-1])
                save_position(session, record, game)
                mark_abandoned(session, record)
    finally:
        database.dispose()
    done = export_json(url, player_id, SECRET, "https://localhost/games/GAME-ID/replay")
    try:
        with open(done.path, "rb") as file:
            return file.read()
    finally:
        os.unlink(done.path)


def is_the_proxys_429(answer: httpx.Response) -> bool:
    """nginx's own 429 (its HTML page), not the app's (JSON, or the app's page)."""
    return answer.status_code == 429 and "<center>nginx</center>" in answer.text


def says_when_to_come_back(answer: httpx.Response) -> bool:
    """A 429 with a Retry-After of a whole number of seconds, at least one."""
    retry_after = answer.headers.get("retry-after", "")
    return answer.status_code == 429 and retry_after.isdigit() and int(retry_after) >= 1


def test_a_crowd_behind_one_address_gets_through(own_proxy):
    """100 players behind one address (a school's NAT), each with a connection of its own,
    start a game and play: none is refused for sharing the address (64 connections an
    address once gave 32 of them a 503)."""

    def player(_: int) -> list[int]:
        with own_proxy.client() as client:
            statuses = [client.get("/healthz").status_code]
            made = client.post("/api/games", json={"deal": 21})
            statuses.append(made.status_code)
            if made.status_code == 201:
                game = made.json()["id"]
                statuses.append(client.post(f"/api/games/{game}/moves",
                                            json={"op": "draw"}).status_code)
                statuses.append(client.get(f"/api/games/{game}").status_code)
            return statuses

    with ThreadPoolExecutor(100) as pool:
        statuses = [status for answers in pool.map(player, range(100)) for status in answers]
    assert len(statuses) == 400 and set(statuses) == {200, 201}


def test_a_class_asking_for_hints_at_once_is_served_or_told_when_to_come_back(own_proxy):
    """100 players behind one address ask for a hint at the same moment, each on a connection
    of its own: each gets the hint, or a 429 that says when to ask again (the solver busy);
    never a 5xx, never a refusal that leaves the player guessing."""
    together = threading.Barrier(100, timeout=30)

    def player(_: int) -> httpx.Response:
        with own_proxy.client() as client:
            game = client.post("/api/games", json={"deal": 21}).json()["id"]
            together.wait()
            return client.post(f"/api/games/{game}/hint")

    with ThreadPoolExecutor(100) as pool:
        answers = list(pool.map(player, range(100)))
    hinted = [answer for answer in answers if answer.status_code == 200]
    assert hinted, "no one got a hint"
    refused = [answer for answer in answers if answer.status_code != 200]
    assert all(says_when_to_come_back(answer) for answer in refused), \
        sorted((a.status_code, a.headers.get("retry-after")) for a in refused)


def test_the_costly_requests_of_one_address_are_held_to_a_rate(own_proxy):
    """Hints (a search each) and new games past their burst get nginx's 429, with a
    Retry-After, before they reach an app; the other requests of the same address go on."""

    def flood(path: str, count: int) -> tuple[list[httpx.Response], float]:
        began = time.monotonic()
        with own_proxy.client() as client, ThreadPoolExecutor(20) as pool:
            answers = list(pool.map(lambda _: client.post(path, json={"deal": 1}),
                                    range(count)))
        return answers, time.monotonic() - began

    hints, seconds = flood("/api/games/no-such-game/hint", 320)
    passed = [a for a in hints if not is_the_proxys_429(a)]
    assert any(is_the_proxys_429(a) for a in hints)
    assert all(says_when_to_come_back(a) for a in hints if is_the_proxys_429(a))
    bursts = dict(re.findall(r"limit_req zone=(\w+) burst=(\d+)", TEMPLATE.read_text()))
    # burst + rate x time, in the template
    assert len(passed) <= int(bursts["pyramid_search"]) + 20 * seconds + 5
    assert {a.status_code for a in passed} <= {403, 404}  # the app's own answer
    assert all("," not in a.headers.get("retry-after", "") for a in hints)  # one, never two
    games, seconds = flood("/api/games", 320)
    assert any(is_the_proxys_429(a) for a in games)
    assert all(says_when_to_come_back(a) for a in games if a.status_code == 429)
    assert len([a for a in games if a.status_code == 201]) <= (
        int(bursts["pyramid_new_game"]) + 10 * seconds + 5)
    with own_proxy.client() as client:
        assert client.get("/api/deals/7/verdict").status_code == 200
        assert client.get("/healthz").status_code == 200


def test_a_race_stream_comes_through_unbuffered(up):
    """A race's events arrive through the proxy as they are written, each with its id, on a
    stream held open (``location ~ ^/races/[^/]+/events$``)."""
    with up.proxy.client() as creator, up.proxy.client() as friend, \
            up.proxy.client() as watcher:
        key = creator.post("/api/races", json={}).json()["key"]
        with watcher.stream("GET", f"/races/{key}/events") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            first = next(line for line in lines if line.startswith("id: "))
            assert friend.post(f"/api/races/{key}/join").status_code == 200
            second = next(line for line in lines if line.startswith("id: "))
            assert int(second[4:]) == int(first[4:]) + 1


@pytest.mark.skipif(not POSTGRES_URL, reason="races cross processes through PostgreSQL "
                    "(TEST_DATABASE_URL); on SQLite the app runs as one process")
def test_two_racers_and_a_watcher_in_browsers_across_both_apps(up):
    """What a group of friends does, through the shipped proxy in front of two app processes
    on PostgreSQL: each browser is a player of its own, kept on one app by its cookie, so a
    move saved by one process reaches the strips streamed by the other (LISTEN/NOTIFY). One
    racer on a phone."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import chromium_or_reason

    executable, why_not = chromium_or_reason()
    if executable is None:
        pytest.skip(why_not)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            pages = []
            for viewport in ({"width": 1280, "height": 860}, {"width": 390, "height": 844},
                             {"width": 1024, "height": 768}):
                context = browser.new_context(viewport=viewport, base_url=up.proxy.base,
                                              ignore_https_errors=True, reduced_motion="reduce",
                                              has_touch=viewport["width"] < 500)
                page = context.new_page()
                page.set_default_timeout(20_000)
                pages.append(page)
            creator, racer, watcher = pages
            apps = up.proxy.apps
            for page, app in zip(pages, (apps[0], apps[1], apps[0]), strict=True):
                kept_on(up, page, app)
            creator.goto("/")
            creator.click('[data-action="race"]')
            creator.wait_for_url("**/races/*")
            racer.goto(creator.url)
            racer.click('[data-action="join"]')
            racer.wait_for_selector("[data-racer='2'].is-you")
            watcher.goto(creator.url)
            creator.wait_for_selector("[data-racer='2']")  # the join, through the stream
            creator.click('[data-action="start"]')
            creator.wait_for_url("**/games/*")
            racer.wait_for_url("**/games/*")
            racer.wait_for_selector("[data-race] [data-racer='1']")
            racer.keyboard.press("d")  # on the phone: the others' strips show it
            creator.wait_for_selector("[data-race] [data-racer='2'][data-moves='1']")
            watcher.wait_for_selector("[data-race] [data-racer='2'][data-moves='1']")
            creator.keyboard.press("d")
            racer.wait_for_selector("[data-race] [data-racer='1'][data-moves='1']")
            watcher.wait_for_selector("[data-race] [data-racer='1'][data-moves='1']")
            key = watcher.url.rsplit("/", 1)[1]
            shown = watcher.request.get(f"/api/races/{key}").json()
            assert shown["status"] == "running"
            assert sorted(r["moves"] for r in shown["racers"]) == [1, 1]
            for page, app in zip(pages, (apps[0], apps[1], apps[0]), strict=True):
                answer = page.request.get(f"/races/{key}")  # each still on its own app
                assert up.proxy.upstream_of(answer.headers["x-request-id"]) == app
        finally:
            browser.close()


def kept_on(site: Site, page, app: str) -> None:
    """Make ``page``'s browser a player the proxy keeps on ``app`` (it keeps a player on one
    app by the player's cookie): new players until one lands there."""
    for _ in range(40):
        page.context.clear_cookies()
        page.request.get("/healthz")  # no cookie yet: wherever; the answer brings one
        page.request.get("/")
        answer = page.request.get("/rules")
        if site.proxy.upstream_of(answer.headers["x-request-id"]) == app:
            return
    raise AssertionError(f"no new player was kept on {app}")
