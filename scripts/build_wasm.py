"""Build the solver's C core as WebAssembly: static/wasm/solver.wasm, from the same sources as the
Python extension (app/engine/_*.c; _wasm.c is the WebAssembly binding as _solver.c is Python's).

    python scripts/build_wasm.py            # write static/wasm/solver.wasm
    python scripts/build_wasm.py --check    # exit 1 when the committed file is not what the
                                            # sources build (tests/engine/test_wasm_build.py)

The compiler is PyPI's ``ziglang`` (clang with wasi-libc for ``wasm32-wasi``), pinned in
pyproject.toml's test extras: the same compiler and flags give the same bytes on any machine,
so the .wasm is committed like a lock file. The build is a reactor (no ``main``): the module
imports nothing and exports its memory and the ``wasm_*`` calls of _wasm.c. The first build on
a machine also builds zig's wasi-libc into its cache (tens of seconds); later ones take seconds.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "app" / "engine"
OUTPUT = ROOT / "static" / "wasm" / "solver.wasm"

CORE = ("_position", "_tables", "_moves", "_prune", "_word", "_apex", "_cone", "_search",
        "_starts", "_par")
"""The core files the solve needs (not _solver.c, the Python binding, nor _playout.c)."""
SOURCES = ("_wasm", *CORE)
FLAGS = ("--target=wasm32-wasi", "-mexec-model=reactor", "-O3", "-std=c99", "-flto",
         "-mbulk-memory", "-s", "-Wl,--gc-sections")
"""-s: no names or debug sections, so no path of the machine that built it gets in."""


def build(output: Path) -> None:
    """Compile SOURCES into ``output``; raises CalledProcessError with the compiler's words."""
    output.parent.mkdir(parents=True, exist_ok=True)
    # Relative paths from the engine's folder, so that nothing of where the checkout lies can
    # reach the output (no __FILE__ in the core, but the rule costs nothing).
    command = [sys.executable, "-m", "ziglang", "cc", *FLAGS,
               *(f"{name}.c" for name in SOURCES), "-o", str(output.resolve())]
    env = {**os.environ, "SOURCE_DATE_EPOCH": "0"}
    subprocess.run(command, cwd=ENGINE, check=True, env=env, capture_output=True, text=True)


def check() -> bool:
    """Does the committed .wasm equal what the sources build now?"""
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / "solver.wasm"
        build(fresh)
        return OUTPUT.exists() and fresh.read_bytes() == OUTPUT.read_bytes()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed file instead of writing it")
    args = parser.parse_args(argv)
    try:
        if args.check:
            same = check()
            print("static/wasm/solver.wasm is what the sources build" if same else
                  "static/wasm/solver.wasm differs from what the sources build: "
                  "run python scripts/build_wasm.py and commit it")
            return 0 if same else 1
        build(OUTPUT)
    except subprocess.CalledProcessError as exc:
        print(exc.stderr, file=sys.stderr)
        return 2
    print(f"{OUTPUT.relative_to(ROOT)}: {OUTPUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
