"""`make run` and the Docker image: migrate once, then serve with the settings' HOST and PORT.

``uvicorn app.main:app`` works too (after ``python -m app.prestart``); this entry point exists
so that HOST and PORT, like every other setting, come from the one settings object, and so
that bad settings or an unreachable database end it with one line on stderr.

It also sets up what a bare uvicorn would not: the logs in LOG_FORMAT (text, or one JSON object
a line; ``app.logs``) with the app's own access line instead of uvicorn's, and with WORKERS
above one, prometheus-client's multiprocess mode on a fresh folder, so ``/metrics`` sums every
worker (``app.web.core.metrics``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from app.logs import configure, logging_config
from app.prestart import migrate_or_exit, schema_or_exit
from app.settings import settings_or_exit

MULTIPROCESS_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"


def fresh_metrics_folder() -> Path | None:
    """A folder for the workers' metrics, empty, named in PROMETHEUS_MULTIPROC_DIR for the
    workers to inherit: the operator's when set (its old files removed, or a past run's
    counts would be added in), else a new temporary one (returned, to be removed at exit)."""
    given = os.environ.get(MULTIPROCESS_VARIABLE)
    if given:
        folder = Path(given)
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.db"):
            old.unlink()
        return None
    made = Path(tempfile.mkdtemp(prefix="pyramid-metrics-"))
    os.environ[MULTIPROCESS_VARIABLE] = str(made)
    return made


def main() -> None:
    settings = settings_or_exit()
    configure(settings.log_format)  # the migration's lines in the same format as the rest
    if settings.migrate_on_start:
        migrate_or_exit(settings, own_logging=True)  # one line if the database is unreachable
    else:
        schema_or_exit(settings)  # one line, and no serving, on another schema than the code's
    several = settings.workers > 1 or bool(os.environ.get(MULTIPROCESS_VARIABLE))
    made = fresh_metrics_folder() if several else None
    # X-Forwarded-* are believed only from TRUSTED_PROXIES (uvicorn's own default would
    # believe any client on loopback); behind a proxy, set it and BASE_URL.
    trusted = settings.trusted_proxies
    import uvicorn  # only now: a bad setting is told before this import (as in app.prestart)

    try:
        uvicorn.run("app.main:app", host=settings.host, port=settings.port,
                    workers=settings.workers, proxy_headers=bool(trusted),
                    forwarded_allow_ips=trusted or None,
                    http="app.web.core.protocol:HeadDeadlineProtocol",
                    log_config=logging_config(settings.log_format),
                    access_log=False)  # app.web.core.observe writes a richer access line
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)


if __name__ == "__main__":
    main()
