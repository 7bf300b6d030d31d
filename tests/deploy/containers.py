"""podman for the container tests (``make test-deploy``): the engine, the images, and a clean
slate after.

- **The engine.** podman with ``deploy/local-base/containers.conf`` (runc, cgroupfs, ulimits a
  VM's root may set: /work/shared/CONTAINERS.md's recipe), changing nothing system-wide. Where
  no container engine can run at all the tests skip with one line saying why; where podman is
  missing but could be installed (root, apt), they fail and say how.
- **The images.** Docker Hub's when it can be reached, else stand-ins made from Debian's
  packages by ``deploy/local-base/build`` (kept between runs); then the project's image, built
  from the Dockerfile on that base, tagged for this run and removed at the end.
- **Names.** Everything a run makes is named ``pyramid-test-<run>-...`` (containers, volumes,
  networks, the compose project), so runs on one machine never meet, and what a run made is
  removed by name.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
LOCAL_BASE = PROJECT_DIR / "deploy" / "local-base"
HOST_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
HUB = {"PYTHON_IMAGE": "docker.io/library/python:3.11-slim",
       "POSTGRES_IMAGE": "docker.io/library/postgres:15",
       "NGINX_IMAGE": "docker.io/library/nginx:1.27"}
LOCAL = {"PYTHON_IMAGE": "localhost/pyramid-base-python:3.11",
         "POSTGRES_IMAGE": "localhost/pyramid-base-postgres:15",
         "NGINX_IMAGE": "localhost/pyramid-base-nginx:1.22"}
RUN = secrets.token_hex(3)
"""This run's mark in every name it makes."""


def named(what: str) -> str:
    return f"pyramid-test-{RUN}-{what}"


class Podman:
    """``podman`` with this project's containers.conf."""

    def __init__(self) -> None:
        self.env = {**os.environ,
                    "CONTAINERS_CONF": os.environ.get("CONTAINERS_CONF",
                                                      str(LOCAL_BASE / "containers.conf"))}

    @staticmethod
    def cannot_run() -> tuple[str, bool] | None:
        """Why no container can run here (and whether that is a skip, not a failure), or
        None when podman works."""
        if shutil.which("podman") is None:
            if os.geteuid() == 0 and shutil.which("apt-get"):
                return ("podman is not installed: apt-get install podman runc mmdebstrap "
                        "(.ci/run does)", False)
            return "podman is not installed, and cannot be here (not root, or no apt)", True
        probe = subprocess.run(["podman", "info", "--format", "{{.Host.OCIRuntime.Name}}"],
                               env=Podman().env, capture_output=True, text=True, timeout=60)
        if probe.returncode != 0:
            lines = probe.stderr.strip().splitlines()
            return f"podman cannot run here: {lines[-1] if lines else 'podman info failed'}", True
        return None

    def __call__(self, *args: str, check: bool = True, timeout: float = 120,
                 stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        done = subprocess.run(["podman", *args], env=self.env, input=stdin,
                              capture_output=True, timeout=timeout)
        if check and done.returncode != 0:
            raise AssertionError(f"podman {' '.join(args)} failed ({done.returncode}): "
                                 f"{done.stderr.decode(errors='replace')[-2000:]}")
        return done

    def text(self, *args: str, **kwargs) -> str:
        return self(*args, **kwargs).stdout.decode().strip()

    def host_pid(self, container: str) -> int:
        """The container's main process, as the host sees it (for a kill -9 from outside)."""
        return int(self.text("inspect", "--format", "{{.State.Pid}}", container))

    def healthy(self, container: str) -> bool:
        """Run the container's health check now (no systemd here runs it on a timer)."""
        return self("healthcheck", "run", container, check=False, timeout=30).returncode == 0

    def cleanup(self) -> None:
        """Remove every container, volume and network this run made (by name)."""
        mark = f"pyramid-test-{RUN}-"
        for kind, listing in (("container", ["ps", "-a", "--format", "{{.Names}}"]),
                              ("volume", ["volume", "ls", "--format", "{{.Name}}"]),
                              ("network", ["network", "ls", "--format", "{{.Name}}"])):
            names = [n for n in self.text(*listing, check=False).split() if mark in n]
            if names:
                self(kind, "rm", "--force", *names, check=False, timeout=120)

    def leftovers(self) -> list[str]:
        """What this run made that is still there."""
        mark = f"pyramid-test-{RUN}-"
        found = []
        for listing in (["ps", "-a", "--format", "{{.Names}}"],
                        ["volume", "ls", "--format", "{{.Name}}"],
                        ["network", "ls", "--format", "{{.Name}}"]):
            found += [n for n in self.text(*listing, check=False).split() if mark in n]
        return found


def docker_hub_reachable(podman: Podman) -> bool:
    """Can the Docker Hub images be pulled (tried with the smallest)? Fails in about a second
    where the name does not even resolve."""
    return podman("pull", "--quiet", HUB["NGINX_IMAGE"], check=False,
                  timeout=300).returncode == 0


def base_images(podman: Podman) -> dict[str, str]:
    """The images the Dockerfile and compose.yaml start from: the environment's, Docker Hub's,
    or the local stand-ins (made now if podman lacks them)."""
    if all(name in os.environ for name in HUB):
        return {name: os.environ[name] for name in HUB}
    if docker_hub_reachable(podman):
        for image in HUB.values():
            podman("pull", "--quiet", image, timeout=600)
        return dict(HUB)
    done = subprocess.run([str(LOCAL_BASE / "build")], env=podman.env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"deploy/local-base/build failed: {done.stderr[-3000:]}"
    return dict(LOCAL)


def revision(checkout: Path = PROJECT_DIR) -> str:
    """The commit checked out (the image's REVISION), or "" outside git."""
    done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else ""


def build_image(podman: Podman, python_image: str, checkout: Path = PROJECT_DIR,
                what: str = "image", commit: str | None = None) -> str:
    """The project's image, from the Dockerfile of ``checkout`` on ``python_image``, with its
    commit (``commit``, else the checkout's) as REVISION; its tag."""
    tag = f"localhost/{named(what)}:latest"
    lend_ca = (["-v", f"{HOST_CA_BUNDLE}:{HOST_CA_BUNDLE}:ro"] if HOST_CA_BUNDLE.exists()
               else [])
    podman("build", "--format", "docker", "--pull=never", *lend_ca,
           "--build-arg", f"PYTHON_IMAGE={python_image}",
           "--build-arg", f"REVISION={commit or revision(checkout)}",
           "--label", f"pyramid-test={RUN}",
           "-t", tag, str(checkout), timeout=900)
    return tag


def remove_image(podman: Podman, tag: str) -> None:
    """The run's image, and the build stage it left behind (labelled with the run)."""
    podman("rmi", "--force", tag, check=False)
    podman("image", "prune", "--force", "--filter", f"label=pyramid-test={RUN}", check=False)
