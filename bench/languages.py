"""What the languages cost a page, and how long each language's words are.

    .venv/bin/python bench/languages.py [--rounds 200]

For each language: the board script's words carried by every page (the JSON in
``<script id="words">``), raw and gzip-compressed; a board page's whole size, compressed; how
long the catalog's translations are against the English (characters, all messages: German is
the longest); and the median time to draw the home page in that language in-process (the
catalogs are read once, then cached). Prints the machine's speed beside the times.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SECRET_KEY", "bench-secret-key-0123456789-abcdefghijkl")

from babel.messages.pofile import read_po  # noqa: E402

from bench.machine import speed_line  # noqa: E402


def catalog_length(code: str) -> tuple[int, int]:
    """Characters of English and of the translations, over every message (the last plural form
    each)."""
    path = ROOT / "app" / "locale" / code / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as file:
        catalog = read_po(file)
    english = translated = 0
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        english += len(ids[-1])
        translated += len(strings[-1] or ids[-1])
    return english, translated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()

    database = Path(tempfile.mkdtemp()) / "bench.db"
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.prestart import migrate
    from app.web.core.i18n import LANGUAGES

    migrate(os.environ["DATABASE_URL"])
    client = TestClient(create_app())
    board = client.post("/api/games", json={"deal": 42}).json()["id"]
    print(speed_line())
    print(f"{'language':8} {'words':>8} {'gzip':>7} {'board gz':>9} {'length':>7} "
          f"{'home ms':>8}")
    for code in LANGUAGES:
        headers = {"Accept-Language": code}
        page = client.get(f"/games/{board}", headers=headers).text
        words = page.split('<script type="application/json" id="words">', 1)[1]
        words = words.split("</script>", 1)[0].encode()
        english, translated = (1, 1) if code == "en" else catalog_length(code)
        client.get("/", headers=headers)  # the catalog read and cached
        times = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            client.get("/", headers=headers)
            times.append((time.perf_counter() - start) * 1000)
        print(f"{code:8} {len(words):8,} {len(gzip.compress(words)):7,} "
              f"{len(gzip.compress(page.encode())):9,} {translated / english:7.2f} "
              f"{statistics.median(times):8.2f}")


if __name__ == "__main__":
    main()
