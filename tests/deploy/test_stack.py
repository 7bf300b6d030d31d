"""``deploy/compose.yaml`` as an operator runs it (podman-compose; ``make test-deploy``): the
stack comes up in order (db healthy, migrate done, both apps healthy, then the proxy, whose
first answer is a 200), a player plays through the proxy while one app's process is killed
with SIGKILL, the other app is stopped and the proxy restarted, and every move the player was
told was played is in the game. PostgreSQL is backed up and restored with the commands
docs/deploy.md gives; /metrics reaches a scraper on the network and not the public; both
sides log JSON with the same request id; ``down -v`` leaves nothing behind.

podman-compose under podman 4.3 ignores the health conditions of ``depends_on`` (and there is
no systemd to run health checks on a timer): the stack is started service by service, each
once the one before is healthy, as docs/deploy.md tells podman users to."""

from __future__ import annotations

import json
import random
import secrets
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.deploy.containers import PROJECT_DIR, Podman, named
from tests.deploy.proxysite import free_port

pytestmark = pytest.mark.containers

COMPOSE_FILE = PROJECT_DIR / "deploy" / "compose.yaml"
TOKEN = "stack-test-metrics-token-0123456789"
UP_WITHIN = 120.0


def podman_compose() -> list[str]:
    found = shutil.which("podman-compose") or str(Path(sys.executable).parent / "podman-compose")
    assert Path(found).exists(), "podman-compose is not installed: pip install -e '.[deploy]'"
    return [found]


def wait_for(check, what: str, seconds: float = UP_WITHIN) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {seconds:g} s")
        time.sleep(0.2)


class Stack:
    """compose.yaml as project ``pyramid-test-<run>-stack``, published on free ports of
    127.0.0.1, with a throwaway certificate for localhost."""

    def __init__(self, podman: Podman, images: dict[str, str], folder: Path) -> None:
        self.podman, self.project = podman, named("stack")
        certs = folder / "certs"
        certs.mkdir()
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                        "1", "-subj", "/CN=localhost", "-keyout", str(certs / "privkey.pem"),
                        "-out", str(certs / "fullchain.pem")], check=True, capture_output=True)
        self.https_port = free_port()
        self.base = f"https://localhost:{self.https_port}"
        self.env_file = folder / "stack.env"
        # A subnet of the run's own (two runs on one machine never meet), and the apps'
        # fixed addresses in it.
        subnet = f"10.213.{random.randrange(256)}"
        self.addresses = {"app1": f"{subnet}.11", "app2": f"{subnet}.12"}
        self.env_file.write_text("".join(f"{name}={value}\n" for name, value in {
            "STACK_SUBNET": f"{subnet}.0/24", "APP1_ADDRESS": self.addresses["app1"],
            "APP2_ADDRESS": self.addresses["app2"],
            "PUBLIC_NAME": "localhost", "SECRET_KEY": secrets.token_urlsafe(32),
            "POSTGRES_PASSWORD": secrets.token_urlsafe(16), "METRICS_TOKEN": TOKEN,
            "HTTP_PUBLISH": f"127.0.0.1:{free_port()}",
            "HTTPS_PUBLISH": f"127.0.0.1:{self.https_port}", "CERTS_DIR": str(certs),
            **images}.items()))

    def compose(self, *args: str, stdin: bytes | None = None, timeout: float = 300,
                check: bool = True) -> subprocess.CompletedProcess[bytes]:
        done = subprocess.run([*podman_compose(), "-f", str(COMPOSE_FILE), "-p", self.project,
                               "--env-file", str(self.env_file), *args],
                              env=self.podman.env, input=stdin, capture_output=True,
                              timeout=timeout)
        if check and done.returncode != 0:
            raise AssertionError(f"podman-compose {' '.join(args)} failed: "
                                 f"{done.stderr.decode(errors='replace')[-2000:]}")
        return done

    def container(self, service: str) -> str:
        return self.podman.text(
            "ps", "-a", "--filter", f"label=com.docker.compose.project={self.project}",
            "--filter", f"label=com.docker.compose.service={service}", "--format", "{{.Names}}")

    def start(self, *services: str) -> None:
        self.compose("up", "-d", "--no-deps", *services)

    def healthy(self, *services: str) -> None:
        for service in services:
            wait_for(lambda service=service: self.podman.healthy(self.container(service)),
                     f"{service} healthy")

    def up(self) -> None:
        """db, then migrate (to its end), then app1 and app2, then the proxy: each once the
        one before is healthy, as compose.yaml's depends_on says."""
        self.start("db")
        self.healthy("db")
        self.start("migrate")
        migrate = self.container("migrate")
        status = self.podman.text("wait", migrate, timeout=UP_WITHIN)
        assert status == "0", self.podman("logs", migrate).stderr.decode()[-2000:]
        self.start("app1", "app2")
        self.healthy("app1", "app2")
        self.start("proxy")

    def logs(self, service: str) -> list[dict]:
        done = self.podman("logs", self.container(service))
        lines = (done.stdout + done.stderr).decode(errors="replace").splitlines()
        return [json.loads(line) for line in lines if line.startswith("{")]

    def client(self, timeout: float = 15) -> httpx.Client:
        return httpx.Client(base_url=self.base, verify=False, timeout=timeout)

    def in_rotation(self, service: str) -> None:
        """Wait until the proxy passes requests to ``service`` again: an app it found down
        is left out for fail_timeout (10 s) after it is back, whatever its health check says,
        and a test that then takes the other app away would find no app at all."""
        address = f"{self.addresses[service]}:8000"

        def served() -> bool:
            sent = set()
            for _ in range(4):  # no player cookie: each request may go to either app
                with self.client() as client:
                    sent.add(client.get("/rules").headers.get("x-request-id"))
            return any(line.get("request_id") in sent and line.get("upstream") == address
                       and str(line.get("upstream_status")) == "200"
                       for line in self.logs("proxy"))

        wait_for(served, f"the proxy passing requests to {service}", seconds=60)


@pytest.fixture(scope="module")
def stack(podman: Podman, images: dict[str, str], tmp_path_factory) -> Iterator[Stack]:
    built = Stack(podman, images, tmp_path_factory.mktemp("stack"))
    volumes_before = set(podman.text("volume", "ls", "--quiet").split())
    try:
        began = time.monotonic()
        built.up()
        first = None
        while first is None and time.monotonic() - began < UP_WITHIN:
            try:
                first = httpx.get(built.base + "/healthz", verify=False, timeout=5)
            except httpx.TransportError:
                time.sleep(0.1)  # nginx not listening yet
        # The proxy started after the apps were healthy: its first answer is theirs.
        assert first is not None and first.status_code == 200, first
        print(f"\nthe stack up in {time.monotonic() - began:.0f} s")
        yield built
    finally:
        # The documented end of it: down -v removes the containers, the network and the
        # database's volume, and no service left an anonymous volume.
        built.compose("down", "-v", "--timeout", "10", check=False)
        left = [name for name in podman.leftovers() if built.project in name]
        volumes_after = set(podman.text("volume", "ls", "--quiet").split())
        assert not left and volumes_after <= volumes_before, (left, volumes_after)


class Player:
    """Plays through the proxy without pause, on a thread: each move with If-Match, so a move
    sent again after an error can never be played twice. A move the proxy or an app failed
    to answer is looked up: the game's version says whether it was played. Every move the
    player was told was played (or found played) is kept, by game."""

    def __init__(self, stack: Stack) -> None:
        # A move takes milliseconds: one unanswered for 5 s went to a proxy or an app that is
        # gone (it is looked up, as any other failure).
        self.client = stack.client(timeout=5)
        self.acknowledged: dict[str, list[dict]] = {}
        self.errors: list[str] = []
        self.phase = "before the kill"
        """What the test is doing to the stack: each error is noted with it."""
        self.stopping = threading.Event()
        self.rng = random.Random(617)
        self.thread = threading.Thread(target=self.play, daemon=True)

    def played(self) -> int:
        return sum(len(moves) for moves in self.acknowledged.values())

    def new_game(self) -> tuple[str, dict, str]:
        made = self.client.post("/api/games", json={"deal": self.rng.randrange(1, 10**6),
                                                   "goal": "wholedeck"})
        made.raise_for_status()
        self.acknowledged[made.json()["id"]] = []
        return made.json()["id"], made.json(), made.headers["etag"]

    def play(self) -> None:
        game, state, version = self.retrying(self.new_game)
        while not self.stopping.is_set():
            if state["status"] != "playing":
                game, state, version = self.retrying(self.new_game)
                continue
            legal = state["legal_moves"]
            move = self.rng.choice([m for m in legal if m["op"] == "remove"] or legal)
            try:
                answer = self.client.post(f"/api/games/{game}/moves", json=move,
                                          headers={"If-Match": version})
            except httpx.TransportError as exc:
                answer = None
                self.errors.append(f"{type(exc).__name__} {self.phase}")
            if answer is not None and answer.status_code == 200:
                self.acknowledged[game].append(move)
                state, version = answer.json(), answer.headers["etag"]
                continue
            if answer is not None:
                self.errors.append(f"{answer.status_code} {self.phase}")
            state, version = self.retrying(lambda game=game: self.look(game))
            if state["moves"][:-1] == self.acknowledged[game] and state["moves"][-1:] == [move]:
                self.acknowledged[game].append(move)  # it was played: the answer was lost

    def look(self, game: str) -> tuple[dict, str]:
        read = self.client.get(f"/api/games/{game}")
        read.raise_for_status()
        return read.json(), read.headers["etag"]

    def retrying(self, attempt):
        """``attempt()`` until it works, while the site is down (or the proxy restarts)."""
        while True:
            try:
                return attempt()
            except httpx.HTTPStatusError as exc:
                status = exc.response.status_code
                self.errors.append(f"{status} {self.phase}")
                # 429: the player's own budget of new games (a game a few seconds here), which
                # says when to come back.
                time.sleep(float(exc.response.headers.get("retry-after", 0.1))
                           if status == 429 else 0.1)
            except httpx.HTTPError as exc:
                self.errors.append(f"{type(exc).__name__} {self.phase}")
                time.sleep(0.1)

    def more(self, moves: int, what: str) -> None:
        target = self.played() + moves
        wait_for(lambda: self.played() >= target, f"{moves} moves {what}", seconds=90)


def test_every_acknowledged_move_survives_a_killed_app_a_stopped_app_and_a_new_proxy(stack):
    player = Player(stack)
    player.thread.start()
    try:
        player.more(10, "before the kill")
        app1 = stack.container("app1")
        subprocess.run(["kill", "-9", str(stack.podman.host_pid(app1))], check=True)
        player.phase = "after app1's kill"
        player.more(10, "while app1 is down")
        # restart: unless-stopped brings it back.
        wait_for(lambda: stack.podman.healthy(app1), "app1 back after SIGKILL")
        restarts = stack.podman.text("inspect", "--format", "{{.RestartCount}}", app1)
        assert int(restarts) >= 1
        player.more(5, "with app1 back")
        player.phase = "stopping app2"
        stack.compose("stop", "--timeout", "10", "app2")
        player.phase = "restarting the proxy"
        stack.compose("restart", "proxy")
        player.phase = "after the proxy's restart"
        player.more(10, "through the restarted proxy, with app2 stopped")
    finally:
        player.stopping.set()
        player.thread.join(timeout=30)
    assert stack.podman.text("inspect", "--format", "{{.State.Running}}",
                             stack.container("app2")) == "false"
    with stack.client() as reader:
        for game, moves in player.acknowledged.items():
            stored = reader.get(f"/api/games/{game}").json()["moves"]
            assert stored == moves, f"game {game}: stored {len(stored)}, told {len(moves)}"
    print(f"\n{player.played()} moves in {len(player.acknowledged)} games; "
          f"errors seen by the player: {Counter(player.errors)}")
    slow = [line for line in stack.logs("proxy") if line.get("duration_s", 0) > 1]
    if slow:  # where the time went, when a request took long (a busy machine's disk, say)
        print(f"{len(slow)} requests over 1 s at the proxy, e.g. {slow[:3]}")
    stack.start("app2")  # for the tests after this one
    stack.healthy("app2")
    stack.in_rotation("app2")


def test_a_paused_app_leaves_the_rotation_within_seconds(stack):
    """`podman pause` on the app a player is kept on: the app accepts connections and answers
    nothing, and its health check fails. The player's first request waits the proxy's read
    timeout (5 s) and is answered by the other app; from then on every request, moves with
    their version included, is answered at once while the app stays paused."""
    with stack.client(timeout=15) as client:
        made = client.post("/api/games", json={"deal": 5})
        game, version = made.json()["id"], made.headers["etag"]
        seen = client.get(f"/api/games/{game}").headers["x-request-id"]
        wait_for(lambda: any(e.get("request_id") == seen for e in stack.logs("proxy")),
                 "the proxy's line", seconds=10)
        (line,) = [e for e in stack.logs("proxy") if e.get("request_id") == seen]
        service = next(name for name, address in stack.addresses.items()
                       if line["upstream"] == f"{address}:8000")
        paused = stack.container(service)
        stack.podman("pause", paused)
        try:
            waits, statuses = [], []
            for count in range(12):
                began = time.monotonic()
                if count % 2:
                    answer = client.post(f"/api/games/{game}/moves", json={"op": "draw"},
                                         headers={"If-Match": version})
                    version = answer.headers.get("etag", version)
                else:
                    answer = client.get(f"/api/games/{game}")
                waits.append(time.monotonic() - began)
                statuses.append(answer.status_code)
            unhealthy = not stack.podman.healthy(paused)
        finally:
            stack.podman("unpause", paused)
    print(f"\n{service} paused: the player's requests took "
          f"{', '.join(f'{w:.2f}' for w in waits)} s")
    assert statuses == [200] * 12
    assert waits[0] < 8 and max(waits[1:]) < 2
    assert unhealthy
    stack.healthy(service)


def test_postgresql_is_backed_up_and_restored_with_the_documented_commands(stack):
    with stack.client() as client:
        made = client.post("/api/games", json={"deal": 42})
        game = made.json()["id"]
        moves = f"/api/games/{game}/moves"
        assert client.post(moves, json={"op": "draw"}).status_code == 200
        # docs/deploy.md: compose exec -T db pg_dump -U pyramid --format=custom pyramid > FILE
        dump = stack.compose("exec", "-T", "db", "pg_dump", "-U", "pyramid",
                             "--format=custom", "pyramid").stdout
        assert dump.startswith(b"PGDMP")  # pg_dump's custom format, and nothing else
        for _ in range(3):
            assert client.post(moves, json={"op": "draw"}).status_code == 200
        later = client.post("/api/games", json={"deal": 43}).json()["id"]
        stack.compose("exec", "-T", "db", "pg_restore", "-U", "pyramid", "-d", "pyramid",
                      "--clean", "--if-exists", "--single-transaction", stdin=dump)
        assert client.get(f"/api/games/{game}").json()["moves"] == [{"op": "draw"}]
        assert client.get(f"/api/games/{later}").status_code == 404


def test_metrics_reach_a_scraper_on_the_network_and_not_the_public(stack):
    scrape = ("import urllib.request as u; r = u.urlopen(u.Request('http://{host}:8000/metrics',"
              " headers={{'Authorization': 'Bearer " + TOKEN + "'}}), timeout=5);"
              " print(r.status); print(r.read().decode())")
    for service in ("app1", "app2"):
        # From the proxy's network neighbour (the migrate image has python): by name.
        done = stack.podman.text("exec", stack.container(service), "python", "-c",
                                 scrape.format(host=service))
        assert done.startswith("200") and "pyramid_http_requests_in_flight" in done
    with stack.client() as client:
        assert client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}
                          ).status_code == 404


def test_the_proxy_and_the_apps_log_json_with_one_request_id(stack):
    with stack.client() as client:
        answer = client.get("/api/deals/617/verdict")
    request_id = answer.headers["x-request-id"]
    wait_for(lambda: any(e.get("request_id") == request_id
                         for service in ("app1", "app2") for e in stack.logs(service)),
             "the app's line for the request", seconds=10)
    line = next(e for service in ("app1", "app2") for e in stack.logs(service)
                if e.get("request_id") == request_id)
    assert line["route"] == "/api/deals/{n}/verdict" and line["status"] == 200
    assert any(e.get("request_id") == request_id and e.get("status") == 200
               for e in stack.logs("proxy"))
