"""Which lobbies a load run may drive: this machine's, unless the operator says otherwise.

A run registers players and opens tables on the lobby it drives, which an operator should do to
someone else's lobby only on purpose: a host that does not resolve to loopback addresses only is
refused unless remote lobbies are allowed (`--allow-remote`, `--starbase-allow-remote`).
"""
from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit


def target_problem(url: str, allow_remote: bool) -> str | None:
    """Why this lobby URL may not be loaded, or None."""
    parts = urlsplit(url or "")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"the lobby must be an http:// or https:// URL, not {url!r}"
    if allow_remote:
        return None
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(parts.hostname, parts.port or 80)}
    except OSError:
        addresses = set()
    if addresses and all(ipaddress.ip_address(str(address).split("%")[0]).is_loopback for address in addresses):
        return None
    return (f"{parts.hostname} is not this machine: a load run opens tables and registers players there. "
            f"Allow remote lobbies (--allow-remote) if you mean it.")
