# One image for every Starbase service; the command picks the service:
#   docker run IMAGE python -m lobby        HTTP + WebSocket, port 8000 (/healthz, /readyz, /metrics)
#   docker run IMAGE python -m adjudicator  gRPC 50051, health 8081
#   docker run IMAGE python -m scoring      health 8082 (durable JetStream consumer)
#   docker run IMAGE python -m clock        health 8085 (the decision clock)
#   docker run IMAGE python -m bots         health 8087 (the bot worker)
#   docker run IMAGE python -m notifier     health 8086 (webhooks and e-mail to players)
#   docker run IMAGE python -m trucker      HTTP + WebSocket, port 8300
# Every service serves Prometheus metrics on port 9100 (METRICS_PORT), never on its public port, and
# refuses to start without its credentials (docs/security.md: `starbase credentials compose|kubernetes`).
# NATS and Redis come from their official images (see docker-compose.yml, deploy/kubernetes).
FROM python:3.11-slim

# Every service binds all interfaces in a container (the lobby and trucker default to loopback).
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    LOBBY_HOST=0.0.0.0 TRUCKER_HOST=0.0.0.0 ADJUDICATOR_HOST=0.0.0.0 \
    SCORING_HEALTH_HOST=0.0.0.0 CLOCK_HEALTH_HOST=0.0.0.0 NOTIFIER_HEALTH_HOST=0.0.0.0 BOTS_HEALTH_HOST=0.0.0.0 \
    METRICS_HOST=0.0.0.0 METRICS_PORT=9100 \
    ADJUDICATOR_PROTO_DIR=/app/proto

WORKDIR /app
# Installed the way `make install` does (editable, from pyproject.toml: the same dependency list, and
# the packages stay in /app/libs and /app/services), without the test extras. The adjudicator compiles
# its gRPC stubs from proto/ when first imported, so proto/ is copied next to the services.
COPY pyproject.toml ./
COPY proto/ proto/
COPY libs/ libs/
COPY services/ services/
RUN pip install --no-cache-dir -e . \
 && python -c "import adjudicator.wire, clock.service, lobby.app, notifier.consumer, scoring.consumer, trucker.api"

RUN useradd --system --uid 10001 starbase
USER 10001

# lobby, adjudicator (gRPC, health), scoring, clock, notifier, bots, trucker, metrics (every service)
EXPOSE 8000 50051 8081 8082 8085 8086 8087 8300 9100
# Services stop gracefully on SIGTERM (drain, finish in-flight work, close the store).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "lobby"]
