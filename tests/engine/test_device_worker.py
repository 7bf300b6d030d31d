"""The page's side of the solver's worker (``static/js/solver/device.js``), in Node with a
stand-in Worker (``tests/js/device.mjs``): questions asked quickly, as presses come, end no
worker and the newest is the one answered; a deep search made stale is ended after its grace
(``STALE_GRACE_MS``) and the newest question goes to a fresh worker; a worker that fails
answers null. Ending the worker at every press restarted it (its modules and the WebAssembly
compiled again) at every quick press: 18-21 workers for 20 quick draws."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parents[2] / "tests" / "js" / "device.mjs"


def test_quick_questions_keep_one_worker_and_a_deep_stale_search_is_ended():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on the PATH: install Debian's nodejs (apt-get install nodejs)")
    done = subprocess.run([node, str(RUNNER)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok 6", done.stdout + done.stderr
