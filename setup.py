"""Builds the solver's C core; everything else about the package is in pyproject.toml."""

import platform

from setuptools import Extension, setup

# The search counts bits all the time: on x86-64 let the compiler use the POPCNT instruction
# (every x86-64 processor of the last fifteen years has it) rather than a library routine.
# -O3 and link-time optimisation (the eight files inlined into one another): 3-7% less time a
# process than -O2 with one or two passes (docs/solver-log.md, round 4).
ARGS = ["-O3", "-std=c99", "-flto"]
if platform.machine().lower() in ("x86_64", "amd64"):
    ARGS.append("-mpopcnt")

SOURCES = [f"app/engine/{name}.c" for name in ("_solver", "_position", "_tables", "_moves",
                                                 "_prune", "_word", "_apex", "_cone", "_search",
                                                 "_starts", "_par", "_playout")]

HEADERS = [f"app/engine/{name}.h" for name in ("_core", "_tables", "_shapes", "_pays")]

setup(ext_modules=[Extension("app.engine._solver", sources=SOURCES, depends=HEADERS,
                             extra_compile_args=ARGS, extra_link_args=["-flto"])])
