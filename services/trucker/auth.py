"""Who is at the other end of a socket: a player of the game, a substitute, or a spectator.

Players prove who they are with a single-use ticket from the lobby (`POST /tickets`), offered as the
socket's `Sec-WebSocket-Protocol` value `ticket.<ticket>` (beside `starbase.v1`) and redeemed here from
the Redis both services share (`starbase_core.tickets`). Credentials never travel in the URL: a
`?token=` is refused, so none reaches an access log. Without a ticket the caller watches, and only a
public game: a private table's game (`GameCreated.options.private`) is open to its players and to
holders of a ticket the lobby granted for that game (after checking its invite), and to no one else.
TRUCKER_TRUST_PLAYER_PARAM (benchmarks and local play only) takes `?player=<id>` at its word.

A caller acts for a seat (`seat_played`): their own, or one they took over as a substitute (the
stream's seat control, docs/seats.md); anyone else watches.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from starbase_core import tickets
from starbase_core.envelope import Envelope
from starbase_core.gamestream import PRIVATE

from trucker.settings import TruckerSettings
from trucker.warehouse import Refused


@dataclass(frozen=True)
class Caller:
    player: str | None              # None: a spectator
    granted_game: str | None = None  # a private game the lobby let this caller watch


@dataclass(frozen=True)
class Seat:
    """The seat a caller acts for: `player`, the seat's id (the socket shows its view and sends its
    moves), and `played_by`, who plays it when not its own player (a substitute's own id, which the
    moves carry as `meta.played_by`; None for the seat's player)."""
    player: str
    played_by: str | None = None


def seat_played(caller: Caller, players: list[str], controllers: Mapping[str, str]) -> Seat | None:
    """The seat `caller` plays, as the stream's seat control (`controllers`: seat → controller) says:
    their own, even given up (its moves are refused NOT_IN_CONTROL then, as anyone's but its
    controller's), or a seat they hold as a substitute; None for anyone else (a spectator). The lobby
    answers the same (`Table.played_seat`)."""
    who = caller.player
    if who is None:
        return None
    if who in players:
        return Seat(who)
    taken = next((seat for seat, controller in controllers.items() if controller == who), None)
    return None if taken is None else Seat(taken, who)


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
    def may_watch(caller: Caller, created: Envelope | None, seat: Seat | None, game: str) -> bool:
        """A public game: anyone; a private one: who plays a seat of it (`seat_played`: a player, a
        substitute) and who holds a ticket the lobby granted for it."""
        options = (created.data.get("options") or {}) if created is not None else {}
        if options.get(PRIVATE) is not True:
            return True
        return seat is not None or caller.granted_game == game
