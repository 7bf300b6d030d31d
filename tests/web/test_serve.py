"""The run command's entry point refuses bad settings with one clear line, never the secret."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def run_serve(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("SECRET_KEY", "ENVIRONMENT", "PORT", "DATABASE_URL")}
    return subprocess.run([sys.executable, "-m", "app.serve"], env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"ENVIRONMENT": "production"}, "pyramid: SECRET_KEY is the built-in development secret"),
        ({"SECRET_KEY": "short-secret"}, "pyramid: bad setting SECRET_KEY: must be at least 32"),
        ({"PORT": "99999"}, "pyramid: bad setting PORT: Input should be less than or equal"),
    ],
)
def test_bad_settings_stop_the_server_with_one_line(env: dict[str, str], expected: str):
    result = run_serve(**env)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(expected)
    assert "Traceback" not in result.stderr and "short-secret" not in result.stderr
