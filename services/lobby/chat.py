"""Table chat, kept outside the append-only table stream (in `PersonalStore`), so a moderator can hide a
message and an erased player's messages go with them. Who may chat is still the table's rule
(`domain.check_chat`); limits and mutes are checked first. Each stored message is also announced on a
core NATS subject, which the table's open sockets (on every replica) forward as `{"kind": "chat"}`."""
from __future__ import annotations

import json
import time

from lobby import domain
from lobby.accounts.directory import Directory
from lobby.exceptions import Forbidden, NotFound
from lobby.guard.rates import RateLimits
from lobby.personal import PersonalStore, Record
from lobby.service import TableService
from lobby.tokens import Identity


class ChatService:
    def __init__(self, personal: PersonalStore, tables: TableService, directory: Directory, limits: RateLimits, nc):
        self.personal, self.tables, self.directory, self.limits, self.nc = personal, tables, directory, limits, nc

    async def post(self, who: Identity, table_id: str, text: str) -> dict:
        table = await self.tables.load(table_id)
        if not table.may_see(who.player_id):
            raise NotFound(f"no table {table_id!r}", "TABLE_NOT_FOUND")
        text = domain.check_chat(table, who.player_id, text)
        account = await self.directory.account(who.player_id)
        if account is not None and account.muted_until > time.time():
            minutes = -(-int(account.muted_until - time.time()) // 60)
            raise Forbidden(f"a moderator muted you in chat for {minutes} more minute(s)", "MUTED")
        await self.limits.hit("chat", who.player_id, who.address)
        record = await self.personal.add(f"chat.{table_id}.{who.player_id}",
                                         {"table": table_id, "player": who.player_id, "text": text})
        message = self.message(record)
        await self.nc.publish(self.personal.live_subject(table_id), json.dumps(message).encode())
        return message

    async def read(self, viewer: str | None, table_id: str, invite: str | None, after: int, limit: int) -> list[dict]:
        table = await self.tables.load(table_id)
        if not table.may_see(viewer, invite):
            raise NotFound(f"no table {table_id!r}", "TABLE_NOT_FOUND")   # a private table is not disclosed
        return [self.message(r) for r in await self.personal.read(f"chat.{table_id}.*", after, limit)]

    def message(self, record: Record) -> dict:
        player = record.data["player"]
        return {"id": record.id, "table_id": record.data["table"], "player_id": player,
                "name": self.directory.name_of(player), "text": record.data["text"], "time": record.time}

    async def find(self, message_id: int) -> Record | None:
        record = await self.personal.get(message_id)
        return record if record is not None and record.subject.startswith("chat.") else None
