"""Benchmark: the statistics pages for a player with 100,000 games.

Builds a throwaway SQLite database with the migrations, bulk-inserts one player's 100,000
ended games (spread over the six variants, with wins, losses and abandoned games, plus other
players' games around them), then times the pages through the real app with medians over
several requests:

    .venv/bin/python bench/stats.py [--games 100000] [--repeat 7] [--database-url URL]

A PostgreSQL URL (an empty database you can throw away) runs the same against PostgreSQL.
"""

from __future__ import annotations

import argparse
import random
import statistics as stats_module
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import func, insert, select, text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine import Deal, Game, Move
from app.main import create_app
from app.prestart import migrate
from app.settings import Settings
from app.store import Database
from app.store.models import GameRecord
from app.web.core.player import PlayerCookie
from bench.machine import speed_line

PLAYER = "bench-player-with-many-games"
SECRET = "bench-secret-key-0123456789"
BATCH = 10_000


def real_games() -> list[tuple[int, str, str, list[Move]]]:
    """A few games really played by the engine, so that replays of the rows work."""
    games = []
    for number in range(1, 7):
        for goal, passes in (("standard", 1), ("standard", 3), ("wholedeck", 2)):
            game = Game(Deal.from_number(number), goal, passes)
            rng = random.Random(number * 7 + passes)
            while not game.is_over() and len(game.moves) < 200:
                legal = game.legal_moves
                removals = [m for m in legal if m.op.value == "remove"]
                game.play(rng.choice(removals) if removals and rng.random() < .8
                          else rng.choice(legal))
            if game.is_over():
                games.append((number, goal, passes, list(game.moves)))
    return games


def rows_for(player: str, count: int, start: datetime, seed: int,
             runs: dict | None = None) -> list[dict]:
    """``count`` ended games of ``player``, with the order and streaks the game code would
    have recorded (``runs`` carries them from one batch to the next)."""
    runs = {} if runs is None else runs
    rng = random.Random(seed)
    samples = real_games()
    rows = []
    moment = start
    for index in range(count):
        number, _, _, moves = rng.choice(samples)
        goal = rng.choice(("standard", "wholedeck"))
        passes = rng.choice((1, 2, 3))
        full = 52 if goal == "wholedeck" else 28
        status = rng.choices(("won", "lost", "abandoned"), weights=(3, 6, 1))[0]
        seconds = rng.randint(40, 900)
        moment += timedelta(seconds=seconds + rng.randint(5, 300))
        won = status == "won"
        seq, won_before, run_all = runs.get(player, (0, None, 0))
        _, won_here, run = runs.get((goal, passes), (0, None, 0))
        streak_all = run_all + 1 if won_before == won else 1
        streak = run + 1 if won_here == won else 1
        runs[player] = (seq + 1, won, streak_all)
        runs[(goal, passes)] = (0, won, streak)
        rows.append({
            "id": f"{player[:6]}{seed:02d}{index:07d}", "player_id": player,
            "deal_number": str(number), "deal_text": None, "goal": goal, "passes": passes,
            "moves": " ".join(m.to_text() for m in moves), "move_count": len(moves),
            "undo_count": 0, "status": status,
            "cleared": full if status == "won" else rng.randint(0, full - 1),
            "seconds": seconds, "created_at": moment - timedelta(seconds=seconds),
            "updated_at": moment, "finished_at": moment, "version": 1,
            "seq": seq + 1, "streak": streak, "streak_all": streak_all,
        })
    return rows


def build(database_url: str, games: int) -> float:
    """Migrate and fill the database; returns the seconds the bulk insert took."""
    migrate(database_url)
    database = Database(database_url)
    table = GameRecord.__table__
    began = time.perf_counter()
    start = datetime(2020, 1, 1, tzinfo=UTC)
    runs: dict = {}
    with database.engine.begin() as connection:
        for offset in range(0, games, BATCH):
            batch = rows_for(PLAYER, min(BATCH, games - offset),
                             start + timedelta(days=offset // 100), seed=offset // BATCH,
                             runs=runs)
            connection.execute(insert(table), batch)
        for other in range(5):  # neighbours: their games must cost the player nothing
            connection.execute(insert(table), rows_for(f"other-{other}", 4_000, start,
                                                       seed=90 + other))
        if connection.dialect.name == "sqlite":
            connection.execute(text("ANALYZE"))
        else:
            connection.execute(text("ANALYZE games"))
    took = time.perf_counter() - began
    with database.engine.connect() as connection:
        total = connection.scalar(select(func.count()).select_from(table))
        mine = connection.scalar(select(func.count()).select_from(table)
                                 .where(table.c.player_id == PLAYER))
    print(f"database: {total:,} games, {mine:,} of them the player's; "
          f"bulk insert {took:.1f} s")
    database.dispose()
    return took


def timed(client: TestClient, url: str, repeat: int, headers: dict | None = None) -> list[float]:
    client.get(url, headers=headers)  # warm-up: caches, templates, connection pool
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        response = client.get(url, headers=headers)
        times.append(time.perf_counter() - began)
        assert response.status_code == 200, (url, response.status_code)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--database-url", default=None,
                        help="an empty database to fill (default: a temporary SQLite file)")
    args = parser.parse_args()
    print(speed_line(), flush=True)

    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'bench.db'}"
        build(url, args.games)
        settings = Settings(_env_file=None, database_url=url, environment="test",
                            secret_key=SECRET)
        app = create_app(settings)
        with TestClient(app) as client:
            client.cookies.set(settings.cookie_name, PlayerCookie(settings).sign(PLAYER))
            pages = args.games // 20
            some_game = f"{PLAYER[:6]}{0:02d}{0:07d}"
            cases = [
                ("/stats (figures, 6 charts, history page 1)", "/stats", None),
                ("/stats?page=2 (history via htmx)", "/stats?page=2",
                 {"HX-Request": "true", "HX-Target": "history"}),
                (f"/stats?page={pages} (oldest history page)", f"/stats?page={pages}", None),
                ("/games/{id}/replay?step=10", f"/games/{some_game}/replay?step=10", None),
            ]
            print(f"{'request':48} {'median':>9} {'min':>9} {'max':>9}   (n={args.repeat})")
            for label, path, headers in cases:
                times = timed(client, path, args.repeat, headers)
                print(f"{label:48} {stats_module.median(times) * 1000:7.1f}ms "
                      f"{min(times) * 1000:7.1f}ms {max(times) * 1000:7.1f}ms")
            began = time.perf_counter()
            exported = client.get("/stats/export.csv")
            lines = exported.text.count("\n") - 1
            print(f"{'/stats/export.csv (once, streamed)':48} "
                  f"{(time.perf_counter() - began) * 1000:7.1f}ms   {lines:,} rows")
        app.state.db.dispose()


if __name__ == "__main__":
    main()
