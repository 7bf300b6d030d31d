"""static/wasm/solver.wasm is what the C core's sources build, byte for byte (like a lock file).

The .wasm is committed so that a page is served without a compiler at deploy time; this test
rebuilds it with scripts/build_wasm.py (PyPI's ziglang, pinned in the test extras) and fails
when a change to app/engine/_*.c was not rebuilt and committed, or the build stopped being
deterministic. The first build on a machine also builds zig's wasi-libc into its cache."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "build_wasm.py"
WASM = ROOT / "static" / "wasm" / "solver.wasm"


def _build_module():
    spec = importlib.util.spec_from_file_location("build_wasm", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_wasm_is_what_the_sources_build(tmp_path: Path):
    if importlib.util.find_spec("ziglang") is None:
        pytest.fail("ziglang is not installed: pip install -e '.[test]' (it compiles the "
                    "solver to WebAssembly)", pytrace=False)
    build = _build_module()
    fresh = tmp_path / "solver.wasm"
    build.build(fresh)
    again = tmp_path / "again.wasm"
    build.build(again)
    assert fresh.read_bytes() == again.read_bytes(), "two builds of the same sources differ"
    assert WASM.exists(), "static/wasm/solver.wasm is missing: run python scripts/build_wasm.py"
    assert fresh.read_bytes() == WASM.read_bytes(), (
        "static/wasm/solver.wasm is not what app/engine/_*.c build now: run "
        "python scripts/build_wasm.py and commit it")


def test_every_core_file_is_built_into_one_target_or_the_other():
    """No C file of the core is left out of the WebAssembly build by mistake: each is in it,
    or is the Python binding, or is only for the playouts (which the page never runs)."""
    build = _build_module()
    sources = {path.stem for path in (ROOT / "app" / "engine").glob("_*.c")}
    assert sources - set(build.SOURCES) == {"_solver", "_playout"}
    assert (ROOT / "app" / "engine" / "_wasm.c").read_text().count("Python.h") == 0
    portable = [p for p in (ROOT / "app" / "engine").glob("_*.[ch]") if p.stem != "_solver"]
    assert not [p.name for p in portable if "Python.h" in p.read_text()]

