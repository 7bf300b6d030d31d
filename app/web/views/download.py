"""A finished export sent as a download (``services.transfer`` makes the file)."""

from __future__ import annotations

import os
from typing import Protocol

from fastapi.responses import Response

CHUNK = 64 * 1024
"""Bytes read from the file and sent at a time."""


class Exported(Protocol):
    """A finished export's temporary file (``gamesfile.ExportedFile``)."""

    @property
    def path(self) -> str: ...

    @property
    def size(self) -> int: ...


class FileDownload(Response):
    """The export's file as the answer, sent with its length (a cut-off download is seen as
    incomplete) and never kept by a cache. The file leaves the disk at once; its descriptor is
    closed when the answer ends, sent, cut off or never started."""

    def __init__(self, exported: Exported, media_type: str, filename: str) -> None:
        super().__init__(media_type=media_type, headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store"})
        self.handle = os.open(exported.path, os.O_RDONLY)
        os.unlink(exported.path)
        self.headers["Content-Length"] = str(exported.size)

    async def __call__(self, scope, receive, send) -> None:
        try:
            await send({"type": "http.response.start", "status": self.status_code,
                        "headers": self.raw_headers})
            if scope.get("method") != "HEAD":
                while chunk := os.read(self.handle, CHUNK):  # a local file: no wait worth a
                    await send({"type": "http.response.body", "body": chunk,  # thread
                                "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            os.close(self.handle)
