"""`python -m lobby`: the HTTP/WebSocket lobby on LOBBY_PORT (8000); Prometheus metrics on METRICS_PORT (9100).

It refuses to start without its secrets (LOBBY_SECRET, NATS_NKEY_FILE, REDIS_USERNAME/REDIS_PASSWORD_FILE,
ADJUDICATOR_TOKEN_FILE; docs/security.md) unless INSECURE_DEV_MODE=true.

SIGTERM or Ctrl-C: uvicorn stops accepting, lets requests in flight finish (LOBBY_SHUTDOWN_GRACE
seconds), closes the WebSockets (clients resume from their last seq on another replica), then the
lifespan closes the feed, the store and Redis.
"""
from __future__ import annotations

import sys

import structlog
import uvicorn
from pydantic import ValidationError

from starbase_core.credentials import require
from starbase_core.descriptors import raise_open_files_limit
from starbase_core.health import serve_metrics
from starbase_core.logging import configure_logging

from lobby import logfilter
from lobby.app import create_app
from lobby.config import NEEDS, load_settings
from lobby.handshake import SERVER_PROTOCOLS
from lobby.socketgate import LobbyApp


def main() -> None:
    try:
        settings = load_settings()
    except ValidationError as invalid:      # e.g. LOBBY_PRODUCTION with INSECURE_DEV_MODE: one sentence each
        for error in invalid.errors():
            where = ".".join(str(part) for part in error["loc"]).upper()
            print(f"lobby: refusing to start: {where + ': ' if where else ''}"
                  f"{error['msg'].removeprefix('Value error, ')}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    require(settings, NEEDS, "lobby")
    configure_logging("lobby", settings.log_level, settings.log_json)
    logfilter.install()
    serve_metrics(settings.metrics_host, settings.metrics_port)
    before, after = raise_open_files_limit()      # one descriptor per WebSocket
    structlog.get_logger("lobby").info("open_files_limit", before=before, after=after)
    app = create_app(settings)
    assert isinstance(app, LobbyApp)
    app.freeze_on_start = True          # the heap it starts with, out of the collector's sight (socketgate.py)
    uvicorn.run(app, host=settings.lobby_host, port=settings.lobby_port, log_config=None,
                timeout_graceful_shutdown=int(settings.lobby_shutdown_grace), proxy_headers=True,
                # Credentials never travel in URLs (sockets use tickets as subprotocols), and
                # `logfilter` redacts any an old client still sends: the access log can stay on.
                access_log=True, ws_max_size=settings.lobby_ws_max_message_bytes,
                # Pushes are small JSON: per-message deflate costs more CPU per socket than it saves.
                ws_per_message_deflate=False,
                # The WebSocket handshake taken from httptools' parse (handshake.py).
                **SERVER_PROTOCOLS)


if __name__ == "__main__":
    main()
