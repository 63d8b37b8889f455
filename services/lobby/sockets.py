"""This replica's open sockets by player, so an account change seen on any replica closes them here.

The directory calls `account_changed` for every account change it sees (its watch runs on every
replica): a ban, "log out everywhere" or a password change (the epoch moves), or an erasure closes the
account's sockets at once, with 4403 (banned) or 4401 (signed out).
"""
from __future__ import annotations

from collections import defaultdict

import structlog
from fastapi import WebSocket

from lobby.accounts.directory import Account

log = structlog.get_logger(__name__)
CLOSE_SIGNED_OUT = 4401
CLOSE_BANNED = 4403


class SocketRegistry:
    def __init__(self) -> None:
        self._by_player: dict[str, set[WebSocket]] = defaultdict(set)

    def add(self, player: str | None, socket: WebSocket) -> None:
        if player:
            self._by_player[player].add(socket)

    def remove(self, player: str | None, socket: WebSocket) -> None:
        if player and player in self._by_player:
            self._by_player[player].discard(socket)
            if not self._by_player[player]:
                del self._by_player[player]

    def count(self, player: str) -> int:
        return len(self._by_player.get(player, ()))

    async def account_changed(self, before: Account | None, after: Account | None) -> None:
        player = (after or before).player_id if (after or before) else None
        if not player or player not in self._by_player:
            return
        if after is not None and not after.banned and (before is None or after.epoch == before.epoch):
            return                      # first seen here, a mute, a role, a name: the sockets may stay
        code = CLOSE_BANNED if after is not None and after.banned else CLOSE_SIGNED_OUT
        for socket in list(self._by_player.pop(player, ())):
            try:
                await socket.close(code=code)
            except Exception:           # already closing
                pass
        log.info("sockets_closed_for_account", player_id=player, code=code)
