"""The image, run as the Dockerfile's own example runs it (podman; ``make test-deploy``): it
refuses to start without a SECRET_KEY of its own, migrates, serves, runs as uid 10001, logs
JSON with request ids, keeps a game in its volume across a new container, publishes metrics
only to the token, leaves no anonymous volume, and its SQLite file is backed up while it
serves and restored."""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.deploy.containers import PROJECT_DIR, Podman, named, revision
from tests.deploy.proxysite import free_port

pytestmark = pytest.mark.containers

SECRET = "Vb7nQ2xL9kR4tW8yZ1cF6hJ3mP5sD0gA-image-test"
TOKEN = "image-test-metrics-token-0123456789"
START_WITHIN = 60.0
PODMANS_OWN = re.compile(r'^time="[^"]*" level=')
"""podman's own lines on a container's stderr (without systemd it says it cannot time the
health checks), not the container's."""


class Server:
    """The image in a container named ``name``, on a volume named ``volume`` at /data,
    published on a port of 127.0.0.1."""

    def __init__(self, podman: Podman, image: str) -> None:
        self.podman, self.image = podman, image
        self.name, self.volume = named("serve"), named("data")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.started_in = 0.0

    def start(self) -> None:
        began = time.monotonic()
        self.podman("run", "-d", "--name", self.name, "-p", f"127.0.0.1:{self.port}:8000",
                    "-v", f"{self.volume}:/data", "-e", f"SECRET_KEY={SECRET}",
                    "-e", "BASE_URL=https://pyramid.example", "-e", f"METRICS_TOKEN={TOKEN}",
                    self.image)
        deadline = began + START_WITHIN
        while True:
            try:
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            running = self.podman.text("inspect", "--format", "{{.State.Running}}", self.name)
            if running != "true" or time.monotonic() > deadline:
                logs = self.podman("logs", self.name, check=False).stderr.decode()[-2000:]
                raise AssertionError(f"the container did not serve: {logs}")
            time.sleep(0.1)
        self.started_in = time.monotonic() - began

    def stop(self) -> None:
        self.podman("rm", "--force", "--time", "10", self.name)

    def logs(self) -> list[str]:
        done = self.podman("logs", self.name)
        return (done.stdout + done.stderr).decode().splitlines()


@pytest.fixture(scope="module")
def server(podman: Podman, images: dict[str, str]) -> Iterator[Server]:
    serving = Server(podman, images["PYRAMID_IMAGE"])
    serving.start()
    yield serving
    podman("rm", "--force", serving.name, check=False)
    podman("volume", "rm", "--force", serving.volume, check=False)


def player_cookie(answer: httpx.Response) -> dict[str, str]:
    """The player cookie, sent back by hand: it is Secure (production), and this is plain
    HTTP on loopback, where httpx would keep it to itself."""
    value = answer.headers["set-cookie"].split(";", 1)[0]
    return {"Cookie": value}


def test_it_refuses_to_start_without_a_secret_key(podman, images):
    done = podman("run", "--rm", "-e", "BASE_URL=https://pyramid.example",
                  images["PYRAMID_IMAGE"], check=False, timeout=60)
    assert done.returncode == 1
    lines = [line for line in done.stderr.decode().strip().splitlines()
             if not PODMANS_OWN.match(line)]
    assert len(lines) == 1 and "SECRET_KEY" in lines[0], lines


def test_it_migrates_serves_as_uid_10001_and_logs_json(podman, server):
    print(f"\ncold start to the first 200: {server.started_in:.1f} s")
    assert httpx.get(server.url + "/").status_code == 200
    status = Path(f"/proc/{podman.host_pid(server.name)}/status").read_text()
    uids = next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1:]
    assert set(uids) == {"10001"}  # real, effective, saved and file-system uid
    answer = httpx.get(server.url + "/healthz", headers={"X-Request-ID": "image-check-1"})
    assert answer.headers["x-request-id"] == "image-check-1"
    entries = [json.loads(line) for line in server.logs() if line.startswith("{")]
    assert len(entries) == len([line for line in server.logs() if line.strip()])  # all JSON
    assert any(e.get("logger", "").startswith("alembic") for e in entries)  # it migrated
    assert any(e.get("request_id") == "image-check-1" and e.get("route") == "/healthz"
               and e.get("status") == 200 for e in entries)


def test_it_says_which_build_it_is_in_its_labels_and_its_health(podman, server, images):
    labels = json.loads(podman.text("image", "inspect", "--format", "{{json .Labels}}",
                                    images["PYRAMID_IMAGE"]))
    commit = labels["org.opencontainers.image.revision"]
    # The checkout's commit when the image was built: this one, or one before it.
    assert len(commit) == 40 and subprocess.run(
        ["git", "-C", str(PROJECT_DIR), "merge-base", "--is-ancestor", commit, revision()]
    ).returncode == 0
    assert labels["org.opencontainers.image.title"] == "Pyramid"
    health = httpx.get(server.url + "/healthz").json()
    assert health["version"] == (f"{labels['org.opencontainers.image.version']}"
                                 f"+{commit[:12]}")
    assert health["revision"] == commit


def test_a_game_lives_in_the_volume_across_a_new_container(server):
    made = httpx.post(server.url + "/api/games", json={"deal": 617, "goal": "wholedeck"})
    assert made.status_code == 201
    cookie, game = player_cookie(made), made.json()["id"]
    for move in ({"op": "remove", "cards": ["KD"]}, {"op": "draw"}):
        assert httpx.post(f"{server.url}/api/games/{game}/moves", json=move,
                          headers=cookie).status_code == 200
    server.stop()
    server.start()  # a new container on the same volume
    state = httpx.get(f"{server.url}/api/games/{game}", headers=cookie).json()
    assert state["moves"] == [{"op": "remove", "cards": ["KD"]}, {"op": "draw"}]


def test_its_database_is_backed_up_while_it_serves_and_restored(podman, server):
    made = httpx.post(server.url + "/api/games", json={"deal": 5})
    cookie, game = player_cookie(made), made.json()["id"]
    moves = f"{server.url}/api/games/{game}/moves"
    assert httpx.post(moves, json={"op": "draw"}, headers=cookie).status_code == 200
    backed_up = podman.text("exec", server.name, "python", "-m", "app.backup", "backup",
                            "/data/backup.db")
    assert backed_up.startswith("backed up /data/pyramid.db to /data/backup.db: ")
    for _ in range(3):
        assert httpx.post(moves, json={"op": "draw"}, headers=cookie).status_code == 200
    # As docs/deploy.md says: stop it, restore in a one-off container on the volume, start.
    server.stop()
    restored = podman.text("run", "--rm", "-v", f"{server.volume}:/data",
                           "-e", f"SECRET_KEY={SECRET}", "-e", "BASE_URL=https://pyramid.example",
                           server.image, "python", "-m", "app.backup", "restore",
                           "/data/backup.db")
    assert restored.startswith("restored /data/pyramid.db from /data/backup.db")
    server.start()
    state = httpx.get(f"{server.url}/api/games/{game}", headers=cookie).json()
    assert state["moves"] == [{"op": "draw"}]


def test_metrics_open_only_to_the_token(server):
    assert httpx.get(server.url + "/metrics").status_code == 401
    assert httpx.get(server.url + "/metrics",
                     headers={"Authorization": "Bearer not-the-token-at-all"}).status_code == 403
    scraped = httpx.get(server.url + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert scraped.status_code == 200
    assert 'pyramid_http_request_duration_seconds_count{method="GET",route="/healthz"' in (
        scraped.text)


def test_no_container_leaves_an_anonymous_volume(podman, images):
    assert podman.text("image", "inspect", "--format", "{{json .Config.Volumes}}",
                       images["PYRAMID_IMAGE"]) in ("null", "{}")
    before = set(podman.text("volume", "ls", "--quiet").split())
    podman("run", "--rm", "--name", named("once"), images["PYRAMID_IMAGE"], "python", "-c",
           "import app.settings", timeout=60)
    assert set(podman.text("volume", "ls", "--quiet").split()) <= before
