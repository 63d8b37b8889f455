"""Dead letters: notifications that could not be delivered after the last attempt.

One JetStream stream that, unlike the event store, allows purging: subject `<prefix>.<player key>`
per player (a digest of the player id, as for preferences), so a player lists their own, an operator
lists all (`python -m notifier dead-letters`), and erasing a player purges theirs. A record says which
notification (id, kind, the cause's stream and seq), on which channel, how many attempts, the last
problem in our words, and where it went as `scheme://host:port` only. Records age out after 30 days;
each player keeps at most the last 200. The message id is (player, notification id, channel), so a holder that
died between writing the record and settling its claim does not leave two records.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone

from nats.js import api
from nats.js.errors import BadRequestError, NotFoundError

from notifier.preferences import player_key

MAX_AGE_DAYS = 30
PER_PLAYER = 200


class DeadLetters:
    def __init__(self, nc, name: str = "NOTIFIER_DEAD", prefix: str = "notifier-dead", replicas: int = 1):
        self._js, self.name, self.prefix, self.replicas = nc.jetstream(), name, prefix, replicas

    async def ensure(self) -> "DeadLetters":
        config = api.StreamConfig(
            name=self.name, subjects=[f"{self.prefix}.>"], storage=api.StorageType.FILE,
            num_replicas=self.replicas, max_age=MAX_AGE_DAYS * 86400, max_msgs_per_subject=PER_PLAYER,
            deny_delete=False, deny_purge=False, allow_direct=True, duplicate_window=600)
        try:
            await self._js.add_stream(config)
        except BadRequestError:
            await self._js.update_stream(config)
        return self

    async def add(self, player: str, record: dict) -> None:
        stamped = {**record, "time": datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")}
        key = player_key(player)
        await self._js.publish(f"{self.prefix}.{key}", json.dumps(stamped).encode(), stream=self.name,
                               headers={"Nats-Msg-Id": f"{key}.{record['id']}.{record['channel']}"})

    async def list(self, player: str | None = None, after: int = 0, limit: int = 50) -> list[dict]:
        """Up to `limit` records (a player's, or everyone's) with an id past `after`, oldest first."""
        subject = f"{self.prefix}.{player_key(player) if player is not None else '*'}"
        found: list[dict] = []
        position = after + 1
        while len(found) < limit:
            try:
                message = await self._js.get_msg(self.name, position, subject=subject, next=True)
            except NotFoundError:
                break
            found.append({"dead_letter_id": message.seq, **json.loads(message.data)})
            position = message.seq + 1
        return found

    async def erase(self, player: str) -> None:
        await self._js.purge_stream(self.name, subject=f"{self.prefix}.{player_key(player)}")
