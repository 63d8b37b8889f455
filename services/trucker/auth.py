"""Who is at the other end of a socket: a player of the game, or a spectator.

Players prove who they are with a single-use ticket from the lobby (`POST /tickets`), offered as the
socket's `Sec-WebSocket-Protocol` value `ticket.<ticket>` (beside `starbase.v1`) and redeemed here from
the Redis both services share (`starbase_core.tickets`). Credentials never travel in the URL: a
`?token=` is refused, so none reaches an access log. Without a ticket the caller watches, and only a
public game: a private table's game (`GameCreated.options.private`) is open to its players and to
holders of a ticket the lobby granted for that game (after checking its invite), and to no one else.
TRUCKER_TRUST_PLAYER_PARAM (benchmarks and local play only) takes `?player=<id>` at its word.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from starbase_core import tickets
from starbase_core.envelope import Envelope
from starbase_core.gamestream import PRIVATE

from trucker.settings import TruckerSettings
from trucker.warehouse import Refused


@dataclass(frozen=True)
class Caller:
    player: str | None              # None: a spectator
    granted_game: str | None = None  # a private game the lobby let this caller watch


class Authenticator:
    def __init__(self, settings: TruckerSettings):
        self._trust_param = settings.trucker_trust_player_param

    @staticmethod
    def protocol(offered: Iterable[str]) -> str | None:
        """The subprotocol to answer with: ours when the client offered it."""
        return tickets.PROTOCOL if tickets.PROTOCOL in offered else None

    async def identify(self, redis, offered: Iterable[str], query: dict) -> Caller:
        """The caller, or Refused (BAD_TICKET, TOKEN_IN_URL)."""
        if "token" in query or "ticket" in query:
            raise Refused("TOKEN_IN_URL", "credentials never travel in a URL: get a ticket from the lobby "
                                          "(POST /tickets) and offer it as the Sec-WebSocket-Protocol")
        ticket = tickets.offered_ticket(offered)
        if ticket is not None:
            grant = await tickets.redeem(redis, ticket)
            if grant is None:
                raise Refused("BAD_TICKET", "this ticket is unknown, used or expired: get a new one from the lobby")
            return Caller(grant.player, grant.game)
        player = query.get("player")
        if player and self._trust_param:
            return Caller(player)
        return Caller(None)

    @staticmethod
    def may_watch(caller: Caller, created: Envelope | None, players: list[str], game: str) -> bool:
        options = (created.data.get("options") or {}) if created is not None else {}
        if options.get(PRIVATE) is not True:
            return True
        return (caller.player is not None and caller.player in players) or caller.granted_game == game
