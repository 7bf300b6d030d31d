"""The Python side's payloads kept between runs (``engine_helpers.kept_payload``): made once,
read back while every source is the same to the byte, made anew when one changes or when
``FRESH_PAYLOADS`` asks."""

from __future__ import annotations

import json

from . import engine_helpers
from .engine_helpers import kept_payload, sources_key


def test_a_payload_is_kept_until_a_source_changes(tmp_path, monkeypatch):
    monkeypatch.setattr(engine_helpers, "KEPT", tmp_path / "kept")
    monkeypatch.delenv("FRESH_PAYLOADS", raising=False)
    source = tmp_path / "source.txt"
    source.write_text("one")
    made = []

    def build():
        made.append(source.read_text())
        return {"made": len(made)}

    def read() -> dict:
        return json.loads(kept_payload("trial", build, also=[source]).read_text())

    assert read() == {"made": 1}
    assert read() == {"made": 1} and made == ["one"]  # kept: not made again
    source.write_text("two")  # a byte changed: made anew, and the old one dropped
    assert read() == {"made": 2}
    assert len(list((tmp_path / "kept").glob("trial-*.json"))) == 1
    monkeypatch.setenv("FRESH_PAYLOADS", "1")
    assert read() == {"made": 3}


def test_the_key_covers_the_engine_and_what_is_added(tmp_path):
    extra = tmp_path / "extra.bin"
    extra.write_bytes(b"a")
    first = sources_key([extra])
    assert sources_key([extra]) == first
    extra.write_bytes(b"b")
    assert sources_key([extra]) != first
    assert sources_key() != first
    names = {path.name for path in (engine_helpers.ROOT / "app" / "engine").glob("*.c")}
    assert names, "the C core's sources are part of the key"
