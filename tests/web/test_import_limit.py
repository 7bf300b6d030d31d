"""An import's size limit is one fact: ``IMPORT_MAX_MB``, which the app
reads and deploy/pyramid.conf.template's ``client_max_body_size`` for ``/stats/import`` is
filled in from. A file over it is refused with the same clear page whoever refuses it: the app
itself, or the proxy (nginx's 413 sends the player to ``/stats/import/too-large``);
tests/deploy/test_proxy.py checks it through nginx."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings
from tests.web.conftest import browser_like
from tests.web.helpers import import_file

MIB = 1024 * 1024


@pytest.fixture
def small(sqlite_url: str) -> Iterator[TestClient]:
    """A site whose imports take at most 1 MiB."""
    with TestClient(create_app(make_settings(sqlite_url, import_max_mb=1))) as test_client:
        yield browser_like(test_client)


def upload(client: TestClient, payload: bytes, **headers: str):
    """An import, and how it ended (a refusal over the limit comes at once; a file read is
    answered 202 and ends in the background: ``import_file``)."""
    return import_file(client, payload, headers=headers)


def test_the_limit_is_a_setting_in_mebibytes(sqlite_url):
    assert make_settings(sqlite_url).import_max_mb == 8
    assert make_settings(sqlite_url).import_max_bytes == 8 * MIB
    assert make_settings(sqlite_url, import_max_mb=3).import_max_bytes == 3 * MIB


def test_a_file_within_the_limit_is_read_one_over_it_is_refused_clearly(small):
    # 900 KB: far over the 64 KiB of other requests, within the import's 1 MiB; read (and
    # found not to be an export).
    within = upload(small, b" " * 900_000)
    assert within.status_code == 400 and "not a JSON file" in within.text
    for size in (MIB + 1, 2 * MIB):
        over = upload(small, b" " * size)
        assert over.status_code == 413
        assert "This file cannot be imported" in over.text
        assert "The file is over 1 MB." in over.text


def test_the_default_limit_refuses_clearly_too(client):
    over = upload(client, b" " * (8 * MIB + 1))
    assert over.status_code == 413
    assert "The file is over 8 MB." in over.text


def test_the_page_the_proxy_sends_a_refused_import_to(small):
    """nginx refuses a request over its client_max_body_size before the app sees it; its
    error_page fetches this page instead of its own bare 413, in the player's language."""
    page = small.get("/stats/import/too-large")
    assert page.status_code == 413
    assert "This file cannot be imported" in page.text and "The file is over 1 MB." in page.text
    assert 'href="/stats"' in page.text  # the way back
    french = small.get("/stats/import/too-large", headers={"Accept-Language": "fr"})
    assert french.status_code == 413
    assert "Ce fichier ne peut pas être importé" in french.text
    assert "Le fichier dépasse 1 Mo." in french.text
