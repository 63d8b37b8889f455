"""Single-use socket tickets: how a WebSocket proves who opens it without a token in its URL.

The lobby issues a ticket (`POST /tickets`) to a logged-in player: a random string kept in Redis for a
few seconds with what it grants (the player, and optionally one game it may watch). The socket offers
it as a `Sec-WebSocket-Protocol` value (`ticket.<ticket>`, beside the protocol name `starbase.v1`),
never in the query string, so it reaches no access log; the service that accepts the socket redeems it
with GETDEL, so a ticket opens at most one socket, on any replica that shares the Redis.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any, Iterable

PROTOCOL = "starbase.v1"            # the subprotocol a server answers with
TICKET_PREFIX = "ticket."           # the offered subprotocol that carries a ticket
KEY = "starbase:ticket:{}"


@dataclass(frozen=True)
class Grant:
    player: str | None              # None: an anonymous viewer allowed into one private game
    game: str | None = None         # a private game the holder may watch (checked by the lobby)


async def issue(redis: Any, grant: Grant, ttl_seconds: int) -> str:
    ticket = secrets.token_urlsafe(24)
    await redis.set(KEY.format(ticket), json.dumps({"player": grant.player, "game": grant.game}),
                    ex=ttl_seconds)
    return ticket


async def redeem(redis: Any, ticket: str) -> Grant | None:
    """What the ticket grants, once: None when it is unknown, used or expired."""
    if not ticket or len(ticket) > 64:
        return None
    raw = await redis.getdel(KEY.format(ticket))
    if raw is None:
        return None
    data = json.loads(raw)
    return Grant(player=data.get("player"), game=data.get("game"))


def offered_ticket(subprotocols: Iterable[str]) -> str | None:
    """The ticket among the subprotocols a client offered (`ticket.<ticket>`), if any."""
    for offered in subprotocols:
        if offered.startswith(TICKET_PREFIX):
            return offered[len(TICKET_PREFIX):]
    return None


def subprotocols(ticket: str | None) -> list[str]:
    """What a client offers: the protocol name, and its ticket when it has one."""
    return [PROTOCOL] + ([TICKET_PREFIX + ticket] if ticket else [])
