"""Templates compare a game's status through the enum's names: ``{% if status is won %}``, one
Jinja test per ``GameStatus`` member, never against a bare string (a misspelt one would be
false without a word)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from jinja2 import TemplateAssertionError, TemplateRuntimeError

from app.engine import GameStatus
from app.web.core.names import status_label
from app.web.views.templating import templates

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def render(source: str, **context) -> str:
    return templates.env.from_string(source).render(**context)


@pytest.mark.parametrize("status", list(GameStatus))
def test_each_status_has_its_test(status):
    names = [other.name.lower() for other in GameStatus]
    source = "".join(f"{{% if status is {name} %}}{name}{{% endif %}}" for name in names)
    for given in (status, status.value):
        assert render(source, status=given) == status.name.lower()
    assert render("{{ status is not won }}", status=status) == str(status is not GameStatus.WON)


def test_a_misspelt_status_fails_the_page_and_so_does_a_non_status():
    with pytest.raises(TemplateAssertionError):
        templates.env.from_string("{{ status is wonn }}")
    with pytest.raises(TemplateRuntimeError):  # in a branch, Jinja says so once it gets there
        render("{% if status is wonn %}{% endif %}", status=GameStatus.WON)
    with pytest.raises(ValueError):
        render("{{ status is won }}", status="tie")


def test_a_status_prints_as_its_value_for_the_hooks():
    assert render('<p data-status="{{ status }}">', status=GameStatus.ABANDONED) == (
        '<p data-status="abandoned">')


def test_the_label_knows_only_statuses():
    assert status_label("won") == status_label(GameStatus.WON) == "Won"
    with pytest.raises(ValueError):
        status_label("not won")


def test_no_template_compares_a_status_with_a_string():
    compared = re.compile(r"""(status|result)(\.value)?\s*[!=]=\s*['"]""")
    found = [f"{path.name}: {line.strip()}" for path in sorted(TEMPLATES.rglob("*.html"))
             for line in path.read_text().splitlines() if compared.search(line)]
    assert found == []
