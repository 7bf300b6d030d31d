"""`make run` and the Docker image: migrate once, then serve with the settings' HOST and PORT.

``uvicorn app.main:app`` works too (after ``python -m app.prestart``); this entry point exists
so that HOST and PORT, like every other setting, come from the one settings object, and so
that bad settings or an unreachable database end it with one line on stderr.
"""

from __future__ import annotations

import uvicorn

from app.prestart import migrate_or_exit
from app.settings import settings_or_exit


def main() -> None:
    settings = settings_or_exit()
    if settings.migrate_on_start:
        migrate_or_exit(settings)  # one line on stderr if the database cannot be reached
    # X-Forwarded-* are believed only from TRUSTED_PROXIES (uvicorn's own default would
    # believe any client on loopback); behind a proxy, set it and BASE_URL.
    trusted = settings.trusted_proxies
    uvicorn.run("app.main:app", host=settings.host, port=settings.port,
                proxy_headers=bool(trusted), forwarded_allow_ips=trusted or None,
                http="app.web.protocol:HeadDeadlineProtocol")


if __name__ == "__main__":
    main()
