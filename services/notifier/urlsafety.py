"""Webhook URLs a player may give, and where the notifier may connect for them (no SSRF).

A webhook URL is the player's, so the notifier must not become their way into our network: only
http(s), and every address the host name resolves to must be public (`is_global`). Loopback is allowed
only when the operator says so (tests, `make run`); private, link-local (cloud metadata at
169.254.169.254), shared, multicast, reserved and unspecified addresses never are, IPv4-mapped IPv6
included. The check runs when the URL is saved (a clear refusal) and again before every attempt, and
the attempt connects to the address that was checked (`Target.pinned_url`, with the name kept in the
Host header and in TLS's SNI and certificate check), so a name that resolves elsewhere the second time
(DNS rebinding) cannot slip through.

Logs and dead letters name only `scheme://host:port` (`describe`): a URL's path or query may hold the
receiver's own token, and its user info a password.
"""
from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit, urlunsplit

MAX_URL_LENGTH = 2048


class UnsafeUrl(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(frozen=True)
class Target:
    url: str                    # as the player gave it
    address: str                # the checked IP to connect to
    host: str                   # the name, for Host and TLS
    port: int
    parts: SplitResult

    @property
    def pinned_url(self) -> str:
        ip = f"[{self.address}]" if ":" in self.address else self.address
        return urlunsplit((self.parts.scheme, f"{ip}:{self.port}", self.parts.path or "/", self.parts.query, ""))

    @property
    def host_header(self) -> str:
        default = 443 if self.parts.scheme == "https" else 80
        name = f"[{self.host}]" if ":" in self.host else self.host
        return name if self.port == default else f"{name}:{self.port}"

    @property
    def credentials(self) -> tuple[str, str] | None:
        if self.parts.username is None:
            return None
        return self.parts.username, self.parts.password or ""


def parse(url: str) -> SplitResult:
    """The URL's parts if it can be a webhook at all (scheme, host, length); no lookup."""
    if not isinstance(url, str) or not url or len(url) > MAX_URL_LENGTH:
        raise UnsafeUrl("WEBHOOK_URL_INVALID", f"a webhook URL has 1 to {MAX_URL_LENGTH} characters")
    if any(ch.isspace() or ord(ch) < 32 for ch in url):
        raise UnsafeUrl("WEBHOOK_URL_INVALID", "a webhook URL has no spaces or control characters")
    try:
        parts = urlsplit(url)
        parts.port                      # raises on a port that is not a number in range
    except ValueError:
        raise UnsafeUrl("WEBHOOK_URL_INVALID", "this is not a URL") from None
    if parts.scheme not in ("http", "https"):
        raise UnsafeUrl("WEBHOOK_URL_SCHEME", "a webhook URL starts with https:// (or http://)")
    if not parts.hostname:
        raise UnsafeUrl("WEBHOOK_URL_INVALID", "a webhook URL names a host")
    if parts.fragment:
        raise UnsafeUrl("WEBHOOK_URL_INVALID", "a webhook URL has no #fragment")
    return parts


def describe(url: str) -> str:
    """`scheme://host:port` of a URL, never its user info, path or query: what logs may say."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "(not a URL)"
    host = parts.hostname or "?"
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


def allowed(address: str, allow_loopback: bool) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return allow_loopback
    return ip.is_global and not ip.is_multicast


async def resolve(url: str, allow_loopback: bool) -> Target:
    """The address to connect to for `url`, once every address of its host is known to be allowed."""
    parts = parse(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    addresses = await _addresses(host, port)
    if not addresses:
        raise UnsafeUrl("WEBHOOK_URL_UNRESOLVED", f"the host {host!r} was not found")
    if not all(allowed(address, allow_loopback) for address in addresses):
        raise UnsafeUrl("WEBHOOK_URL_PRIVATE", "a webhook URL must reach a public internet address, not a "
                                               "private, loopback or link-local one")
    return Target(url=url, address=addresses[0], host=host, port=port, parts=parts)


async def _addresses(host: str, port: int) -> list[str]:
    try:
        return [str(ipaddress.ip_address(host))]    # an address already: no lookup (nor a thread for it)
    except ValueError:
        pass
    try:
        found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise UnsafeUrl("WEBHOOK_URL_UNRESOLVED", f"the host {host!r} was not found") from None
    return sorted({info[4][0] for info in found})
