"""Personal data that is not game truth: chat, reports, the moderation log.

One JetStream stream (file storage, replicated like the event store) that, unlike the event store,
allows deleting messages, so a hidden chat message or an erased player is really gone (survives a
Redis wipe and a restart; Redis holds none of it). Subjects under `<prefix>.`:

    chat.<table id>.<author id>     a chat message         (hide: delete it; erase: purge `chat.*.<id>`)
    report.<reporter id>            a report               (erase: purge `report.<id>`)
    modlog                          a moderation action    (who, what, whom: ids only)

A message's id is its stream sequence: increasing, so `after=<id>` pages and resumes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Awaitable, Callable

from nats.js import api
from nats.js.errors import BadRequestError, NotFoundError


@dataclass(frozen=True)
class Record:
    id: int
    subject: str                    # without the prefix: "chat.<table>.<author>", "modlog", …
    data: dict
    time: str


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


class PersonalStore:
    def __init__(self, nc, name: str, prefix: str, replicas: int = 1):
        self._nc, self._js = nc, nc.jetstream()
        self.name, self.prefix, self.replicas = name, prefix, replicas
        # Personal data kept elsewhere (the notifier's preferences, …): each eraser forgets a player there.
        self.erasers: list[Callable[[str], Awaitable[None]]] = []

    async def ensure(self) -> "PersonalStore":
        config = api.StreamConfig(
            name=self.name, subjects=[f"{self.prefix}.>"], storage=api.StorageType.FILE,
            num_replicas=self.replicas, deny_delete=False, deny_purge=False, allow_direct=True)
        try:
            await self._js.add_stream(config)
        except BadRequestError:
            await self._js.update_stream(config)
        return self

    def live_subject(self, table_id: str) -> str:
        """Core NATS subject a stored chat message is announced on, for the table's open sockets."""
        return f"{self.prefix}-live.chat.{table_id}"

    async def add(self, subject: str, data: dict) -> Record:
        stamped = {**data, "time": now_iso()}
        ack = await self._js.publish(f"{self.prefix}.{subject}", json.dumps(stamped).encode(), stream=self.name)
        return Record(ack.seq, subject, stamped, stamped["time"])

    async def get(self, record_id: int) -> Record | None:
        try:
            message = await self._js.get_msg(self.name, record_id)
        except NotFoundError:
            return None
        return self._record(message)

    async def read(self, subject_filter: str, after: int = 0, limit: int = 100) -> list[Record]:
        """Up to `limit` records matching `subject_filter` with an id past `after`, oldest first."""
        found: list[Record] = []
        position = after + 1
        while len(found) < limit:
            try:
                message = await self._js.get_msg(self.name, position, subject=f"{self.prefix}.{subject_filter}",
                                                 next=True)
            except NotFoundError:
                break
            record = self._record(message)
            found.append(record)
            position = record.id + 1
        return found

    async def delete(self, record_id: int) -> bool:
        try:
            return await self._js.delete_msg(self.name, record_id)
        except NotFoundError:
            return False

    async def erase_player(self, player_id: str) -> None:
        """Everything personal about a player, here and in every store that registered an eraser."""
        await self.purge(f"chat.*.{player_id}")
        await self.purge(f"report.{player_id}")
        for eraser in self.erasers:
            await eraser(player_id)

    async def purge(self, subject_filter: str) -> None:
        await self._js.purge_stream(self.name, subject=f"{self.prefix}.{subject_filter}")

    def _record(self, message) -> Record:
        data = json.loads(message.data)
        return Record(message.seq, message.subject[len(self.prefix) + 1:], data, data.get("time", ""))
