"""The ASGI app: ``uvicorn app.main:app`` (after ``python -m app.prestart`` has migrated).

``create_app`` builds an app for given settings, so tests can run one against their own
database; the module-level ``app`` uses the environment's settings.
"""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from app.settings import PROJECT_DIR, Settings, get_settings
from app.store import Database
from app.web import api, errors, pages, replay, stats
from app.web.player import PlayerCookie

SWAGGER_UI = "/static/vendor/swagger-ui-5.35.0"
"""Swagger UI, vendored from the npm package swagger-ui-dist (no CDN: /docs works offline)."""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    database = Database(settings.database_url)

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        yield
        database.dispose()

    app = FastAPI(
        title="Pyramid",
        summary="Pyramid Solitaire: the standard and whole-deck goals, with deal links.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # served below from the vendored Swagger UI
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.db = database
    app.middleware("http")(PlayerCookie(settings).middleware)
    errors.install(app)
    app.include_router(pages.router)
    app.include_router(stats.router)
    app.include_router(replay.router)
    app.include_router(api.router)

    @app.get("/docs", include_in_schema=False)
    def api_docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json", title="Pyramid API",
            swagger_js_url=f"{SWAGGER_UI}/swagger-ui-bundle.js",
            swagger_css_url=f"{SWAGGER_UI}/swagger-ui.css",
            swagger_favicon_url=f"{SWAGGER_UI}/favicon-32x32.png")

    app.mount("/static", StaticFiles(directory=PROJECT_DIR / "static"), name="static")
    return app


app = create_app()
