"""A last line of defence for the logs: no token, ticket or password in any log line.

Nothing in the lobby logs one on purpose, and credentials no longer travel in URLs; but an old client
may still put `?token=` in a socket URL, and uvicorn's access log prints request lines as they came.
This filter rewrites any `token=`, `ticket=`, `password=` (and their `access_`/`refresh_` forms) value
and any `ticket.<…>` subprotocol to `[redacted]` in every record before it is written.
"""
from __future__ import annotations

import logging
import re

_SECRET = re.compile(r"((?:access_|refresh_)?(?:token|ticket)|password)=([^&\s\"']+)", re.IGNORECASE)
_SUBPROTOCOL = re.compile(r"ticket\.[A-Za-z0-9_\-]{8,}")


def redact(text: str) -> str:
    # Each pattern needs its literal ("=", "ticket."): most texts (every access-log line of a command)
    # have neither, and looking for them costs far less than running the patterns.
    if "=" in text:
        text = _SECRET.sub(r"\1=[redacted]", text)
    if "ticket." in text:
        text = _SUBPROTOCOL.sub("ticket.[redacted]", text)
    return text


class RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        # Installed on a logger and on the root handler, so an access-log line meets it twice.
        if getattr(record, "_secrets_redacted", False):
            return True
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        record._secrets_redacted = True
        return True


def install() -> None:
    """On the root handlers (every logger that propagates) and on uvicorn's access logger."""
    secret_filter = RedactSecrets()
    targets = [*logging.getLogger().handlers, logging.getLogger("uvicorn.access"), logging.getLogger("uvicorn.error")]
    for target in targets:
        if not any(isinstance(f, RedactSecrets) for f in target.filters):
            target.addFilter(secret_filter)
