"""The FastAPI app: error bodies, the body gate (size, media type, sane JSON), metrics, health, routers.
The metrics it counts are served on METRICS_PORT (`python -m lobby`), never by this app.

Every refusal leaves as `{"error": {"code": ..., "message": ...}}` with a 4xx status, whether it came
from the lobby (`LobbyError`), the game's rules (`RuleRefused`), request validation or routing; an
unreachable adjudicator or store is a 503 in the same shape (retry: commands carry their command id).
"""
from __future__ import annotations

from contextlib import asynccontextmanager

import grpc
import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import compile_path

from starbase_core import tracing
from starbase_core.health import health_router
from starbase_core.store import StoreError

from lobby.bootstrap import LobbyRuntime
from lobby.config import LobbySettings
from lobby.bodygate import BodyGate
from lobby.command_door import CommandDoor
from lobby.command_route import CommandRoute
from lobby.measure import Measure
from lobby.exceptions import ADJUDICATOR_DOWN, INTERNAL, STORE_DOWN, LobbyError, error_body
from lobby.accounts.router import router as accounts_router
from lobby.engines import engines_router
from lobby.loop.router import loop_router
from lobby.moderation.router import router as moderation_router
from lobby import invitations, notifications
from lobby.router import router
from lobby.pause_routes import router as pause_router
from lobby.seat_routes import router as seat_router
from lobby.validation import describe
from lobby.webapp import install_web_client
from lobby.socketgate import LobbyApp
from lobby.websocket import Sockets

log = structlog.get_logger(__name__)
HTTP_CODES = {400: "BAD_REQUEST", 401: "NOT_AUTHENTICATED", 403: "FORBIDDEN", 404: "NOT_FOUND",
              405: "METHOD_NOT_ALLOWED", 413: "BODY_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE",
              429: "RATE_LIMITED"}


def create_app(settings: LobbySettings, runtime: LobbyRuntime | None = None, *, lean_commands: bool = True) -> FastAPI:
    """`lean_commands`: serve POST /games/{id}/commands through `command_route` (False: FastAPI's route
    only, which the tests compare it with)."""
    runtime = runtime or LobbyRuntime(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await runtime.start()
        await notifications.attach(app, runtime)
        try:
            yield
        finally:
            await runtime.stop()

    # With tracing off, FastAPI's own telemetry is told so: otherwise it asks the OpenTelemetry globals
    # on every request and socket whether anything listens. With tracing on, its defaults stay.
    quiet = None if tracing.enabled() else {"tracing": False, "metrics": False, "logs": False}
    app = LobbyApp(title="Starbase lobby", version="1", lifespan=lifespan, telemetry=quiet,
                   description="Players, tables, games and live events of the Starbase game server.",
                   docs_url=None, redoc_url=None)       # served by webapp, with local assets
    app.state.lobby = runtime
    app.sockets = Sockets(runtime)      # served before any middleware or route (socketgate.py)
    app.include_router(accounts_router)
    app.include_router(router)
    app.include_router(seat_router)
    app.include_router(pause_router)
    app.include_router(moderation_router)
    app.include_router(loop_router)
    app.include_router(notifications.router)
    app.include_router(invitations.router)
    app.include_router(engines_router)
    app.include_router(health_router(runtime.ready))
    _install_errors(app)
    if lean_commands:
        app.add_middleware(CommandRoute, owner=app)     # inside Measure and BodyGate: they see it as before
        if not tracing.enabled():       # (a span per request comes from the instrumented app)
            app.command_door = CommandDoor(app, settings.lobby_max_body_bytes)   # served under uvicorn
    _install_metrics(app)
    install_web_client(app)
    app.add_middleware(BodyGate, limit=settings.lobby_max_body_bytes)
    tracing.instrument_http(app)       # a span per request when OTEL_TRACES_EXPORTER is set
    return app


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(LobbyError)
    async def lobby_error(request: Request, error: LobbyError):
        return JSONResponse(error_body(error.code, error.message), status_code=error.status, headers=error.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError):
        problems = error.errors()
        if any(p.get("type") == "json_invalid" for p in problems):
            return JSONResponse(error_body("MALFORMED_JSON", "the request body is not valid JSON"), 400)
        return JSONResponse(error_body("VALIDATION_FAILED", "; ".join(describe(p) for p in problems)), 422)

    @app.exception_handler(grpc.aio.AioRpcError)
    async def adjudicator_down(request: Request, error: grpc.aio.AioRpcError):
        log.warning("adjudicator_call_failed", code=str(error.code()), details=error.details())
        return JSONResponse(error_body(*ADJUDICATOR_DOWN), 503)

    @app.exception_handler(StoreError)
    async def store_down(request: Request, error: StoreError):
        log.warning("store_call_failed", error=str(error))
        return JSONResponse(error_body(*STORE_DOWN), 503)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception):
        log.exception("unexpected_error", path=request.url.path)
        return JSONResponse(error_body(*INTERNAL), 500)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException):
        code = HTTP_CODES.get(error.status_code, "HTTP_ERROR")
        message = error.detail if isinstance(error.detail, str) else code
        if error.status_code == 404 and message == "Not Found":
            message = f"no such route: {request.method} {request.url.path}"
        headers = dict(error.headers or {})
        if error.status_code == 405:
            headers["Allow"] = allowed_methods(app, request)
        return JSONResponse(error_body(code, message), error.status_code, headers=headers)


def allowed_methods(app: FastAPI, request: Request) -> str:
    """Every method some route serves at this path. Starlette's own 405 names only the methods of the
    first route whose path matched, so `GET /tables` and `POST /tables` (two routes) each hid the other.
    Read from the OpenAPI document: it lists every HTTP route with its methods."""
    methods: set[str] = set()
    for template, operations in app.openapi().get("paths", {}).items():
        if compile_path(template)[0].match(request.url.path):
            methods |= {method.upper() for method in operations}
    if "GET" in methods:
        methods.add("HEAD")                 # Starlette answers HEAD wherever it answers GET
    return ", ".join(sorted(methods))


def _install_metrics(app: FastAPI) -> None:
    app.add_middleware(Measure)
