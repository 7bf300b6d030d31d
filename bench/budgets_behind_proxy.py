"""How many hints one player gets before a 429, through the shipped nginx in front of two app
processes (``tests/deploy/proxysite.py``): with the template as shipped (a player kept on one
app by the hash of their cookie) and, with ``--spread``, with that hash taken out (each
request to either app, as before), where each app keeps its own budget for the player.

    .venv/bin/python bench/budgets_behind_proxy.py [--players 20] [--spread]

Each player: a cookie of its own, one game, then hints as fast as they come back until the
first 429 of a budget (a "busy" from the solver's queue is waited out, and counted). Printed:
the hints each player got (SEARCH_BURST is 15: a burst of 15 past the rate is 16 at once),
and the time a request took through the proxy (p50, p99).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.prestart import migrate
from tests.deploy import proxysite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--spread", action="store_true",
                        help="each request to either app (the hash on the cookie taken out)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pyramid-budgets-"))
    # Every player here shares one address: the address's budgets (nginx's zone, the apps'
    # own) are opened wide, so that the player's own is what refuses.
    template = proxysite.TEMPLATE.read_text().replace(
        "zone=pyramid_search burst=20 ", "zone=pyramid_search burst=100000 ")
    if args.spread:
        template = template.replace("    hash $pyramid_affinity consistent;\n", "")
    bench_template = folder / "bench.conf.template"
    bench_template.write_text(template)
    proxysite.TEMPLATE = bench_template
    url = f"sqlite:///{folder / 'pyramid.db'}"
    migrate(url)
    site = proxysite.Site(folder, url)
    site.env.update(ADDRESS_SEARCH_BURST="100000", ADDRESS_SEARCHES_PER_SECOND="10000")
    counts, times, busies = [], [], []
    try:
        site.both_apps()
        site.proxy.start()
        for _ in range(args.players):
            with site.proxy.client() as client:
                game = client.post("/api/games", json={"deal": 617}).json()["id"]
                got = busy = 0
                while True:
                    began = time.perf_counter()
                    answer = client.post(f"/api/games/{game}/hint")
                    times.append(time.perf_counter() - began)
                    if answer.status_code == 429 and "from here" in answer.text:
                        break  # the budget's refusal
                    if answer.status_code == 429:  # the solver's queue: busy, not a budget
                        busy += 1
                        time.sleep(float(answer.headers.get("retry-after", 1)))
                        continue
                    assert answer.status_code == 200, answer.text
                    got += 1
                    assert got < 200, "no 429"
                counts.append(got)
                busies.append(busy)
    finally:
        site.close()
    times.sort()
    p50, p99 = times[len(times) // 2] * 1000, times[int(len(times) * .99)] * 1000
    print(f"{'spread over both apps' if args.spread else 'kept on one app'}: hints before "
          f"the first 429, {args.players} players: min {min(counts)}, median "
          f"{statistics.median(counts):g}, max {max(counts)}; a hint through the proxy p50 "
          f"{p50:.1f} ms, p99 {p99:.1f} ms; the solver busy {sum(busies)} times")


if __name__ == "__main__":
    main()
