"""Slow clients (issue 15): thousands of connections that trickle a request body a byte at a
time must each be cut off at their deadline, while a player plays on unaffected.

    .venv/bin/python bench/slow_clients.py [--connections 3000] [--deadline 10]

Starts ``python -m app.serve`` (the production entry point: uvicorn with the request-head
deadline of app/web/core/protocol.py, and the app's body deadline) on a free port of 127.0.0.1 with
HEAD_TIMEOUT_SECONDS and BODY_TIMEOUT_SECONDS set to ``--deadline``. Opens the connections
(a third stalls inside the request head, two thirds send a head and then a body a byte a
second), while one player makes a move every 0.2 s. Prints how many connections were closed
within the deadline (plus one second of slack), the latest close, the player's move latency,
the server's CPU time, and the machine's speed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import PROJECT, cpu_times, cpu_used, free_port, percentile, process_tree
from machine import in_loops, machine_speed, speed_line

SLACK = 1.0


async def slow(port: int, head_only: bool, deadline: float) -> float | None:
    """Trickle until the server closes; the seconds it took, or None if still open after twice
    the deadline."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return None
    began = time.perf_counter()  # the server's deadline runs from the connection
    try:
        if head_only:
            writer.write(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
        else:
            writer.write(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                         b"application/json\r\nContent-Length: 5000\r\n\r\n{")
        await writer.drain()
        while time.perf_counter() - began < 2 * deadline:
            try:
                data = await asyncio.wait_for(reader.read(4096), timeout=1.0)
            except TimeoutError:
                if not head_only:
                    writer.write(b" ")
                    await writer.drain()
                continue
            if not data:
                return time.perf_counter() - began
        return None
    except (ConnectionError, OSError):
        return time.perf_counter() - began
    finally:
        writer.close()


async def player(base: str, until: float, latencies: list[float]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        game = (await client.post("/api/games", json={"deal": 42})).json()
        while time.perf_counter() < until:
            began = time.perf_counter()
            answer = await client.post(f"/api/games/{game['id']}/moves", json={"op": "draw"})
            latencies.append(time.perf_counter() - began)
            if answer.status_code != 200 or answer.json()["stock"]["count"] == 0:
                game = (await client.post("/api/games", json={"deal": 42})).json()
            await asyncio.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=3000)
    parser.add_argument("--deadline", type=float, default=10.0)
    args = parser.parse_args()
    want = args.connections + 1000
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    unit = machine_speed()
    print(speed_line(unit))
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="pyramid-slow-") as folder:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/slow.db", "PORT": str(port),
               "ENVIRONMENT": "test", "SECRET_KEY": "bench-slow-clients-secret-0123456789ab",
               "HEAD_TIMEOUT_SECONDS": str(args.deadline),
               "BODY_TIMEOUT_SECONDS": str(args.deadline)}
        server = subprocess.Popen([sys.executable, "-m", "app.serve"], cwd=PROJECT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)

            async def run() -> tuple[list[float | None], list[float], float]:
                latencies: list[float] = []
                pids = process_tree(server.pid)
                before = cpu_times(pids)
                until = time.perf_counter() + 2 * args.deadline + 2
                moves = asyncio.ensure_future(player(base, until, latencies))
                closed = await asyncio.gather(*(
                    slow(port, n % 3 == 0, args.deadline) for n in range(args.connections)))
                await moves
                return closed, latencies, cpu_used(before, cpu_times(pids))

            closed, latencies, cpu = asyncio.run(run())
        finally:
            server.terminate()
            server.wait(timeout=20)
    within = [t for t in closed if t is not None and t <= args.deadline + SLACK]
    late = [t for t in closed if t is not None and t > args.deadline + SLACK]
    never = sum(t is None for t in closed)
    print(f"{args.connections} slow connections, deadline {args.deadline:g} s: "
          f"{len(within)} closed within it (+{SLACK:g} s), {len(late)} later, {never} never")
    print(f"latest close {max((t for t in closed if t is not None), default=float('nan')):.2f} s")
    print(f"a player's move meanwhile: p50 {percentile(latencies, .5):.1f} ms, p99 "
          f"{percentile(latencies, .99):.1f} ms, max {1000 * max(latencies):.1f} ms "
          f"(n={len(latencies)})")
    print(f"server CPU {cpu:.1f} s ({in_loops(cpu, unit)})")


if __name__ == "__main__":
    main()
