"""The live warehouse of each game in Redis: one Lua script per operation (see `lua/`).

Every key of a game shares the hash tag `{<game>}` (`trucker:{g}:meta`, `trucker:{g}:facedown`, …), so a
Redis Cluster keeps a game on one shard and each script reads, checks, changes and numbers atomically.
Scripts write their events to the game's outbox; `relay.py` carries them to the event store.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from redis.asyncio import Redis

# The operations a player (or the service, for `end_building`) may run, and their Lua files.
OPERATIONS = (
    "grab_face_down", "grab_face_up", "grab_reserved", "place", "move_newest", "return_tile",
    "reserve", "look_at_pile", "return_pile", "turn_timer", "finish", "stop", "decided",
)
READERS = ("open", "snapshot", "ship_of", "relay_read", "drop")


def meta_key(game: str) -> str:
    return f"trucker:{{{game}}}:meta"


class Refused(Exception):
    """A refused operation: nothing changed. `code` is stable, `message` is for people."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class WarehouseMissing(Exception):
    """The game's warehouse is not in Redis (never opened, or Redis lost it): rebuild, then retry."""


@dataclass(frozen=True)
class Applied:
    """What a script did: its events, numbered `first_seq..last_seq`. `retried` when the command id had
    already been applied; then `events` is empty and the events are those already in the stream/outbox."""

    first_seq: int
    last_seq: int
    events: tuple[dict, ...] = ()
    retried: bool = False


def _source(name: str) -> str:
    return resources.files("trucker").joinpath("lua", f"{name}.lua").read_text()


class RedisWarehouse:
    def __init__(self, redis: Redis):
        self.redis = redis
        prelude = _source("prelude")
        self._scripts = {name: redis.register_script(prelude + "\n" + _source(name))
                         for name in OPERATIONS + READERS}

    async def _call(self, script: str, game: str, command_id: str, actor: str, *args) -> list:
        reply = await self._scripts[script](keys=[meta_key(game)],
                                            args=[command_id or "", actor or "", *map(str, args)])
        if reply[0] == -1:
            raise WarehouseMissing(game)
        return reply

    async def apply(self, operation: str, game: str, actor: str | None, command_id: str | None,
                    *args) -> Applied:
        """Run one operation; raises `Refused` or `WarehouseMissing`."""
        if operation not in OPERATIONS:
            raise Refused("UNKNOWN_OPERATION", f"no operation {operation!r}")
        reply = await self._call(operation, game, command_id or "", actor or "", *args)
        status = reply[0]
        if status == 0:
            raise Refused(reply[1], reply[2])
        if status == 2:
            return Applied(int(reply[1]), int(reply[2]), retried=True)
        events = tuple(json.loads(raw) for raw in reply[1:])
        if not events:   # a script that only changes state (stop)
            return Applied(0, 0)
        return Applied(events[0]["seq"], events[-1]["seq"], events)

    async def applied_before(self, game: str, command_id: str | None) -> Applied | None:
        """The seqs a command id produced, if it was applied already (a retry)."""
        if not command_id:
            return None
        done = await self.redis.hget(f"trucker:{{{game}}}:cmds", command_id)
        if done is None:
            return None
        first, last = done.split(",")
        return Applied(int(first), int(last), retried=True)

    async def open(self, game: str, doc: dict, start: bool, command_id: str = "") -> Applied | None:
        """Load a whole warehouse (`state_doc.warehouse_doc`); `start` also starts building (emits
        BuildingStarted). Returns None when another replica loaded it first."""
        reply = await self._scripts["open"](keys=[meta_key(game)],
                                            args=[command_id, "", json.dumps(doc), "1" if start else ""])
        if reply[0] == 0:
            return None
        events = tuple(json.loads(raw) for raw in reply[1:])
        seq = int(doc["meta"]["seq"])
        return Applied(events[0]["seq"] if events else seq, events[-1]["seq"] if events else seq, events)

    async def snapshot(self, game: str, secret: bool = False, player: str = "") -> dict:
        reply = await self._call("snapshot", game, "", "", "secret" if secret else "", player)
        return json.loads(reply[1])

    async def ship_of(self, game: str, player: str) -> "ShipSnapshot":
        reply = await self._call("ship_of", game, "", "", player)
        _, version, board, strict, hand, newest, epoch, *flat = reply
        squares = {}
        for square, placed in zip(flat[0::2], flat[1::2]):
            col, row = square.split(",")
            tile, rotation = placed.split("|")
            squares[(int(col), int(row))] = (tile, int(rotation))
        return ShipSnapshot(int(version), board, strict == "1", hand or None,
                            json.loads(newest) if newest else None, squares, epoch)

    async def relay_view(self, game: str, limit: int, mark: tuple[str, int] | None = None) -> "RelayView":
        """Durable seq, last seq, epoch and the pending outbox events, read at one instant; with `mark`
        (epoch, seq), first marks that warehouse's events up to seq durable: stored in the event store, so
        they leave the outbox (unless Redis holds another epoch's warehouse by now)."""
        marking = (mark[1], mark[0]) if mark else ("", "")
        reply = await self._call("relay_read", game, "", "", limit, *marking)
        return RelayView(int(reply[1]), int(reply[2]), reply[3], [json.loads(raw) for raw in reply[4:]])

    async def drop(self, game: str, only_round: int | None = None) -> bool:
        """Forget a game's warehouse (it disagreed with the event store, or its round is over): all its
        keys in one script. With `only_round`, only if it still holds that round. True if dropped."""
        reply = await self._scripts["drop"](keys=[meta_key(game)],
                                            args=["", "", "" if only_round is None else str(only_round)])
        return reply[0] == 1


@dataclass(frozen=True)
class RelayView:
    durable: int
    last: int
    epoch: str
    pending: list[dict]


@dataclass(frozen=True)
class ShipSnapshot:
    version: int
    board: str
    strict: bool
    hand: str | None
    newest: dict | None
    squares: dict[tuple[int, int], tuple[str, int]]
    epoch: str = ""
