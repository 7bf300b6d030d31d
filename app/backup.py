"""Back up a running site's database, and put a backup back: ``python -m app.backup``.

    python -m app.backup backup FILE     a consistent copy, taken while the site runs
    python -m app.backup restore FILE    the database as it was in FILE (every game since is lost)

The database is DATABASE_URL's, as for the server (in the image: ``docker exec`` into the app's
container, or a one-off container on the same volume).

- **SQLite**: Python's sqlite3 online backup API, in one step. In WAL mode (the app's) a reader
  never blocks a writer, so the copy is the database at one instant, every committed move up
  to it and none half-written, while players go on playing. A restore copies the backup back
  the same way, into the same file (not a new one in its place: a running app would refuse a
  replaced file, ``app.store.db``); each request sees the database before or after it, never
  half of it. A backup is a plain SQLite file.
- **PostgreSQL**: ``pg_dump --format=custom`` (one transaction: a consistent snapshot while
  the site runs) and ``pg_restore --clean --single-transaction`` (all or nothing). They must be
  on PATH and of PostgreSQL's major version or newer; in the compose stack, the db container
  has its own (docs/deploy.md gives the commands). The password goes to them through the
  environment, never their command line.

Either way, restart the app processes after a restore of an older schema: they migrate it on
start (``MIGRATE_ON_START``, or the compose stack's migrate service).

Every failure ends with one line on stderr and status 1.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from app.settings import exit_with, settings_or_exit
from app.store.db import damage_mark, sqlite_file

SQLITE_HEADER = b"SQLite format 3\x00"


def private_file(path: Path) -> Path:
    """``path`` created empty, readable and writable by its owner alone (0600: a backup holds
    every player's games and names), whatever the umask."""
    path.unlink(missing_ok=True)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    os.chmod(path, 0o600)  # the umask may have taken bits away, never added them: to be sure
    return path


def sqlite_backup(source: Path, target: Path) -> int:
    """Copy the database at ``source`` to ``target`` in one step (a snapshot); the games in it."""
    if not source.exists():
        exit_with(f"there is no database at {source}")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = private_file(target.with_name(target.name + ".partial"))
    with sqlite3.connect(source, timeout=30) as live, sqlite3.connect(partial) as copy:
        live.backup(copy)
        games = copy.execute("SELECT count(*) FROM games").fetchone()[0]
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    live.close()
    copy.close()
    partial.replace(target)  # a backup file is whole or absent
    return games


def sqlite_restore(backup: Path, target: Path) -> int:
    """Copy the backup into the database at ``target``, in place and in one step; a mark
    that the file was damaged (``app.store.db``) goes with what it marked."""
    with backup.open("rb") as file:
        if file.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            exit_with(f"{backup} is not a SQLite backup")
    target.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(f"file:{backup}?mode=ro", uri=True) as saved, \
            sqlite3.connect(target, timeout=30) as live:
        saved.backup(live)
        games = live.execute("SELECT count(*) FROM games").fetchone()[0]
    saved.close()
    live.close()
    damage_mark(target).unlink(missing_ok=True)
    return games


def libpq(url: URL) -> tuple[str, dict[str, str]]:
    """The URL as pg_dump reads it (no driver name, no password) and the environment that
    carries the password."""
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = URL.create("postgresql", username=url.username, host=url.host, port=url.port,
                       database=url.database, query=url.query)
    return plain.render_as_string(hide_password=False), env


def postgres(command: list[str], env: dict[str, str]) -> None:
    if shutil.which(command[0]) is None:
        exit_with(f"{command[0]} is not installed here: install PostgreSQL's client tools "
                  "(of the server's major version or newer), or run it in the database's own "
                  "container (docs/deploy.md, Backups)")
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        exit_with(f"{command[0]} failed: "
                  f"{lines[0] if lines else f'exit status {done.returncode}'}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m app.backup",
                                     description="Back up or restore the site's database.")
    parser.add_argument("action", choices=["backup", "restore"])
    parser.add_argument("file", type=Path, help="the backup file")
    args = parser.parse_args(argv)
    settings = settings_or_exit()
    url = make_url(settings.database_url)
    shown = url.render_as_string(hide_password=True)
    if url.get_backend_name() == "sqlite":
        path = sqlite_file(settings.database_url)
        if path is None:
            exit_with(f"{shown} is not a database file")
        try:
            if args.action == "backup":
                games = sqlite_backup(path, args.file)
                print(f"backed up {path} to {args.file}: {games} games")
            else:
                if not args.file.is_file():
                    exit_with(f"there is no backup at {args.file}")
                games = sqlite_restore(args.file, path)
                print(f"restored {path} from {args.file}: {games} games")
        except (sqlite3.Error, OSError) as exc:
            exit_with(f"the {args.action} failed: {exc}")
        return
    if url.get_backend_name() != "postgresql":
        exit_with(f"no backup for {shown}: SQLite or PostgreSQL only")
    target, env = libpq(url)
    if args.action == "backup":
        args.file.parent.mkdir(parents=True, exist_ok=True)
        partial = private_file(args.file.with_name(args.file.name + ".partial"))
        postgres(["pg_dump", "--format=custom", "--no-owner", f"--file={partial}",
                  f"--dbname={target}"], env)
        partial.replace(args.file)  # a backup file is whole or absent
        print(f"backed up {shown} to {args.file}")
    else:
        if not args.file.is_file():
            exit_with(f"there is no backup at {args.file}")
        postgres(["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction",
                  "--exit-on-error", f"--dbname={target}", str(args.file)], env)
        print(f"restored {shown} from {args.file}")


if __name__ == "__main__":
    main(sys.argv[1:])
