"""Which build is running: the package's version, the commit it was built from, and the schema
(the newest migration) its code expects. ``/healthz`` answers with them, the
``pyramid_build_info`` metric carries them, and the image's OCI labels say the same.

- **The version**: ``pyproject.toml``'s, as the installed package reports it.
- **The commit**: ``PYRAMID_REVISION`` when set (the image sets it from its ``REVISION`` build
  argument: the image has no ``.git``), else the checkout's ``git rev-parse HEAD`` when there is
  one, else empty.
- **The schema**: the head of ``migrations/versions``, read from the files (alembic's script
  directory), without a database.

Each is read once a process.
"""

from __future__ import annotations

import os
import subprocess
from functools import cache
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version

from app.settings import PROJECT_DIR

REVISION_VARIABLE = "PYRAMID_REVISION"


@cache
def version() -> str:
    """The package's version (``0.1.0``)."""
    try:
        return package_version("pyramid")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "0+unknown"


@cache
def revision() -> str:
    """The commit this build comes from (40 hex digits), or "" when nothing says."""
    given = os.environ.get(REVISION_VARIABLE, "").strip()
    if given:
        return given
    if not (PROJECT_DIR / ".git").exists():
        return ""
    try:
        done = subprocess.run(["git", "-C", str(PROJECT_DIR), "rev-parse", "HEAD"],
                              capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


@cache
def schema() -> str:
    """The migration head this code expects (``0011``)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config(str(PROJECT_DIR / "alembic.ini"))
    return ScriptDirectory.from_config(config).get_current_head() or ""


def build() -> dict[str, str]:
    """All three, as /healthz shows them: ``version`` is the package's version with the
    commit's first 12 digits (``0.1.0+5dad185ab123``) when the commit is known."""
    commit = revision()
    return {"version": f"{version()}+{commit[:12]}" if commit else version(),
            "revision": commit, "schema": schema()}
