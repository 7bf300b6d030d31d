"""The app speaking the pseudo-language (pseudo.py) in every language, for the browser tests:
``uvicorn tests.i18n.pseudo_server:app``."""

from __future__ import annotations

from app.web.core import i18n
from tests.i18n.pseudo import pseudo_translations

_fake = pseudo_translations()
i18n.translations = lambda code: _fake  # every module reads it through i18n at call time

from app.main import app  # noqa: E402  (after the catalogs are replaced)

__all__ = ["app"]
