"""What a web test pays before it asserts anything: a new app on a copied, migrated SQLite
file, a client, and its first page (as tests/web/conftest.py's ``client`` does).

    PYTHONPATH=. .venv/bin/python bench/app_setup.py [--runs 20]

Prints the median milliseconds of each step. The first page of an app was 200 ms while
FastAPI built every included route's state again for each app (docs/tests.md).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time

from fastapi.testclient import TestClient

from app.main import create_app
from app.prestart import migrate
from tests.conftest import make_settings
from tests.web.conftest import browser_like


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    folder = tempfile.mkdtemp(prefix="pyramid-bench-")
    migrate(f"sqlite:///{folder}/migrated.db")
    steps: dict[str, list[float]] = {"copy": [], "app": [], "client": [], "first page": []}
    for run in range(runs + 1):  # the first run warms the process up: not counted
        marks = [time.perf_counter()]
        shutil.copyfile(f"{folder}/migrated.db", f"{folder}/{run}.db")
        marks.append(time.perf_counter())
        app = create_app(make_settings(f"sqlite:///{folder}/{run}.db"))
        marks.append(time.perf_counter())
        with TestClient(app) as client:
            marks.append(time.perf_counter())
            browser_like(client)
            marks.append(time.perf_counter())
        if run:
            for name, start, end in zip(steps, marks, marks[1:], strict=False):
                steps[name].append((end - start) * 1000)
    shutil.rmtree(folder)
    for name, values in steps.items():
        print(f"{name:>10}: median {statistics.median(values):7.1f} ms over {runs} apps")


if __name__ == "__main__":
    main()
