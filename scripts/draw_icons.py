"""Draw the app's icons (static/icons/*.png): a pyramid of cards on the green felt.

    .venv/bin/python scripts/draw_icons.py

Pure Python (zlib for PNG), so nothing beyond the standard library is needed. Each pixel is
the average of 4x4 samples, which smooths the cards' rounded corners. The maskable icon keeps
everything within the middle 80% (the safe zone a phone's mask never cuts), on felt to the
edges; the others have rounded felt corners.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
FELT_CENTRE = (43, 138, 91)
FELT_EDGE = (15, 66, 41)
CARD = (253, 251, 244)
CARD_EDGE = (80, 74, 58)
GOLD = (255, 200, 61)
RED = (198, 40, 40)
SAMPLES = 4


def rounded_box(x: float, y: float, left: float, top: float, width: float, height: float,
                radius: float) -> bool:
    """Is (x, y) inside the rounded rectangle?"""
    if not (left <= x <= left + width and top <= y <= top + height):
        return False
    cx = min(max(x, left + radius), left + width - radius)
    cy = min(max(y, top + radius), top + height - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def cards(scale: float) -> list[tuple[float, float, float, float]]:
    """A pyramid of three rows of cards, in a unit square scaled by ``scale`` (centred)."""
    width, height = 0.22 * scale, 0.30 * scale
    placed = []
    for row in range(3):
        for col in range(row + 1):
            left = 0.5 - (row + 1) * width * 0.56 + col * width * 1.12 + (1 - scale) * 0
            top = 0.5 - 1.5 * height * 0.78 + row * height * 0.72
            placed.append((left, top, width, height))
    return placed


def colour_at(x: float, y: float, maskable: bool, scale: float) -> tuple[int, int, int, int]:
    """The colour of the icon at (x, y) in the unit square, with alpha."""
    if not maskable and not rounded_box(x, y, 0, 0, 1, 1, 0.18):
        return (0, 0, 0, 0)
    distance = min(1.0, ((x - 0.5) ** 2 + (y - 0.35) ** 2) ** 0.5 / 0.75)
    base = tuple(round(c + (e - c) * distance) for c, e in zip(FELT_CENTRE, FELT_EDGE, strict=True))
    colour = (*base, 255)
    for index, (left, top, width, height) in enumerate(cards(scale)):
        if rounded_box(x, y, left, top, width, height, width * 0.12):
            inner = rounded_box(x, y, left + width * 0.04, top + width * 0.04,
                                width * 0.92, height - width * 0.08, width * 0.09)
            colour = (*((GOLD if index == 0 else CARD) if inner else CARD_EDGE), 255)
            pip = ((x - (left + width / 2)) ** 2 + (y - (top + height / 2)) ** 2) ** 0.5
            if inner and pip < width * 0.16:
                colour = (*(RED if index % 2 else (40, 40, 40)), 255)
    return colour


def draw(size: int, maskable: bool) -> bytes:
    """The PNG bytes of one icon."""
    scale = 0.8 if maskable else 1.0
    rows = []
    step = 1 / (size * SAMPLES)
    for py in range(size):
        row = bytearray([0])  # no filter
        for px in range(size):
            total = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px * SAMPLES + sx + 0.5) * step
                    y = (py * SAMPLES + sy + 0.5) * step
                    for i, value in enumerate(colour_at(x, y, maskable, scale)):
                        total[i] += value
            row += bytes(round(value / SAMPLES ** 2) for value in total)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("icon-maskable-512.png", 512, True)):
        (OUT / name).write_bytes(draw(size, maskable))
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
