"""Latency and status per route in the lobby's metrics (served on METRICS_PORT by `python -m lobby`)."""
from __future__ import annotations

import time

from prometheus_client import Counter, Histogram

REQUESTS = Counter("lobby_requests_total", "HTTP requests answered", ["method", "route", "status"])
LATENCY = Histogram("lobby_request_seconds", "HTTP request latency", ["method", "route"])


class Measure:
    """Latency and status per route, as pure ASGI: Starlette's `@app.middleware("http")` wraps every
    request in a task group and a streamed response, which cost more CPU than the command route itself."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started, noted = time.perf_counter(), StatusNoted(send)
        try:
            await self.app(scope, receive, noted)
        finally:
            # The router sets the matched route in this same scope on the way in.
            record(scope["method"], getattr(scope.get("route"), "path", "unmatched"), noted.status, started)


class StatusNoted:
    """An ASGI `send` that notes the status of the response it starts (500 until one starts)."""
    __slots__ = ("send", "status")

    def __init__(self, send):
        self.send, self.status = send, 500

    async def __call__(self, message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
        await self.send(message)


# The labelled series, looked up once each: `labels()` checks and joins its values on every call.
_LATENCY: dict[tuple[str, str], object] = {}
_REQUESTS: dict[tuple[str, str, int], object] = {}


def record(method: str, path: str, status: int, started: float) -> None:
    """One answered request in the metrics: its latency since `started` (`perf_counter`) and its status."""
    latency = _LATENCY.get((method, path))
    if latency is None:
        latency = _LATENCY[method, path] = LATENCY.labels(method, path)
    latency.observe(time.perf_counter() - started)
    answered = _REQUESTS.get((method, path, status))
    if answered is None:
        answered = _REQUESTS[method, path, status] = REQUESTS.labels(method, path, str(status))
    answered.inc()
