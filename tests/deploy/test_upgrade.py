"""The upgrade docs/deploy.md gives, on a running stack (``make test-deploy``): compose.yaml
brought up on the previous commit's image (``UPGRADE_FROM``, default ``HEAD~1``), a player
playing through the proxy without pause; then the new image: ``migrate``, then app1, then app2,
each recreated and healthy before the next. Every move the player was told was played is in
its game afterwards, and both apps say they run the new commit."""

from __future__ import annotations

import json
import os
import subprocess
import tarfile
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy.containers import PROJECT_DIR, Podman, build_image, remove_image
from tests.deploy.test_stack import UP_WITHIN, Player, Stack

pytestmark = pytest.mark.containers


def previous_commit() -> str:
    wanted = os.environ.get("UPGRADE_FROM", "HEAD~1")
    done = subprocess.run(["git", "-C", str(PROJECT_DIR), "rev-parse", "--verify",
                           f"{wanted}^{{commit}}"], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"no commit {wanted} to upgrade from (a shallow checkout?)")
    return done.stdout.strip()


@pytest.fixture(scope="module")
def old_image(podman: Podman, images: dict[str, str]) -> Iterator[tuple[str, str]]:
    """The previous commit's image (its own Dockerfile and files), and its commit."""
    commit = previous_commit()
    with tempfile.TemporaryDirectory() as folder:
        archive = Path(folder) / "old.tar"
        subprocess.run(["git", "-C", str(PROJECT_DIR), "archive", "--format=tar", "-o",
                        str(archive), commit], check=True)
        checkout = Path(folder) / "old"
        with tarfile.open(archive) as tar:
            tar.extractall(checkout, filter="data")
        tag = build_image(podman, images["PYTHON_IMAGE"], checkout=checkout, what="old-image",
                          commit=commit)
    yield tag, commit
    remove_image(podman, tag)


def health_of(stack: Stack, service: str) -> dict:
    said = stack.podman.text("exec", stack.container(service), "python", "-c",
                             "import urllib.request as u; print(u.urlopen("
                             "'http://127.0.0.1:8000/healthz', timeout=5).read().decode())")
    return json.loads(said)


def test_a_running_stack_is_upgraded_app_by_app_and_loses_no_move(podman, images, old_image,
                                                                  tmp_path):
    old_tag, old_commit = old_image
    new_commit = json.loads(podman.text("image", "inspect", "--format", "{{json .Labels}}",
                                        images["PYRAMID_IMAGE"]))["org.opencontainers.image.revision"]
    stack = Stack(podman, {**images, "PYRAMID_IMAGE": old_tag}, tmp_path)
    player = Player(stack)
    try:
        stack.up()
        stack.healthy("app1", "app2")
        player.thread.start()
        player.more(10, "on the old image")
        assert health_of(stack, "app1").get("revision", old_commit) == old_commit
        # docs/deploy.md's upgrade: the new image, migrate, then the apps one at a time.
        stack.env_file.write_text(stack.env_file.read_text().replace(
            f"PYRAMID_IMAGE={old_tag}", f"PYRAMID_IMAGE={images['PYRAMID_IMAGE']}"))
        player.phase = "migrating"
        # A one-off container of the migrate service: `up` would recreate it, and
        # podman-compose recreates a service's running dependents with it (the apps, the
        # proxy).
        stack.compose("run", "--rm", "--no-deps", "migrate", timeout=UP_WITHIN)
        for service in ("app1", "app2"):
            player.phase = f"upgrading {service}"
            # Stopped (its requests finished), removed, made again from the new image: not
            # `up --force-recreate`, which in podman-compose recreates the proxy too.
            container = stack.container(service)
            podman("stop", "--time", "10", container)
            podman("rm", container)
            stack.compose("up", "-d", "--no-deps", service)
            stack.healthy(service)
            assert health_of(stack, service)["revision"] == new_commit
            player.more(5, f"with {service} upgraded")
        player.phase = "after the upgrade"
        player.more(10, "on the new image")
    finally:
        player.stopping.set()
        if player.thread.is_alive():
            player.thread.join(timeout=30)
        try:
            with stack.client() as reader:
                stored = {game: reader.get(f"/api/games/{game}").json()["moves"]
                          for game in player.acknowledged}
        finally:
            stack.compose("down", "-v", "--timeout", "10", check=False)
    for game, moves in player.acknowledged.items():
        assert stored[game] == moves, f"game {game}: stored {len(stored[game])}, told {len(moves)}"
    print(f"\nupgraded from {old_commit[:12]}: {player.played()} moves in "
          f"{len(player.acknowledged)} games, none lost; errors the player saw: "
          f"{Counter(player.errors)}")
