"""This replica's open sockets: by player (so an account change seen on any replica closes them here),
their quota slots kept alive, and their tables' chat, each shared by every socket that needs it.

The directory calls `account_changed` for every account change it sees (its watch runs on every
replica): a ban, "log out everywhere" or a password change (the epoch moves), or an erasure closes the
account's sockets at once, with 4403 (banned) or 4401 (signed out).

A socket's quota slot (`guard/sockets.py`) says it is alive every `HEARTBEAT` seconds: one timer for
every socket of the replica, one Redis pipeline (`Heartbeats`), not a task per socket. A table's chat
comes from one NATS subscription per table on this replica, its message encoded once and written to
each of the table's sockets (`ChatRooms`), not one subscription (and its task) per socket.
"""
from __future__ import annotations

import asyncio
import json
import time
from collections import defaultdict
from typing import Protocol

import structlog

from lobby.accounts.directory import Account
from lobby.guard.sockets import HEARTBEAT
from starbase_core.outlet import Outlet, frame
from lobby.wire import message, text

log = structlog.get_logger(__name__)
CLOSE_SIGNED_OUT = 4401
CLOSE_BANNED = 4403
PIPELINE = 1000                 # refreshes per Redis round trip


class OpenSocket(Protocol):
    outlet: Outlet

    async def close(self, code: int, reason: str = "") -> None: ...


class SocketRegistry:
    def __init__(self) -> None:
        self._by_player: dict[str, set[OpenSocket]] = defaultdict(set)

    def add(self, player: str | None, socket: OpenSocket) -> None:
        if player:
            self._by_player[player].add(socket)

    def remove(self, player: str | None, socket: OpenSocket) -> None:
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


class Heartbeats:
    """The quota slots of this replica's open sockets, each refreshed at least every `HEARTBEAT`
    seconds (a slot is stale after three missed beats) by one timer and one pipeline per 1,000.
    A Redis hiccup is logged and the sockets stay: the next beat refreshes them."""

    def __init__(self) -> None:
        self._slots: set = set()
        self._timer: asyncio.TimerHandle | None = None
        self._beating: set[asyncio.Task] = set()

    def add(self, slot) -> None:
        if not slot.keys:               # an exempt address counts nowhere: nothing to refresh
            return
        self._slots.add(slot)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(HEARTBEAT, self._beat)

    def discard(self, slot) -> None:
        self._slots.discard(slot)
        if not self._slots and self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _beat(self) -> None:
        loop = asyncio.get_running_loop()
        task = loop.create_task(self.refresh(list(self._slots)))
        self._beating.add(task)
        task.add_done_callback(self._beating.discard)
        self._timer = loop.call_later(HEARTBEAT, self._beat) if self._slots else None

    @staticmethod
    async def refresh(slots: list) -> None:
        """Each slot's score is now, where it still is (`xx`: a slot released meanwhile stays gone)."""
        now = time.time()
        for start in range(0, len(slots), PIPELINE):
            batch = slots[start:start + PIPELINE]
            try:
                async with batch[0].quota.redis.pipeline(transaction=False) as pipe:
                    for slot in batch:
                        for key in slot.keys:
                            pipe.zadd(key, {slot.member: now}, xx=True)
                    await pipe.execute()
            except Exception as error:
                log.warning("socket_heartbeat_failed", sockets=len(batch), error=repr(error))


class _Room:
    __slots__ = ("sockets", "subscribing")

    def __init__(self) -> None:
        self.sockets: set[OpenSocket] = set()
        self.subscribing: asyncio.Future | None = None


class ChatRooms:
    """Each table's chat subject followed once on this replica, for every socket on that table."""

    def __init__(self) -> None:
        self._rooms: dict[str, _Room] = {}

    async def enter(self, nc, subject: str, socket: OpenSocket) -> None:
        """From now on `socket` gets the chat posted on `subject` (once the subscription stands)."""
        room = self._rooms.get(subject)
        if room is None:
            room = self._rooms[subject] = _Room()

            async def posted(msg) -> None:
                await self._forward(room, msg.data)
            room.subscribing = asyncio.ensure_future(nc.subscribe(subject, cb=posted))
        room.sockets.add(socket)
        await asyncio.shield(room.subscribing)

    async def leave(self, subject: str, socket: OpenSocket) -> None:
        room = self._rooms.get(subject)
        if room is None or socket not in room.sockets:
            return
        room.sockets.discard(socket)
        if room.sockets:
            return
        del self._rooms[subject]
        try:
            subscription = await room.subscribing
        except Exception:               # it never stood
            return
        await subscription.unsubscribe()

    @staticmethod
    async def _forward(room: _Room, data: bytes) -> None:
        try:
            encoded = text(message("chat", chat=json.loads(data)))
        except ValueError:
            log.warning("chat_message_unreadable")
            return
        framed = None
        for socket in list(room.sockets):
            outlet = socket.outlet
            try:
                if outlet.direct:
                    framed = framed or frame(encoded)
                    outlet.write(framed)    # refused: closing (it ends), or too slow (its feed closes it)
                else:
                    await outlet.send(encoded)
            except Exception:               # the socket is closing: its own `receive` notices
                pass
