"""Moderation actions. Each is checked against roles (a moderator acts on players; only an admin on
moderators, and only an admin gives roles), applied, and written to the moderation log with who did it.

A ban bumps the account's epoch, so its tokens stop working on every replica at once and every
replica closes its sockets (the directory's watch); a mute stops chat until it runs out.
"""
from __future__ import annotations

import time

from lobby.accounts.directory import ROLES, Account, Directory, with_changes
from lobby.chat import ChatService
from lobby.exceptions import Forbidden, Invalid, NotFound
from lobby.guard.rates import RateLimits
from lobby.personal import PersonalStore, Record

CONSOLE = "console"                 # the actor of `starbase admin` commands run on the server


class Moderation:
    def __init__(self, directory: Directory, personal: PersonalStore, chat: ChatService | None = None,
                 limits: RateLimits | None = None):
        self.directory, self.personal, self.chat, self.limits = directory, personal, chat, limits

    async def _target(self, actor_rank: int, player_id: str) -> Account:
        account = await self.directory.get(player_id)
        if account is None:
            raise NotFound(f"no player {player_id!r}", "PLAYER_NOT_FOUND")
        if account.rank() >= actor_rank:
            raise Forbidden("you may only moderate players of a lower role than yours", "OUTRANKED")
        return account

    async def log(self, actor: str, action: str, target: str | None, reason: str = "", **detail) -> None:
        await self.personal.add("modlog", {"actor": actor, "action": action, "target": target,
                                           "reason": reason, **detail})

    async def mute(self, actor: str, rank: int, player_id: str, minutes: int, reason: str) -> Account:
        await self._target(rank, player_id)
        until = time.time() + minutes * 60
        account = await self.directory.update(player_id, lambda a: with_changes(a, muted_until=until))
        await self.log(actor, "mute", player_id, reason, minutes=minutes)
        return account

    async def unmute(self, actor: str, rank: int, player_id: str, reason: str) -> Account:
        await self._target(rank, player_id)
        account = await self.directory.update(player_id, lambda a: with_changes(a, muted_until=0.0))
        await self.log(actor, "unmute", player_id, reason)
        return account

    async def ban(self, actor: str, rank: int, player_id: str, reason: str) -> Account:
        await self._target(rank, player_id)
        account = await self.directory.update(player_id, lambda a: with_changes(a, banned=True, epoch=a.epoch + 1))
        await self.log(actor, "ban", player_id, reason)
        return account

    async def unban(self, actor: str, rank: int, player_id: str, reason: str) -> Account:
        await self._target(rank, player_id)
        account = await self.directory.update(player_id, lambda a: with_changes(a, banned=False))
        await self.log(actor, "unban", player_id, reason)
        return account

    async def set_role(self, actor: str, player_id: str, role: str, reason: str) -> Account:
        if role not in ROLES:
            raise Invalid(f"a role is one of {', '.join(ROLES)}", "BAD_ROLE")
        if await self.directory.get(player_id) is None:
            raise NotFound(f"no player {player_id!r}", "PLAYER_NOT_FOUND")
        account = await self.directory.update(player_id, lambda a: with_changes(a, role=role))
        await self.log(actor, "set_role", player_id, reason, role=role)
        return account

    async def hide(self, actor: str, message_id: int, reason: str) -> None:
        """Delete a chat message for good; the log keeps whose it was and where, not its text."""
        message = await self.chat.find(message_id) if self.chat else None
        if message is None:
            raise NotFound(f"no chat message {message_id}", "MESSAGE_NOT_FOUND")
        await self.personal.delete(message_id)
        await self.log(actor, "hide", message.data["player"], reason, message_id=message_id,
                       table_id=message.data["table"])

    async def report(self, reporter: str, player_id: str | None, message_id: int | None, reason: str,
                     address: str | None = None) -> Record:
        if player_id is None and message_id is None:
            raise Invalid("report a player (player_id), a chat message (message_id), or both", "EMPTY_REPORT")
        if self.limits is not None:
            await self.limits.hit("reports", reporter, address)
        quoted = None
        if message_id is not None:
            message = await self.chat.find(message_id) if self.chat else None
            if message is None:
                raise NotFound(f"no chat message {message_id}", "MESSAGE_NOT_FOUND")
            player_id, quoted = player_id or message.data["player"], message.data["text"]
        if player_id is not None and await self.directory.get(player_id) is None:
            raise NotFound(f"no player {player_id!r}", "PLAYER_NOT_FOUND")
        return await self.personal.add(f"report.{reporter}", {
            "reporter": reporter, "player": player_id, "message_id": message_id, "quoted": quoted, "reason": reason})

    async def reports(self, after: int, limit: int) -> list[Record]:
        return await self.personal.read("report.*", after, limit)

    async def entries(self, after: int, limit: int) -> list[Record]:
        return await self.personal.read("modlog", after, limit)
