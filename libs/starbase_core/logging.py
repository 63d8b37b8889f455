"""structlog set up once per service: one JSON object per line on stdout (or console lines in a tty
when `json=False`), with the service name, level and ISO UTC time on every entry. Standard-library
loggers (grpc, uvicorn, nats) go through the same renderer. Tracing is set up here too, so every service
gets it (`starbase_core.tracing`: off unless OTEL_TRACES_EXPORTER asks), and lines inside a span carry its ids."""
from __future__ import annotations

import logging
import sys
from typing import Any

import structlog

from starbase_core import tracing


def configure_logging(service: str, level: str = "info", json: bool = True) -> structlog.BoundLogger:
    numeric_level = logging.getLevelName(level.upper())
    if not isinstance(numeric_level, int):
        numeric_level = logging.INFO
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        tracing.add_trace_ids,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer = structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer()
    structlog.configure(
        processors=[*shared, structlog.processors.StackInfoRenderer(), structlog.processors.format_exc_info,
                    structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.make_filtering_bound_logger(numeric_level),
        cache_logger_on_first_use=True,
    )
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(structlog.stdlib.ProcessorFormatter(
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
        foreign_pre_chain=shared,
    ))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(numeric_level)
    structlog.contextvars.bind_contextvars(service=service)
    tracing.configure(service)         # traces only when OTEL_TRACES_EXPORTER asks for them
    return structlog.get_logger(service)
