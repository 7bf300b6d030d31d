"""Profile the move path: the real app, in this process, under cProfile.

Plays games through the JSON API the way ``bench/load.py``'s players do (a removal when there
is one, else draw or recycle; a GET every few moves), but calls the ASGI app directly (no
sockets, no uvicorn), with FastAPI's thread pool replaced by plain calls so that every line
of a request runs on this thread where cProfile sees it. Prints the CPU time the app spent
per request of each kind (``time.thread_time`` around the app call: what a server core
spends on the app, less uvicorn's HTTP handling and the thread hops), then, with
``--profile``, the profile's top entries:

    .venv/bin/python bench/profile_moves.py [--moves 3000] [--profile] [--sort tottime]

SQLite in a temporary file by default; ``--database-url`` for a PostgreSQL database you can
throw away (its tables are emptied first).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import pstats
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.machine import speed_line


def inline_threadpool() -> None:
    """Run FastAPI's sync routes and dependencies on the calling thread."""
    import anyio.to_thread
    import fastapi.dependencies.utils
    import fastapi.routing
    import starlette.concurrency

    async def run_inline(func, *args, **kwargs):
        return func(*args, **kwargs)

    async def run_sync_inline(func, *args, limiter=None, **_options):
        return func(*args)

    # Before the app is imported: its modules take run_in_threadpool from starlette.
    anyio.to_thread.run_sync = run_sync_inline
    starlette.concurrency.run_in_threadpool = run_inline
    fastapi.routing.run_in_threadpool = run_inline
    fastapi.dependencies.utils.run_in_threadpool = run_inline
    # Generator dependencies enter and leave through contextmanager_in_threadpool.
    @contextlib.asynccontextmanager
    async def cm_inline(cm):
        with cm as value:
            yield value

    fastapi.dependencies.utils.contextmanager_in_threadpool = cm_inline
    if hasattr(fastapi.routing, "contextmanager_in_threadpool"):
        fastapi.routing.contextmanager_in_threadpool = cm_inline


class Timed:
    """The ASGI app, with the CPU time of each call added up by request kind."""

    def __init__(self, app) -> None:
        self.app = app
        self.cpu: dict[str, float] = defaultdict(float)
        self.count: dict[str, int] = defaultdict(int)
        self.on = False

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or not self.on:
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        kind = ("move" if path.endswith("/moves") else "create" if path == "/api/games"
                else "get" if scope["method"] == "GET" else "other")
        began = time.thread_time()
        await self.app(scope, receive, send)
        self.cpu[kind] += time.thread_time() - began
        self.count[kind] += 1


async def play(client: httpx.AsyncClient, moves: int, get_every: int, seed: int) -> int:
    rng = random.Random(seed)
    state = None
    played = 0
    while played < moves:
        if state is None or state["status"] != "playing":
            answer = await client.post("/api/games", json={
                "deal": rng.randint(1, 1_000_000_000), "goal": "standard", "passes": 3})
            answer.raise_for_status()
            state = answer.json()
            continue
        legal = state["legal_moves"]
        removals = [move for move in legal if move["op"] == "remove"]
        answer = await client.post(f"/api/games/{state['id']}/moves",
                                   json=rng.choice(removals or legal),
                                   headers={"If-Match": f'"{state["version"]}"'})
        answer.raise_for_status()
        state = answer.json()
        played += 1
        if get_every and played % get_every == 0 and state["status"] == "playing":
            answer = await client.get(f"/api/games/{state['id']}")
            answer.raise_for_status()
            state = answer.json()
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--get-every", type=int, default=4)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top entries")
    parser.add_argument("--sort", default="tottime", help="pstats sort key (default tottime)")
    parser.add_argument("--top", type=int, default=45)
    parser.add_argument("--dump", type=Path, help="also save the profile here (pstats format)")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    print(speed_line(), flush=True)

    inline_threadpool()
    from app.main import create_app
    from app.prestart import migrate
    from app.settings import Settings

    with tempfile.TemporaryDirectory(prefix="pyramid-profile-") as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'profile.db'}"
        migrate(url)
        if args.database_url:
            from bench.load import empty_postgres
            empty_postgres(url)
        settings = Settings(_env_file=None, database_url=url, environment="test",
                            secret_key="profile-secret-key-0123456789-abcdef")
        app = Timed(create_app(settings))

        async def session() -> None:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport,
                                         base_url="http://127.0.0.1") as client:
                await play(client, 200, args.get_every, seed=1)  # warm up: imports, caches
                app.on = True
                profiler = cProfile.Profile() if args.profile else None
                if profiler:
                    profiler.enable()
                await play(client, args.moves, args.get_every, seed=2)
                if profiler:
                    profiler.disable()
                    if args.dump:
                        profiler.dump_stats(args.dump)
                    out = io.StringIO()
                    pstats.Stats(profiler, stream=out).sort_stats(args.sort).print_stats(args.top)
                    print(out.getvalue())

        asyncio.run(session())
    label = " (under cProfile: slower than real)" if args.profile else ""
    print(f"app CPU per request{label}:")
    for kind in ("move", "get", "create", "other"):
        if app.count[kind]:
            print(f"  {kind:7s} {app.cpu[kind] * 1000 / app.count[kind]:7.3f} ms  "
                  f"(n={app.count[kind]})")


if __name__ == "__main__":
    main()
