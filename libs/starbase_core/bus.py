"""NATS connections and plain publish/subscribe helpers shared by the services.

`connect_nats` retries with backoff, so a service that starts before its NATS server (compose,
Kubernetes, `make run`) waits for it instead of crashing. Its URL may name a cluster, comma-separated
(`nats://n1:4222,nats://n2:4222`): the client connects to any node that answers and fails over to the
others (and to the nodes the cluster announces) when its node goes away. Payloads on the bus are JSON.
"""
from __future__ import annotations

import asyncio
import json
import re
import ssl
from dataclasses import dataclass
from typing import Any, AsyncIterator, Awaitable, Callable

import nats
import structlog
from nats.aio.client import Client as NATS

log = structlog.get_logger(__name__)


@dataclass(frozen=True)
class NatsAuth:
    """How a service proves who it is to NATS, and over what (see `starbase_core.connections`).

    `nkey_seed`: the user's NKey seed (the client signs the server's nonce with it; it never crosses the
    wire). `tls`: a client TLS context (mutual when it holds a certificate). `inbox_prefix`: where
    replies come, which its permissions let only this user read."""
    nkey_seed: str | None = None
    tls: ssl.SSLContext | None = None
    inbox_prefix: str | None = None

    def options(self) -> dict:
        options: dict[str, Any] = {}
        if self.nkey_seed:
            options["nkeys_seed_str"] = self.nkey_seed
        if self.tls is not None:
            options["tls"] = self.tls
        if self.inbox_prefix:
            options["inbox_prefix"] = self.inbox_prefix
        return options

    def __repr__(self) -> str:   # never print a seed
        return f"NatsAuth(nkey={'yes' if self.nkey_seed else 'no'}, tls={self.tls is not None})"


def safe_url(url: str) -> str:
    """A server URL (or a comma-separated list) for a log line: any `user:password@` is cut out."""
    return ",".join(re.sub(r"//[^/@,]*@", "//", part) for part in url.split(","))


def nats_servers(url: str) -> list[str]:
    """The server URLs of a `NATS_URL` setting: one URL, or several separated by commas."""
    servers = [part.strip() for part in url.split(",") if part.strip()]
    if not servers:
        raise ValueError(f"no NATS server in {url!r}")
    return servers


async def connect_nats(url: str, *, name: str = "starbase", attempts: int = 30,
                       first_delay: float = 0.2, max_delay: float = 2.0, auth: NatsAuth | None = None,
                       attempt_timeout: float = 10.0, no_echo: bool = False) -> NATS:
    """Connect, retrying the first connection; once connected nats-py reconnects by itself.
    `auth`: this service's credentials and TLS (None: an open server, as in tests). Each attempt is
    cut off after `attempt_timeout` seconds: nats-py can wait for ever on a failed TLS handshake (a
    plain client meeting a TLS-only server). `no_echo`: the server never delivers this connection's
    own publishes to its own subscriptions."""
    servers = nats_servers(url)     # nats-py wants a list: a comma string would be read as one bad URL
    delay, last_error = first_delay, None
    for attempt in range(1, attempts + 1):
        try:
            # nats-py retries a first connection by itself (for ever with unlimited reconnects), so it
            # gets two quick tries here, our loop does the backoff, and unlimited reconnects start once connected.
            connection = await asyncio.wait_for(nats.connect(
                servers, name=name, connect_timeout=2, max_reconnect_attempts=1, reconnect_time_wait=0.1,
                error_cb=_log_error, no_echo=no_echo, **(auth.options() if auth else {}),
            ), attempt_timeout)
            connection.options["allow_reconnect"] = True
            connection.options["max_reconnect_attempts"] = -1
            connection.options["reconnect_time_wait"] = 0.5
            return connection
        except Exception as error:  # connection refused, DNS not ready yet, no servers available
            last_error = error
            log.warning("nats_connect_retry", url=safe_url(url), attempt=attempt, error=str(error) or type(error).__name__)
            await asyncio.sleep(delay)
            delay = min(delay * 2, max_delay)
    raise ConnectionError(f"could not reach NATS at {safe_url(url)} after {attempts} attempts: {last_error}")


async def _log_error(error: Exception) -> None:
    log.warning("nats_error", error=str(error) or type(error).__name__)


def encode(payload: Any) -> bytes:
    return json.dumps(payload, separators=(",", ":")).encode()


def decode(data: bytes) -> Any:
    return json.loads(data) if data else None


async def publish_json(connection: NATS, subject: str, payload: Any) -> None:
    await connection.publish(subject, encode(payload))


async def subscribe_json(connection: NATS, subject: str,
                         handler: Callable[[str, Any], Awaitable[None]], *, queue: str = ""):
    """Call `handler(subject, payload)` for each message; returns the subscription (unsubscribe it)."""

    async def on_message(message) -> None:
        try:
            await handler(message.subject, decode(message.data))
        except Exception:  # one bad message must not kill the subscription
            log.exception("bus_handler_failed", subject=message.subject)

    return await connection.subscribe(subject, queue=queue, cb=on_message)


async def messages_json(connection: NATS, subject: str) -> AsyncIterator[tuple[str, Any]]:
    """Iterate `(subject, payload)` pairs; stops when the caller stops iterating."""
    subscription = await connection.subscribe(subject)
    try:
        async for message in subscription.messages:
            yield message.subject, decode(message.data)
    finally:
        await subscription.unsubscribe()
