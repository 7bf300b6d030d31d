"""Numbers, percentages, month and weekday names and the calendar's first weekday as people
write them where they live: "100.000" in German, "100 000" in French; the week
starting on Sunday in the US, on Monday in Britain, Germany and Russia; the month's name in
the page's language. The values come from Babel's CLDR data, not from the catalogs."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from babel import Locale

from app.web.core.i18n import speaking
from app.web.core.numbers import format_number


def heading(page: str) -> str:
    return re.search(r"<h1>(.*?)</h1>", page, re.S).group(1)


def weekday_heads(page: str) -> list[str]:
    thead = re.search(r"<thead><tr>(.*?)</tr></thead>", page, re.S).group(1)
    return re.findall(r'<th scope="col">([^<]*)</th>', thead)


@pytest.mark.parametrize(("header", "first"), [
    ("en-US", "Sun"), ("en-GB", "Mon"), ("de-DE", "Mo"), ("fr-FR", "lun."), ("ru", "пн"),
    ("ja", "日"), ("es-ES", "lun")])
def test_the_calendar_starts_the_week_where_the_player_does(client, header, first):
    page = client.get("/daily/calendar", headers={"Accept-Language": header})
    assert page.status_code == 200
    heads = weekday_heads(page.text)
    assert len(heads) == 7 and heads[0] == first, heads


@pytest.mark.parametrize("header", ["de", "fr", "es", "ja", "ru", "en"])
def test_the_calendar_names_its_month_in_the_pages_language(client, header):
    page = client.get("/daily/calendar", headers={"Accept-Language": header}).text
    title = heading(page)
    locale = Locale.parse(header)
    names = {*locale.months["stand-alone"]["wide"].values(),
             *locale.months["format"]["wide"].values()}
    assert any(name in title for name in names), title
    if header != "en":
        english = Locale.parse("en").months["format"]["wide"].values()
        assert not any(name in title for name in english), title
    assert str(datetime.now(UTC).year) in title


@pytest.mark.parametrize(("header", "written"), [
    ("en", "100,000"), ("de", "100.000"), ("fr", "100\u202f000"), ("ru", "100\u00a0000"),
    ("ja", "100,000")])
def test_large_numbers_are_grouped_the_players_way(client, header, written):
    with speaking(header):
        assert format_number(100_000) == written
    page = client.get("/odds", headers={"Accept-Language": header}).text
    assert written in page


@pytest.mark.parametrize(("header", "decimal"), [("en", r"\d\.\d"), ("de", r"\d,\d\s%"),
                                                  ("fr", r"\d,\d\s%")])
def test_percentages_are_written_the_players_way(client, header, decimal):
    home = client.get("/", headers={"Accept-Language": header}).text
    table = home.split('<table class="odds">', 1)[1].split("</table>", 1)[0]
    cells = re.findall(r"<td>([^<]*)</td>", table)
    assert cells and all(re.search(decimal, cell) for cell in cells), cells
