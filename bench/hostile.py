"""Hostile clients against a bystander (issue 34): what one client's costly requests do to
everyone else's.

    .venv/bin/python bench/hostile.py [--scenario all] [--duration 15]
    .venv/bin/python bench/hostile.py --database-url postgresql+psycopg://u:pw@127.0.0.1/db
    .venv/bin/python bench/hostile.py --proxy [--database-url ...] --scenario quiet flood

Starts the server as ``bench/load.py`` does (SQLite, one process; PostgreSQL, two); with
``--proxy``, the production set-up of ``tests/deploy/proxysite.py`` instead: the shipped nginx
template over TLS in front of two ``python -m app.serve`` processes (ENVIRONMENT=production,
JSON access logs) on one SQLite file, or on ``--database-url``. A
bystander reads a game (``GET /api/games/{id}``) twenty times a second and ``/healthz`` is
asked ten times a second, in this process; the hostile clients run in a process of their own
(their client work would otherwise delay the bystander's timings). Scenarios:

- ``quiet``: nobody else (the baseline);
- ``crafted-import``: two clients post an 8 MB file of 2.7 million empty games, in a loop;
- ``imports``: two clients import a valid, signed 8,000-game export in a loop, each time as a
  fresh player with an export of its own (an export imports once, into its own player);
- ``stalled-exports``: sixteen clients ask for an 8,000-game export and never read it, while
  one more downloads it in a loop;
- ``flood``: forty clients, each a player of its own (its fresh cookie and one game), ask
  for a hint every 50 ms and ignore Retry-After;
- ``flood-games``: forty clients without a cookie (a new player at each request) start a new
  game every 50 ms and ignore Retry-After.
- ``flood-unknown``: forty clients ask for addresses that name nothing (``GET /nope-<n>``), a
  scanner's way, every 50 ms.

The flooders are bare HTTP/1.1 clients on kept-alive connections (``Connection``), as a script
that floods would be: httpx's clients cost a millisecond of CPU a request, which on this
2-core machine was taken from the server and showed in the bystander's figures.

Printed for each: the bystander's GET and /healthz p50 / p99 / max (with ``--proxy``, also as
nginx timed them: the apps' queues included, the client's own delays not), the answers the
hostile clients got (for a flood, those to requests sent while the bystander measured, and
the rate), the server's CPU (and nginx's), how busy the whole machine was meanwhile (other
users included: this machine is shared), and the machine's speed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import (
    PROJECT,
    Server,
    cpu_times,
    cpu_used,
    empty_postgres,
    percentile,
    process_tree,
    run_loop,
)
from machine import in_loops, machine_speed, speed_line

from app.engine import Deal, Game, play_greedy

try:
    from app.web.services.gamesfile import ExportSigner, export_header
    SIGNS_BYTES = OWNED = True
except ImportError:  # a checkout from before issue 34, measured for comparison
    from app.web.devices import ExportSigner  # type: ignore[no-redef]
    SIGNS_BYTES = OWNED = False

SCENARIOS = ("quiet", "crafted-import", "imports", "stalled-exports", "flood", "flood-games",
             "flood-unknown")
EXPORT_GAMES = 8_000
FLOOD_CLIENTS = 40
FLOOD_PERIOD = 0.05


def export_games(count: int) -> list[tuple[bytes, dict]]:
    """``count`` greedy games as an export's lines (200 deals, each played several times)."""
    games = []
    played = {}
    began = datetime(2026, 1, 1, tzinfo=UTC)
    for number in range(count):
        deal = 1000 + number % 200
        if deal not in played:
            game = play_greedy(Game(Deal.from_number(deal), "standard", 3))
            played[deal] = (" ".join(m.to_text() for m in game.moves), game)
        move_list, game = played[deal]
        finished = began + timedelta(minutes=number)
        record = {"id": f"bench{number:07d}", "deal": deal, "custom_deal": None,
                  "goal": "standard", "passes": 3, "result": game.status.value,
                  "cards_cleared": game.cards_cleared, "cards_to_clear": 28,
                  "moves": len(move_list.split()), "par": None, "hints": 0, "seconds": 90,
                  "score": None, "started_at": (finished - timedelta(seconds=90)).isoformat(),
                  "finished_at": finished.isoformat(), "move_list": move_list, "replay": ""}
        games.append((json.dumps(record, sort_keys=True, separators=(",", ":")).encode(), record))
    return games


def signed_export(secret_key: str, games: list[tuple[bytes, dict]],
                  player_id: str | None = None) -> bytes:
    """A valid export of ``games`` by ``player_id`` (an export imports into its own player
    only, once: each import needs one of its own)."""
    signer = ExportSigner(secret_key)
    head = b'{"display_name": null, '
    if OWNED and player_id is not None:
        header = export_header(secret_key, player_id)
        signer.update(ExportSigner.canonical(header))
        head += b'"export": ' + ExportSigner.canonical(header) + b", "
    for line, record in games:
        signer.update(line if SIGNS_BYTES else record)
    return (head + b'"games": [\n' + b",\n".join(line for line, _ in games)
            + b'\n], "signature": ' + json.dumps(signer.hexdigest()).encode() + b"}\n")


def player_of(client: httpx.Client, secret_key: str) -> str | None:
    """The player id a client's cookie carries (the bench knows the server's key)."""
    from itsdangerous import BadSignature, URLSafeSerializer

    from app.web.core.player import SALT

    serializer = URLSafeSerializer(secret_key, salt=SALT)
    for value in client.cookies.values():
        try:
            claim = serializer.loads(value)
        except BadSignature:
            continue
        return claim if isinstance(claim, str) else claim[0]
    return None


def crafted_import() -> bytes:
    return b'{"games": [' + b",".join([b"{}"] * 2_700_000) + b'], "signature": "x"}'


VERIFY = True
"""Whether clients check the server's certificate (``--proxy`` serves a throwaway one)."""


def csrf_client(base: str) -> httpx.Client:
    """A client that has loaded the home page: its own player, and the CSRF token."""
    import re

    client = httpx.Client(base_url=base, timeout=120, headers={"Origin": base},
                          verify=VERIFY)
    token = re.search(r'name="csrf-token" content="([0-9a-f]+)"', client.get("/").text)
    client.headers["X-CSRF-Token"] = token.group(1)
    return client


def import_loop(base: str, payload_for, until: float, counts) -> None:
    """Import ``payload_for(client)`` as a fresh player each time, in a loop."""
    while time.monotonic() < until:
        client = csrf_client(base)  # a fresh player each time
        payload = payload_for(client)
        began = time.monotonic()
        answer = client.post("/stats/import", files={"file": ("g.json", payload)},
                             follow_redirects=False)
        counts.append((answer.status_code, time.monotonic() - began))
        client.close()
        if answer.status_code == 429:
            time.sleep(float(answer.headers.get("Retry-After", 1)))


def stalled_reader(base: str, cookie: str, until: float) -> None:
    """Asks for the export and reads only its first bytes, then holds the connection."""
    import ssl

    scheme, _, address = base.partition("://")
    host, port = address.split(":")
    with socket.create_connection((host, int(port))) as plain:
        plain.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock = plain
        if scheme == "https":
            context = ssl.create_default_context()
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
            sock = context.wrap_socket(plain, server_hostname=host)
        sock.sendall(f"GET /stats/export.json HTTP/1.1\r\nHost: {host}\r\n"
                     f"Cookie: {cookie}\r\n\r\n".encode())
        sock.recv(1024)
        while time.monotonic() < until:
            time.sleep(0.5)


class Connection:
    """A bare HTTP/1.1 client on one kept-alive connection: what a flooding script would use
    (a request costs it tens of microseconds, where httpx's cost a millisecond of the two
    cores the server shares with it). Reconnects when the server closes."""

    def __init__(self, base: str) -> None:
        import ssl

        scheme, _, address = base.partition("://")
        self.host, port = address.split(":")
        self.port = int(port)
        self.tls = None
        if scheme == "https":
            self.tls = ssl.create_default_context()
            self.tls.check_hostname, self.tls.verify_mode = False, ssl.CERT_NONE
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"",
                      cookie: str = "") -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                self.host, self.port, ssl=self.tls,
                server_hostname=self.host if self.tls else None)
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Content-Length: {len(body)}\r\n"
                + ("Content-Type: application/json\r\n" if body else "")
                + (f"Cookie: {cookie}\r\n" if cookie else "") + "\r\n")
        try:
            assert self.reader is not None
            self.writer.write(head.encode() + body)
            status = int((await self.reader.readline()).split()[1])
            headers: dict[str, str] = {}
            while (line := await self.reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            if headers.get("transfer-encoding") == "chunked":
                content = b""
                while size := int((await self.reader.readline()).strip(), 16):
                    content += await self.reader.readexactly(size + 2)
                await self.reader.readline()
            else:
                content = await self.reader.readexactly(int(headers.get("content-length", 0)))
        except (OSError, IndexError, ValueError, asyncio.IncompleteReadError):
            self.close()
            raise
        if headers.get("connection") == "close":
            self.close()
        return status, headers, content

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def flooder(base: str, games: bool, until: float, sent: list,
                  unknown: bool = False) -> None:
    """One flooding client: a request every ``FLOOD_PERIOD`` seconds, whatever the answer
    (Retry-After ignored); (when sent, status) of each into ``sent``. ``games``: a new game
    each time, without a cookie; ``unknown``: a GET of an address that names nothing; else a
    hint on its own game, as the player its first game made it."""
    connection = Connection(base)
    cookie = ""
    path = "/api/games"
    if unknown:
        while time.monotonic() < until:
            began = time.monotonic()
            try:
                status, _headers, _content = await connection.request(
                    "GET", f"/nope-{len(sent)}")
                sent.append((began, status))
            except (OSError, IndexError, ValueError, asyncio.IncompleteReadError) as exc:
                sent.append((began, type(exc).__name__))
            await asyncio.sleep(max(0.0, FLOOD_PERIOD - (time.monotonic() - began)))
        connection.close()
        return
    if not games:  # its first game, asked for again at the flood's pace until it has one
        while time.monotonic() < until:
            began = time.monotonic()
            status, headers, content = await connection.request(
                "POST", "/api/games", json.dumps({"deal": 1000 + len(sent) % 97}).encode())
            if status == 201:
                break
            sent.append((began, f"first game {status}"))
            await asyncio.sleep(max(0.0, FLOOD_PERIOD - (time.monotonic() - began)))
        else:
            return
        cookie = headers["set-cookie"].split(";", 1)[0]
        path = f"/api/games/{json.loads(content)['id']}/hint"
    body = b'{"deal": 617}' if games else b""
    while time.monotonic() < until:
        began = time.monotonic()
        try:
            status, _headers, _content = await connection.request("POST", path, body, cookie)
            sent.append((began, status))
        except (OSError, IndexError, ValueError, asyncio.IncompleteReadError) as exc:
            sent.append((began, type(exc).__name__))
        await asyncio.sleep(max(0.0, FLOOD_PERIOD - (time.monotonic() - began)))
    connection.close()


def flood(base: str, games: bool, duration: float, window: tuple[float, float],
          results, unknown: bool = False) -> None:
    """``FLOOD_CLIENTS`` flooders for ``duration`` seconds; the answers to the requests sent
    within ``window`` (monotonic times: the bystander's) by status, and the window's length."""
    import gc

    gc.disable()  # as bench/load.py's clients: a full collection would pause every request
    until = time.monotonic() + duration
    sent: list = []

    async def run() -> None:
        await asyncio.gather(*(flooder(base, games, until, sent, unknown)
                               for _ in range(FLOOD_CLIENTS)))

    run_loop(run())
    start, end = window
    measured = Counter(str(status) for at, status in sent if start <= at < end)
    results.append((dict(measured), end - start, time.process_time()))


def hostile(scenario: str, base: str, secret_key: str, duration: float, results,
            ready, settle: float = 0.0, verify: bool = True) -> None:
    """The hostile clients of ``scenario`` (a process of its own), from when the bystander is
    ``ready`` for ``settle`` + ``duration`` seconds; a flood counts its answers to the
    requests sent in the last ``duration`` (the bystander's measure)."""
    global VERIFY
    VERIFY = verify
    ready.wait()
    start = time.monotonic() + settle
    window = (start, start + duration)
    duration += settle
    until = time.monotonic() + duration
    threads = []
    import threading

    if scenario in ("flood", "flood-games", "flood-unknown"):
        flood(base, scenario == "flood-games", duration, window, results,
              unknown=scenario == "flood-unknown")
        return
    if scenario == "crafted-import":
        payload = crafted_import()
        for _ in range(2):
            threads.append(threading.Thread(target=import_loop,
                                            args=(base, lambda _: payload, until, results)))
    elif scenario == "imports":
        games = export_games(EXPORT_GAMES)

        def own_export(client: httpx.Client) -> bytes:
            return signed_export(secret_key, games, player_of(client, secret_key))

        for _ in range(2):
            threads.append(threading.Thread(target=import_loop,
                                            args=(base, own_export, until, results)))
    elif scenario == "stalled-exports":
        owner = csrf_client(base)
        done = owner.post("/stats/import", files={"file": ("g.json", signed_export(
            secret_key, export_games(EXPORT_GAMES), player_of(owner, secret_key)))},
            follow_redirects=False)
        results.append((done.status_code, 0.0))
        cookie = "; ".join(f"{k}={v}" for k, v in owner.cookies.items())
        for _ in range(16):
            threads.append(threading.Thread(target=stalled_reader, args=(base, cookie, until)))

        def downloads() -> None:
            while time.monotonic() < until:
                began = time.monotonic()
                answer = owner.get("/stats/export.json")
                results.append((answer.status_code, time.monotonic() - began))
                if answer.status_code == 429:
                    time.sleep(float(answer.headers.get("Retry-After", 1)))

        threads.append(threading.Thread(target=downloads))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


async def bystander(base: str, game_id: str, duration: float, ready, settle: float,
                    clock_starts) -> tuple[list, list]:
    """GET /api/games/{id} 20 times a second and /healthz 10 times a second for ``duration``
    seconds, from ``settle`` seconds after the hostile clients are let go: (seconds, status)
    of each. A bystander is someone already on the site: its client and connection are warmed
    before (one request of each; httpx's first request in a process costs its client 30-80
    ms), then ``ready`` lets the hostile clients go."""
    async with httpx.AsyncClient(base_url=base, timeout=60, verify=VERIFY) as client:
        reads: list[tuple[float, int]] = []
        health: list[tuple[float, int]] = []
        for path in (f"/api/games/{game_id}", "/healthz"):
            (await client.get(path)).raise_for_status()
        ready.set()
        await asyncio.sleep(settle)
        clock_starts()

        async def every(period: float, path: str, into: list) -> None:
            until = time.monotonic() + duration
            while time.monotonic() < until:
                began = time.monotonic()
                status = (await client.get(path)).status_code
                into.append((time.monotonic() - began, status))
                await asyncio.sleep(max(0.0, period - (time.monotonic() - began)))

        await asyncio.gather(every(0.05, f"/api/games/{game_id}", reads),
                             every(0.1, "/healthz", health))
        return reads, health


def machine_busy() -> float:
    """CPU seconds every process on the machine has used since boot (not idle, not waiting
    for the disk), from /proc/stat: the difference over a run says how busy the machine was,
    other users included."""
    from load import CLOCK_TICKS

    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle, iowait = fields[3], fields[4]
    return (sum(fields[:8]) - idle - iowait) / CLOCK_TICKS


def figures(timed: list[tuple[float, int]]) -> str:
    values = [seconds for seconds, _ in timed]
    failed = sum(status != 200 for _, status in timed)
    return (f"p50 {percentile(values, 0.5):6.1f}  p99 {percentile(values, 0.99):6.1f}  "
            f"max {max(values) * 1000:7.1f} ms  ({len(values)}, {failed} not 200)")


class ProxiedSite:
    """``tests/deploy/proxysite.Site``: the shipped nginx template over TLS in front of two
    app processes (``python -m app.serve``, ENVIRONMENT=production) on one database."""

    def __init__(self, database_url: str | None, folder: Path) -> None:
        from app.prestart import migrate
        from tests.deploy.proxysite import SECRET, Site

        url = database_url or f"sqlite:///{folder / 'pyramid.db'}"
        if database_url:
            empty_postgres_schema(url)
        else:
            migrate(url)
        self.site = Site(folder, url)
        self.url = self.site.proxy.base
        self.env = {"SECRET_KEY": SECRET}

    def __enter__(self) -> ProxiedSite:
        try:
            self.site.both_apps()
            self.site.proxy.start()
        except BaseException:
            self.site.close()
            raise
        return self

    def pids(self) -> list[int]:
        """The app processes'."""
        return [pid for app in self.site.apps.values() for pid in process_tree(app.pid)]

    def proxy_pids(self) -> list[int]:
        process = self.site.proxy.process
        return process_tree(process.pid) if process is not None else []

    def proxy_view(self, game_id: str) -> str:
        """The bystander's requests as nginx timed them (``$request_time``: from their first
        byte read to their answer's last byte sent, the apps' queues included, the client's
        own delays not): GET and /healthz p99 and max."""
        lines = self.site.proxy.access_lines()
        said = []
        for what, uri in (("GET", f"/api/games/{game_id}"), ("/healthz", "/healthz")):
            times = [float(line["duration_s"]) for line in lines if line["uri"] == uri]
            said.append(f"{what} p99 {percentile(times, 0.99):.0f} ms, max "
                        f"{1000 * max(times, default=float('nan')):.0f} ms")
        return "; ".join(said)

    def __exit__(self, *_exc: object) -> None:
        self.site.close()


def empty_postgres_schema(url: str) -> None:
    """Drop the bench database's tables and migrate it afresh (prestart's work, done here:
    the proxied apps do not migrate)."""
    from tests.conftest import _reset_postgres

    _reset_postgres(url)


def main() -> None:
    global VERIFY
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=(*SCENARIOS, "all"), nargs="+", default=["all"])
    parser.add_argument("--duration", type=float, default=15.0)
    parser.add_argument("--settle", type=float, default=5.0,
                        help="seconds between the hostile clients' start and the measuring: "
                             "0 measures from their first second (a flood's burst included)")
    parser.add_argument("--database-url")
    parser.add_argument("--proxy", action="store_true",
                        help="behind the shipped nginx template, two app processes")
    args = parser.parse_args()
    VERIFY = not args.proxy
    unit = machine_speed()
    print(speed_line(unit))
    postgres = bool(args.database_url) and not args.database_url.startswith("sqlite")
    workers = 2 if postgres or args.proxy else 1
    where = (f"{'PostgreSQL' if postgres else 'SQLite'}, {workers} process"
             f"{'es' if workers > 1 else ''}{', behind nginx' if args.proxy else ''}")
    scenarios = SCENARIOS if "all" in args.scenario else args.scenario
    with tempfile.TemporaryDirectory() as folder:
        for scenario in scenarios:
            place = Path(folder) / scenario
            place.mkdir()
            if args.proxy:
                target = ProxiedSite(args.database_url, place)
            else:
                url = args.database_url or f"sqlite:///{place}/pyramid.db"
                target = Server(url, workers, PROJECT, place / "server.log")
            with target as server:
                if postgres and not args.proxy:
                    empty_postgres(args.database_url)
                game_id = httpx.post(server.url + "/api/games", json={"deal": 5},
                                     verify=VERIFY).json()["id"]
                manager = multiprocessing.Manager()
                results = manager.list()
                ready = multiprocessing.Event()
                process = multiprocessing.Process(target=hostile, args=(
                    scenario, server.url, server.env["SECRET_KEY"], args.duration, results,
                    ready, args.settle, VERIFY))
                process.start()
                proxy_pids = server.proxy_pids() if args.proxy else []
                measured: dict = {}

                def clock_starts(into: dict = measured, proxies: list = proxy_pids) -> None:
                    # the hostile clients under way (and their files made) for ``settle`` s
                    into["cpu"] = cpu_times(server.pids()), cpu_times(proxies)
                    into["busy"] = machine_busy()

                reads, health = run_loop(bystander(server.url, game_id, args.duration,
                                                   ready, args.settle, clock_starts))
                before, proxy_before = measured["cpu"]
                busy_before = measured["busy"]
                cpu = cpu_used(before, cpu_times(server.pids()))
                proxy_cpu = cpu_used(proxy_before, cpu_times(proxy_pids))
                busy = machine_busy() - busy_before
                process.join()
                print(f"\n{scenario} ({where}, {args.duration:g} s"
                      + (" from the hostile clients' start)" if not args.settle else
                         f" after {args.settle:g} s)"))
                print(f"  bystander GET  {figures(reads)}")
                print(f"  /healthz       {figures(health)}")
                if args.proxy:
                    print(f"  nginx's view   {server.proxy_view(game_id)}")
                if scenario.startswith("flood"):
                    answers, seconds, client_cpu = results[0]
                    total = sum(answers.values())
                    print(f"  flood answers  {dict(sorted(answers.items()))}: "
                          f"{total / seconds:.0f} requests/s; the flood's own process "
                          f"{client_cpu:.1f} s of CPU in all")
                else:
                    answers = Counter(status for status, _ in results)
                    slowest = max((seconds for _, seconds in results), default=0.0)
                    print(f"  hostile answers {dict(answers)}; slowest {slowest:.1f} s")
                print(f"  server CPU {cpu:.1f} s in {args.duration:g} s "
                      f"({in_loops(cpu / args.duration, unit)} a second)"
                      + (f"; nginx {proxy_cpu:.1f} s" if args.proxy else "")
                      + f"; the whole machine {busy / args.duration:.2f} cores busy "
                      f"of {os.cpu_count()}")
    print(speed_line())


if __name__ == "__main__":
    main()
