"""The machine's speed, printed beside every bench's figures so that figures taken on machines
of different speeds (or on one machine in a slow spell) can be compared.

The unit is the time of a fixed pure-Python loop, ``sum(range(10**6))``, the median of five:
about 10-22 ms on the machines this project has run on. A CPU figure divided by it travels
between machines far better than the figure itself ("2.2 ms, 0.19 loops").
"""

from __future__ import annotations

import statistics
import time

ROUNDS = 5


def machine_speed() -> float:
    """Seconds for ``sum(range(10**6))``, median of five."""
    times = []
    for _ in range(ROUNDS):
        began = time.perf_counter()
        sum(range(10**6))
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def speed_line(unit: float | None = None) -> str:
    unit = machine_speed() if unit is None else unit
    return (f"machine speed: sum(range(10**6)) = {1000 * unit:.1f} ms "
            "(CPU figures are also given in loops: multiples of it)")


def in_loops(seconds: float, unit: float) -> str:
    """A CPU time as a multiple of the machine's loop: ``0.19 loops``."""
    return f"{seconds / unit:.2f} loops"


def chromium() -> str:
    """The browser the browser benches drive: CHROMIUM (a path), else Debian's full `chromium`
    on the PATH, as players have it (the tests drive its headless shell); exits saying how to
    get one."""
    import os
    import shutil

    found = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if not found:
        raise SystemExit("no Chromium: apt-get install chromium, or set CHROMIUM")
    return found
