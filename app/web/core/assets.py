"""The site's own files (static/), under addresses that name the release.

``RELEASE`` is a digest of every file in static/ and of the templates the service worker
keeps: a change to any of them is a new release. Pages link the files as
``/assets/<release>/<path>`` (``url``), so a page is only ever given the files it was written
with, whatever a browser's cache or the service worker holds; modules' relative imports stay
within their release. ``/static/...`` stays for what others link by that address (the API's
Swagger page).
"""

from __future__ import annotations

import hashlib

from starlette.requests import HTTPConnection

from app.settings import PROJECT_DIR

STATIC = PROJECT_DIR / "static"
ICONS = (("icon-192.png", "192x192", "any"), ("icon-512.png", "512x512", "any"),
         ("icon-maskable-512.png", "512x512", "maskable"))
"""The app's icons (drawn by scripts/draw_icons.py): file, size, purpose."""
FELT = "#1d6b45"
FELT_DARK = "#0f4229"
"""The green felt's colours (static/css/themes.css): the app's theme and background."""
BAR_COLOURS = {
    "light": {"green": "#0f4229", "blue": "#0e2b4d", "red": "#420f19", "teal": "#073537",
              "grey": "#1e2226"},
    "dark": {"green": "#081f15", "blue": "#0a1728", "red": "#23090e", "teal": "#052122",
             "grey": "#141618"},
}
"""The browser bar's colour for each theme and felt: the felt's dark edge, as
static/css/themes.css paints it (``--felt-dark``); black in high contrast."""
SHELL_FILES = ("css/pyramid.css", "css/themes.css", "js/pyramid.js", "js/sound.js",
               "js/preferences.js", "js/site.js", "vendor/htmx-2.0.11.min.js",
               "vendor/idiomorph-0.8.0/idiomorph-ext.min.js", "wasm/solver.wasm")
SHELL_FOLDERS = ("js/board", "js/engine", "js/solver", "icons")


def _release() -> str:
    digest = hashlib.sha256()
    for path in sorted(STATIC.rglob("*")) + sorted((PROJECT_DIR / "templates").rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(PROJECT_DIR)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


RELEASE = _release()
PREFIX = f"/assets/{RELEASE}"


def name_release(release: str | None) -> None:
    """Name this release (the ``RELEASE`` setting) instead of the files' digest."""
    global RELEASE, PREFIX
    RELEASE = release or _release()
    PREFIX = f"/assets/{RELEASE}"


def url(path: str) -> str:
    """``/assets/<release>/<path>``: a file of static/ as this release has it."""
    return f"{PREFIX}/{path.lstrip('/')}"


def shell_files() -> list[str]:
    """The files a board needs with no network, as paths under static/."""
    found = list(SHELL_FILES)
    for folder in SHELL_FOLDERS:
        found += sorted(str(p.relative_to(STATIC)) for p in (STATIC / folder).rglob("*")
                        if p.is_file() and p.suffix in (".js", ".png"))
    return found


def precache(request: HTTPConnection) -> list[str]:
    """What the service worker keeps at install: the shell's files and pages."""
    pages = [str(request.app.url_path_for(name))
             for name in ("offline_shell", "home", "rules", "learn")]
    return [url(path) for path in shell_files()] + pages + [
        str(request.app.url_path_for("manifest"))]


def theme_colour(preferences) -> str:
    """The browser bar's colour for a player's theme and felt (``<meta name=theme-color>``)."""
    if preferences.theme == "contrast":
        return "#000000"
    by_felt = BAR_COLOURS["dark" if preferences.theme == "dark" else "light"]
    return by_felt.get(preferences.felt, by_felt["green"])


def board_modules() -> list[str]:
    """The board's modules and the engine's, for the page to fetch at once (modulepreload)
    rather than one import after another."""
    return [path for path in shell_files() if path.startswith(("js/board/", "js/engine/"))
            and path.endswith(".js") and not path.endswith("early.js")]
