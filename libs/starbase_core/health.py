"""Health and metrics for every service.

- `HealthServer`: a tiny asyncio HTTP server for services that are not HTTP apps (the adjudicator,
  scoring, the clock): `GET /healthz` (the process runs), `GET /readyz` (its dependencies answer: 200
  or 503).
- `health_router(ready)`: the same two routes for a FastAPI app (the lobby, Trucker).
- `serve_metrics(host, port)`: Prometheus metrics (`GET /metrics`) on a port of their own
  (`METRICS_HOST`, `METRICS_PORT`), never the public one: the Ingress routes only public ports, so
  nobody outside the cluster can read them, and a scraper needs no route into the public API.
"""
from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

ReadyCheck = Callable[[], Awaitable[bool]]


async def _always_ready() -> bool:
    return True


class HealthServer:
    def __init__(self, port: int, ready: ReadyCheck = _always_ready, host: str = "0.0.0.0"):
        self.host, self.port, self._ready = host, port, ready
        self._server: asyncio.base_events.Server | None = None

    async def start(self) -> "HealthServer":
        self._server = await asyncio.start_server(self._handle, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]   # the real port when 0 was asked
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request_line = await asyncio.wait_for(reader.readline(), 5)
            while (await asyncio.wait_for(reader.readline(), 5)) not in (b"\r\n", b"\n", b""):
                pass  # headers are not needed
            parts = request_line.decode("latin-1").split()
            path = parts[1].split("?")[0] if len(parts) > 1 else ""
            status, body, content_type = await self._respond(parts[0] if parts else "", path)
            writer.write(
                f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n".encode() + body
            )
            await writer.drain()
        except (asyncio.TimeoutError, ConnectionError):
            pass
        finally:
            writer.close()

    async def _respond(self, method: str, path: str) -> tuple[str, bytes, str]:
        if method not in ("GET", "HEAD"):
            return "405 Method Not Allowed", b"", "text/plain"
        if path == "/healthz":
            return "200 OK", b'{"status":"ok"}', "application/json"
        if path == "/readyz":
            try:
                ready = await asyncio.wait_for(self._ready(), 5)
            except Exception:  # a failing check means not ready, never a crash
                ready = False
            if ready:
                return "200 OK", b'{"status":"ready"}', "application/json"
            return "503 Service Unavailable", b'{"status":"not ready"}', "application/json"
        return "404 Not Found", b'{"status":"not found"}', "application/json"


def health_router(ready: ReadyCheck = _always_ready):
    """`/healthz`, `/readyz` for a FastAPI app: `app.include_router(health_router(check))`."""
    # Imported here so that services without FastAPI need not load it. No annotation names these
    # classes: with postponed annotations FastAPI could not resolve them and would take them for
    # query parameters.
    from fastapi import APIRouter
    from fastapi.responses import JSONResponse

    router = APIRouter(tags=["health"])

    @router.get("/healthz")
    async def healthz() -> dict:
        return {"status": "ok"}

    @router.get("/readyz")
    async def readyz():
        try:
            is_ready = await asyncio.wait_for(ready(), 5)
        except Exception:
            is_ready = False
        return JSONResponse({"status": "ready" if is_ready else "not ready"},
                            status_code=200 if is_ready else 503)

    return router


def serve_metrics(host: str, port: int):
    """Serve `/metrics` from a daemon thread (prometheus_client's own server); returns the server, whose
    `server_port` is the real port when 0 was asked. It dies with the process; `shutdown()` stops it."""
    from prometheus_client import start_http_server

    server, _thread = start_http_server(port, addr=host)
    return server
