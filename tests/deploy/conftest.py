"""Fixtures of the container tests (``make test-deploy``; marked ``containers``, left out of
``make test``): podman, the base images and the project's image, made once a session and
removed after, with every container, volume and network the session made."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.deploy.containers import Podman, base_images, build_image, remove_image


@pytest.fixture(scope="session")
def podman() -> Iterator[Podman]:
    refused = Podman.cannot_run()
    if refused is not None:
        reason, skip = refused
        if skip:
            pytest.skip(f"no container engine can run here: {reason}")
        pytest.fail(reason)
    engine = Podman()
    yield engine
    engine.cleanup()
    left = engine.leftovers()
    assert not left, f"the tests left these behind: {left}"


@pytest.fixture(scope="session")
def images(podman: Podman) -> Iterator[dict[str, str]]:
    """The base images (PYTHON_IMAGE, POSTGRES_IMAGE, NGINX_IMAGE) and the project's image
    (PYRAMID_IMAGE), built for this session."""
    began = time.monotonic()
    bases = base_images(podman)
    made = time.monotonic()
    tag = build_image(podman, bases["PYTHON_IMAGE"])
    size = int(podman.text("image", "inspect", "--format", "{{.Size}}", tag)) / 1e6
    print(f"\nbase images in {made - began:.0f} s ({bases['PYTHON_IMAGE']}), "
          f"the image built in {time.monotonic() - made:.0f} s ({size:.0f} MB)")
    yield {**bases, "PYRAMID_IMAGE": tag}
    podman.cleanup()
    remove_image(podman, tag)
