"""/odds fits a phone (the long parts folded, no command line in the page's
width) and /rules draws the pyramid and says how to play here (click, drag, tap, the keys).
What the browser measures is in tests/e2e/test_pages_fit.py."""

from __future__ import annotations

import re

from app import odds


def section(html: str, title_id: str) -> str:
    return html.split(f'aria-labelledby="{title_id}"', 1)[1].split("</section>", 1)[0]


def folded(block: str) -> str:
    """What a section keeps in its <details> (closed: no ``open``)."""
    match = re.search(r"<details class=\"fold\"( open)?[^>]*>(.*)</details>", block, re.S)
    assert match, "the section folds its long part"
    assert match.group(1) is None, "folded until asked for"
    return match.group(2)


def test_the_odds_page_folds_its_long_parts(client):
    html = client.get("/odds").text
    # The answer stays open: the chart and the table.
    rates = section(html, "rates-title")
    assert "<svg" in rates and "data-odds-table" in rates and "<details" not in rates
    published = folded(section(html, "published-title"))
    assert published.count("data-comparison=") == len(odds.comparisons())
    summary = re.search(r"<summary>(.*?)</summary>", section(html, "published-title")).group(1)
    assert f"{len(odds.comparisons())} published figures" in summary
    difficulty = section(html, "difficulty-title")
    assert folded(difficulty).count("data-difficulty-table") == 6
    assert "winnable deal has a difficulty" in difficulty.split("<details", 1)[0]
    assert "The solver sees every card" in folded(section(html, "method-title"))
    commands = folded(section(html, "reproduce-title"))
    assert "data-commands" in commands and "bench/collect_odds.py" in commands


def test_the_rules_page_draws_the_pyramid(client):
    html = client.get("/rules").text
    drawing = html.split("data-pyramid-drawing", 1)[1].split("</figure>", 1)[0]
    svg = drawing.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert 'role="img"' in drawing and "<title" in svg and "<desc" in svg
    assert svg.count('class="dc ') + svg.count('class="dc"') == 28  # seven rows of cards
    for row in range(1, 8):
        assert f'data-row="{row}"' in svg
    assert "data-covered" in svg and svg.count("data-covering") == 2
    assert "<figcaption" in drawing and "covered by the two cards" in drawing
    # Where the rules speak of the pyramid, before the moves.
    assert html.index("data-pyramid-drawing") < html.index('id="moves"')
    assert not re.search(r"\sstyle\s*=", html) and "<style" not in html


def test_the_rules_page_says_how_to_play_here(client):
    html = client.get("/rules").text
    here = html.split('<h2 id="how-to-play-here">How to play here</h2>', 1)[1].split("<h2", 1)[0]
    for words in ("click", "drag", "tap", "Undo", "Hint"):
        assert words.lower() in here.lower(), words
    for key in ("Enter", "D", "U", "H", "P", "S", "W", "Esc", "F", "N"):
        assert f"<kbd>{key}</kbd>" in here, key
    assert "arrow keys" in here
