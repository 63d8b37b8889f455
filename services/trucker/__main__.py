"""`python -m trucker`: serve the real-time building phase of Trucker (settings from the environment);
Prometheus metrics on METRICS_PORT (9103). It refuses to start without its secrets (NATS_NKEY_FILE,
REDIS_USERNAME/REDIS_PASSWORD_FILE; players come with the lobby's tickets from the same Redis) or with
TRUCKER_TRUST_PLAYER_PARAM, unless INSECURE_DEV_MODE=true (docs/security.md)."""
from __future__ import annotations

import uvicorn

from starbase_core.credentials import require
from starbase_core.descriptors import raise_open_files_limit
from starbase_core.health import serve_metrics
from starbase_core.logging import configure_logging

from trucker.api import create_app
from trucker.settings import NEEDS, load_settings


def main() -> None:
    settings = load_settings()
    require(settings, NEEDS, "trucker")
    configure_logging("trucker", settings.log_level, settings.log_json)
    serve_metrics(settings.metrics_host, settings.metrics_port)
    raise_open_files_limit()                      # one descriptor per WebSocket
    # Frames above 64 KiB are cut off by the server itself (close code 1009); smaller ones above
    # TRUCKER_MAX_MESSAGE_BYTES get a MESSAGE_TOO_LARGE refusal on the socket.
    uvicorn.run(create_app(settings), host=settings.trucker_host, port=settings.trucker_port,
                ws_max_size=max(65536, settings.trucker_max_message_bytes), log_config=None,
                timeout_graceful_shutdown=int(settings.trucker_shutdown_grace),
                # Messages are small JSON: compressing them costs more CPU than it saves bandwidth.
                ws_per_message_deflate=False)


if __name__ == "__main__":
    main()
