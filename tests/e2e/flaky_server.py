"""The app, with the first file of the release that a service worker fetches answered 503: a
first install that fails, as on a train's network (``uvicorn tests.e2e.flaky_server:app``).
The page's own scripts and styles (fetched as a script or a style, not by a worker's
``fetch``) come as always."""

from __future__ import annotations

import json

from starlette.types import Receive, Scope, Send

from app.main import app as real_app

failed: list[str] = []


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "http" and scope["path"] == "/__failed":  # what was refused, for the test
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": json.dumps(failed).encode()})
        return
    if scope["type"] == "http" and not failed and scope["path"].startswith("/assets/"):
        headers = dict(scope["headers"])
        if headers.get(b"sec-fetch-dest") == b"empty":  # a fetch(), as cache.addAll's
            failed.append(scope["path"])
            await send({"type": "http.response.start", "status": 503,
                        "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"busy"})
            return
    await real_app(scope, receive, send)
