"""The web client and the API documentation pages, served by the lobby from the client's build.

    /                   the client (services/web, built by `make install` into services/web/dist)
    /assets/…           its hashed bundles (cached for a year: a new build has new names)
    /docs, /redoc       Swagger UI and ReDoc, with their scripts served from the same build, not a CDN

The client routes by the URL's fragment (`/#/tables/<id>`), so `/` is the only page: nothing here can
shadow an API route. `WEB_DIST` points at another build; without it, the build next to the sources.
A lobby whose client was not built still serves its API, and `/` says how to build the client.
"""
from __future__ import annotations

from pathlib import Path

from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from pydantic import BaseModel
from starlette.staticfiles import StaticFiles

from starbase_core.config import from_env

from lobby.exceptions import error_body

DOCS_ASSETS = "/docs-assets"
# The client page: scripts and styles only from the lobby itself; calls and sockets to the lobby and
# to Trucker's real-time service (TRUCKER_PUBLIC_URL), nowhere else. `{sockets}` is filled per request.
CLIENT_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                 "img-src 'self' data:; connect-src 'self' {sockets}; frame-ancestors 'none'; "
                 "base-uri 'none'; form-action 'self'")
# The docs pages: their generated HTML starts the viewers with an inline script; nothing loads from
# elsewhere (ReDoc's sidebar asks a CDN for a badge image: the policy stops that request offline or not).
DOCS_POLICY = ("default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'")
IMMUTABLE = "public, max-age=31536000, immutable"


class WebSettings(BaseModel):
    web_dist: Path = Path(__file__).resolve().parent.parent / "web" / "dist"


class _HashedAssets(StaticFiles):
    """Vite names every bundle after its content, so a browser may keep one forever."""

    async def get_response(self, path, scope):
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["Cache-Control"] = IMMUTABLE
        return response


def install_web_client(app: FastAPI, settings: WebSettings | None = None) -> None:
    """Mount the client and the documentation pages; call on an app made with docs_url=None."""
    dist = (settings or from_env(WebSettings)).web_dist
    _install_docs(app)
    assets, docs_assets = dist / "assets", dist / "docs-assets"
    if assets.is_dir():
        app.mount("/assets", _HashedAssets(directory=assets), name="web-assets")
    if docs_assets.is_dir():
        app.mount(DOCS_ASSETS, StaticFiles(directory=docs_assets), name="docs-assets")

    @app.get("/", include_in_schema=False)
    async def client_page(request: Request):
        index = dist / "index.html"
        if not index.is_file():
            return JSONResponse(error_body("CLIENT_NOT_BUILT", "the web client is not built here: run "
                                           "`make install` (npm ci && npm run build in services/web)"), 503)
        return FileResponse(index, media_type="text/html", headers={
            "Cache-Control": "no-cache", "Content-Security-Policy": client_policy(request),
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"})


def client_policy(request: Request) -> str:
    """The client's policy for this request: its sockets may reach this lobby (by the address the
    browser used: 'self' alone does not cover ws: in every browser) and the Trucker service."""
    host = request.headers.get("host", "")
    sockets = [f"ws://{host}", f"wss://{host}"] if _plain_host(host) else []
    runtime = getattr(request.app.state, "lobby", None)
    trucker = urlsplit(runtime.settings.trucker_public_url) if runtime is not None else None
    if trucker is not None and trucker.scheme in ("ws", "wss") and _plain_host(trucker.netloc):
        sockets.append(f"{trucker.scheme}://{trucker.netloc}")
    return CLIENT_POLICY.format(sockets=" ".join(sockets))


def _plain_host(netloc: str) -> bool:
    """A host[:port] safe to write into a policy (no spaces, quotes, semicolons or paths)."""
    return bool(netloc) and all(c.isalnum() or c in ".-:[]" for c in netloc)


def _install_docs(app: FastAPI) -> None:
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui():
        return _with_policy(get_swagger_ui_html(
            openapi_url=openapi_url, title=f"{app.title}: API",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js", swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS}/favicon-32x32.png"))

    @app.get("/redoc", include_in_schema=False)
    async def redoc():
        return _with_policy(get_redoc_html(
            openapi_url=openapi_url, title=f"{app.title}: API reference", redoc_js_url=f"{DOCS_ASSETS}/redoc.standalone.js",
            redoc_favicon_url=f"{DOCS_ASSETS}/favicon-32x32.png", with_google_fonts=False))


def _with_policy(page: HTMLResponse) -> HTMLResponse:
    page.headers["Content-Security-Policy"] = DOCS_POLICY
    page.headers["X-Content-Type-Options"] = "nosniff"
    return page
