"""`python -m lobby`: the HTTP/WebSocket lobby on LOBBY_PORT (8000).

SIGTERM or Ctrl-C: uvicorn stops accepting, lets requests in flight finish (LOBBY_SHUTDOWN_GRACE
seconds), closes the WebSockets (clients resume from their last seq on another replica), then the
lifespan closes the feed, the store and Redis.
"""
from __future__ import annotations

import structlog
import uvicorn

from starbase_core.descriptors import raise_open_files_limit
from starbase_core.logging import configure_logging

from lobby import logfilter
from lobby.app import create_app
from lobby.config import load_settings


def main() -> None:
    settings = load_settings()
    configure_logging("lobby", settings.log_level, settings.log_json)
    logfilter.install()
    before, after = raise_open_files_limit()      # one descriptor per WebSocket
    structlog.get_logger("lobby").info("open_files_limit", before=before, after=after)
    app = create_app(settings)
    uvicorn.run(app, host=settings.lobby_host, port=settings.lobby_port, log_config=None,
                timeout_graceful_shutdown=int(settings.lobby_shutdown_grace), proxy_headers=True,
                # Credentials never travel in URLs (sockets use tickets as subprotocols), and
                # `logfilter` redacts any an old client still sends: the access log can stay on.
                access_log=True, ws_max_size=settings.lobby_ws_max_message_bytes,
                # Pushes are small JSON: per-message deflate costs more CPU per socket than it saves.
                ws_per_message_deflate=False)


if __name__ == "__main__":
    main()
