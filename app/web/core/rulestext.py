"""The rules page in the player's language: docs/RULES.md, one catalog message per piece.

RULES.md stays the one text of the rules (in English, read on GitHub as it is). For the page,
it is cut into the pieces a translator translates one at a time: a heading's text, a
paragraph, a list item, a table cell, a drawing's caption, each as one line of Markdown (its
inline marks, **bold**, `keys`, kept inside). ``pieces`` does the cutting for both sides:
``extract`` hands the pieces to ``pybabel extract`` (babel.cfg's ``rules`` method), and
``translated`` puts the page back together with each piece translated, its Markdown
structure (heading levels, list markers, table rows) untouched, so a translation can change
the words but never the shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any

_HEADING = re.compile(r"^(#{1,6}) +(.*)$")
_ITEM = re.compile(r"^(\s*(?:[-*+]|\d+\.) +)(.*)$")
_IMAGE = re.compile(r"^!\[(.*)\]\(([^)]*)\)$")
_RULE = re.compile(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$")


@dataclass(frozen=True, slots=True)
class Piece:
    """A line of the page: ``before`` + the words + ``after``; ``words`` is None for a line
    with nothing to translate (a table's alignment row, an empty cell)."""

    line: int
    before: str
    words: str | None
    after: str = ""


def pieces(text: str) -> Iterator[Piece | str]:
    """``text``'s lines regrouped into pieces; a blank line comes out as ``""``. A paragraph's
    or list item's lines are joined with spaces into one piece (Markdown reads them so)."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            yield ""
            i += 1
            continue
        if heading := _HEADING.match(line):
            yield Piece(i + 1, heading.group(1) + " ", heading.group(2))
            i += 1
            continue
        if line.lstrip().startswith("|"):
            yield from _row(i + 1, line)
            i += 1
            continue
        if image := _IMAGE.match(line.strip()):
            yield Piece(i + 1, "![", image.group(1), f"]({image.group(2)})")
            i += 1
            continue
        item = _ITEM.match(line)
        before = item.group(1) if item else ""
        words = [item.group(2) if item else line.strip()]
        start = i + 1
        i += 1
        while (i < len(lines) and lines[i].strip() and not _starts_block(lines[i])):
            words.append(lines[i].strip())
            i += 1
        yield Piece(start, before, " ".join(words))


def _starts_block(line: str) -> bool:
    return bool(_HEADING.match(line) or _ITEM.match(line) or line.lstrip().startswith("|"))


def _row(number: int, line: str) -> Iterator[Piece]:
    """A table row, cell by cell (``| a | b |``): the pipes stay, the words are translated."""
    if _RULE.match(line.strip()):
        yield Piece(number, line, None)
        return
    cells = line.strip().strip("|").split("|")
    yield Piece(number, "|", None)
    for cell in cells:
        words = cell.strip()
        yield Piece(number, " ", words or None, " |")


def translated(text: str, translate: Callable[[str], str]) -> str:
    """``text`` (Markdown) with every piece's words passed through ``translate``."""
    out: list[str] = []
    for piece in pieces(text):
        if isinstance(piece, str):
            out.append("\n")
        elif piece.before == "|" and piece.words is None:
            out.append("\n|")
        else:
            words = translate(piece.words) if piece.words else ""
            in_row = piece.after == " |"
            out.append(("" if in_row else "\n") + piece.before + words + piece.after)
    return "".join(out).lstrip("\n") + "\n"


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
            options: dict[str, Any]) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method for RULES.md (babel.cfg: ``[rules: docs/RULES.md]``)."""
    text = fileobj.read().decode("utf-8")
    for piece in pieces(text):
        if isinstance(piece, Piece) and piece.words:
            comments = ["The rules page (docs/RULES.md): one piece of Markdown. Keep **bold**, "
                        "`keys` and links as they are."]
            yield piece.line, None, piece.words, comments


# --- the drawings the rules show (docs/*.svg) ----------------------------------------------
_DRAWING_TEXT = re.compile(r"(<(title|desc)\b[^>]*>)(.*?)(</\2>)", re.S)
"""A drawing's words: its title and description, what a screen reader reads."""


def translated_drawing(svg: str, translate: Callable[[str], str]) -> str:
    """``svg`` with its title and description passed through ``translate``."""
    return _DRAWING_TEXT.sub(
        lambda m: m.group(1) + translate(m.group(3).strip()) + m.group(4), svg)


def extract_drawing(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                    options: dict[str, Any]) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method for a drawing (babel.cfg: ``[drawing: docs/*.svg]``)."""
    svg = fileobj.read().decode("utf-8")
    for match in _DRAWING_TEXT.finditer(svg):
        line = svg.count("\n", 0, match.start()) + 1
        yield line, None, match.group(3).strip(), [
            "A drawing on the rules page: what a screen reader reads of it."]
