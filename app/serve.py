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
    migrate_or_exit(settings)  # one line on stderr if the database cannot be reached
    # proxy_headers: behind a reverse proxy, share links use the public scheme and host
    # (uvicorn trusts X-Forwarded-* from FORWARDED_ALLOW_IPS, loopback by default).
    uvicorn.run("app.main:app", host=settings.host, port=settings.port, proxy_headers=True,
                http="app.web.protocol:HeadDeadlineProtocol")


if __name__ == "__main__":
    main()
