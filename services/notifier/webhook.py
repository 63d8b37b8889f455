"""One webhook attempt: sign the body, connect to the checked address, read a bounded answer.

Headers a receiver gets (docs/notifier.md has a verification example):

    Starbase-Notification-Id: <id>       the same on every retry and every replica: dedupe on it
    Starbase-Timestamp: <unix seconds>   when this attempt was signed: refuse old ones (replays)
    Starbase-Signature: v1=<hex>         HMAC-SHA256(secret, "<timestamp>." + body)

Redirects are not followed (a redirect could lead anywhere, past the address check), proxies from the
environment are ignored (they would bypass the pinned address), and every attempt has one deadline
from connecting to the last byte read. An `Outcome` says in our own words what happened, never a
library's message (which can quote the URL).
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import socket
import time
from dataclasses import dataclass

import httpx

from notifier.urlsafety import UnsafeUrl, resolve

ID_HEADER = "Starbase-Notification-Id"
TIMESTAMP_HEADER = "Starbase-Timestamp"
SIGNATURE_HEADER = "Starbase-Signature"
KIND_HEADER = "Starbase-Notification-Kind"
RETRY_STATUSES = frozenset({408, 425, 429})


@dataclass(frozen=True)
class Outcome:
    ok: bool
    retry: bool = False             # worth another attempt later
    problem: str = ""
    status: int | None = None


def signature(secret: str, timestamp: int, body: bytes) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"v1={digest}"


class WebhookSender:
    def __init__(self, timeout: float = 10.0, max_bytes: int = 16384, allow_loopback: bool = False):
        self.timeout, self.max_bytes, self.allow_loopback = timeout, max_bytes, allow_loopback
        # httpx logs every request line at INFO, full URL included: a webhook path may hold a token.
        logging.getLogger("httpx").setLevel(logging.WARNING)
        logging.getLogger("httpcore").setLevel(logging.WARNING)
        # TCP_NODELAY: a request goes out as headers then body; with Nagle's algorithm and the receiver's
        # delayed ACK, each waited ~40 ms for nothing.
        transport = httpx.AsyncHTTPTransport(socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)],
                                             limits=httpx.Limits(max_connections=200, max_keepalive_connections=50))
        self._client = httpx.AsyncClient(timeout=httpx.Timeout(timeout), follow_redirects=False, trust_env=False,
                                         transport=transport)

    async def close(self) -> None:
        await self._client.aclose()

    async def send(self, url: str, secret: str, notification_id: str, kind: str, body: bytes) -> Outcome:
        try:
            target = await resolve(url, self.allow_loopback)
        except UnsafeUrl as refused:
            # A name that does not resolve may come back; an address we refuse will not.
            return Outcome(False, retry=refused.code == "WEBHOOK_URL_UNRESOLVED", problem=refused.message)
        stamp = int(time.time())
        headers = {"Host": target.host_header, "Content-Type": "application/json",
                   "User-Agent": "starbase-notifier/1", ID_HEADER: notification_id, KIND_HEADER: kind,
                   TIMESTAMP_HEADER: str(stamp), SIGNATURE_HEADER: signature(secret, stamp, body)}
        extensions = {"sni_hostname": target.host} if target.parts.scheme == "https" else {}
        request = self._client.build_request("POST", target.pinned_url, content=body, headers=headers,
                                             extensions=extensions)
        try:
            async with asyncio.timeout(self.timeout):
                response = await self._client.send(request, stream=True, auth=target.credentials or httpx.USE_CLIENT_DEFAULT)
                try:
                    await self._read_some(response)
                finally:
                    await response.aclose()
        except (TimeoutError, httpx.TimeoutException):
            return Outcome(False, retry=True, problem=f"no answer within {self.timeout:g} s")
        except httpx.HTTPError as error:
            return Outcome(False, retry=True, problem=f"could not reach the receiver ({type(error).__name__})")
        return judge(response.status_code)

    async def _read_some(self, response: httpx.Response) -> None:
        """Read at most `max_bytes` of the answer (a receiver may not stream us gigabytes)."""
        read = 0
        async for chunk in response.aiter_raw():
            read += len(chunk)
            if read >= self.max_bytes:
                break


def judge(status: int) -> Outcome:
    if 200 <= status < 300:
        return Outcome(True, status=status)
    if 300 <= status < 400:
        return Outcome(False, retry=False, problem=f"HTTP {status}: redirects are not followed", status=status)
    if status >= 500 or status in RETRY_STATUSES:
        return Outcome(False, retry=True, problem=f"HTTP {status}", status=status)
    return Outcome(False, retry=False, problem=f"HTTP {status}: the receiver refused it", status=status)
