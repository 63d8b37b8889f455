"""The live warehouse of each game in Redis, and the scripts that read and change it (see `lua/`).

Every key of a game shares the hash tag `{<game>}` (`trucker:{g}:meta`, `trucker:{g}:facedown`, …), so a
Redis Cluster keeps a game on one shard and each script checks, changes and numbers atomically. The
rules are not here: the engine decides each move in Python, and `commit` applies the engine's events
only while the facts the decision relied on (its guards) still hold. Scripts write their events to the
game's outbox; `relay.py` carries them to the event store.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from importlib import resources

from redis.asyncio import Redis

from starbase_core.envelope import NewEvent

from starbase_core.script_line import ScriptLine

SCRIPTS = ("commit", "facts", "open", "stop", "decided", "snapshot", "relay_read", "drop")


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


class Stale(Exception):
    """A guard of the decision no longer holds (`guard` names it: seat, faceup, order, time_up, …):
    nothing changed; decide again on a fresh read."""

    def __init__(self, guard: str):
        super().__init__(guard)
        self.guard = guard


@dataclass(frozen=True)
class Applied:
    """What a script did: its events, numbered `first_seq..last_seq`. `retried` when the command id had
    already been applied; then `events` is empty and the events are those already in the stream/outbox."""

    first_seq: int
    last_seq: int
    events: tuple[dict, ...] = ()
    retried: bool = False
    durable: bool = False      # already known to be in the stream (the end of building waits for it)
    outbox_durable: int | None = None   # the seq Redis knew durable when the move was applied (commit)


def _source(name: str) -> str:
    return resources.files("trucker").joinpath("lua", f"{name}.lua").read_text()


_json = json.JSONEncoder(separators=(",", ":")).encode     # one encoder: json.dumps builds one per call


def _flat(events: list[tuple[str, str]]) -> list[str]:
    return [part for event in events for part in event]


class RedisWarehouse:
    """`line`: run the scripts of moves (`_call`) pipelined on one connection (`script_line.py`, the
    service's); without it every call checks a connection out of the client's pool."""

    def __init__(self, redis: Redis, line: ScriptLine | None = None):
        self.redis = redis
        self.line = line
        prelude = _source("prelude")
        self._scripts = {name: redis.register_script(prelude + "\n" + _source(name)) for name in SCRIPTS}

    async def _call(self, script: str, game: str, command_id: str | None, actor: str | None, *args) -> list:
        keys, argv = [meta_key(game)], [command_id or "", actor or "", *map(str, args)]
        if self.line is not None:
            registered = self._scripts[script]
            reply = await self.line.evalsha(registered.sha, registered.script, keys, argv)
        else:
            reply = await self._scripts[script](keys=keys, args=argv)
        if reply[0] == -1:
            raise WarehouseMissing(game)
        if reply[0] == 3:
            raise Stale(reply[1])
        return reply

    @staticmethod
    def _applied(reply: list) -> Applied:
        if reply[0] == 2:
            return Applied(int(reply[1]), int(reply[2]), retried=True)
        events = tuple(json.loads(raw) for raw in reply[1:])
        if not events:
            return Applied(0, 0)
        return Applied(events[0]["seq"], events[-1]["seq"], events)

    async def commit(self, game: str, actor: str, command_id: str | None, command: str, guards: list,
                     events: list[tuple[str, str]], extras: dict | None = None,
                     mark: tuple[str, int] | None = None, played_by: str | None = None) -> Applied:
        """Apply a move the engine decided (`command` and `events`' data as JSON, `projection.event_json`)
        if every guard still holds. Raises `Stale` (nothing changed) or `WarehouseMissing`; a command id
        applied before answers `retried`. `mark` (epoch, seq): first mark that warehouse's events up to
        seq durable, as `relay_view` does (the relay's deferred mark rides on the move: no round trip).
        `played_by`: who played the move when not the seat's player (`bot:<level>`, kept in its meta)."""
        marking = (mark[1], mark[0]) if mark else ("", "")
        reply = await self._call("commit", game, command_id, actor, command, _json(guards),
                                 _json(extras) if extras else "", *marking, played_by or "", *_flat(events))
        if reply[0] != 1:
            return self._applied(reply)
        return replace(self._applied([1, *reply[2:]]), outbox_durable=int(reply[1]))

    async def facts(self, game: str, player: str, command_id: str | None, with_facedown: bool = False):
        """What the engine needs to decide a move of `player` (`projection.read` reads it), or `Applied`
        (retried) if the command id was applied already."""
        reply = await self._call("facts", game, command_id, "", player, "1" if with_facedown else "")
        if reply[0] == 2:
            return self._applied(reply)
        return json.loads(reply[1])

    async def stop(self, game: str) -> bool:
        """Stop building if the sand has run out on START (Redis's clock): True if it stopped now.
        Raises `Stale("status")` when building is not running."""
        try:
            await self._call("stop", game, "", "")
        except Stale as not_now:
            if not_now.guard == "not_due":
                return False
            raise
        return True

    async def decided(self, game: str, command_id: str | None, seq: int, status: str, draw_end: int,
                      events: list[NewEvent], after: dict[str, str]) -> Applied:
        """Put the envelopes the platform's transaction decided (the end of building, a resignation) into
        the outbox, meta and all, then set the meta fields `after` (`status`, `bots`), if Redis is still at
        `seq` with `status` ('' for any); raises `Stale` otherwise."""
        flat = [part for event in events
                for part in (event.type, event.actor or "", _json(event.data), _json(event.meta))]
        reply = await self._call("decided", game, command_id, "", seq, status, draw_end, _json(after), *flat)
        return self._applied(reply)

    async def applied_before(self, game: str, command_id: str | None) -> Applied | None:
        """The seqs a command id produced, if it was applied already (a retry)."""
        if not command_id:
            return None
        done = await self.redis.hget(f"trucker:{{{game}}}:cmds", command_id)
        if done is None:
            return None
        first, last = done.split(",")
        return Applied(int(first), int(last), retried=True)

    async def open(self, game: str, doc: dict, start: tuple[str, list[tuple[str, str]]] | None = None,
                   command_id: str = "") -> Applied | None:
        """Load a whole warehouse (`state_doc.warehouse_doc`); `start` = (StartBuilding command, its
        events, decided by the engine) also starts building. None when another replica loaded it first."""
        args = [command_id, "", json.dumps(doc)]
        if start is not None:
            args += [start[0], *_flat(start[1])]
        reply = await self._scripts["open"](keys=[meta_key(game)], args=args)
        if reply[0] == 0:
            return None
        events = tuple(json.loads(raw) for raw in reply[1:])
        seq = int(doc["meta"]["seq"])
        return Applied(events[0]["seq"] if events else seq, events[-1]["seq"] if events else seq, events)

    async def snapshot(self, game: str, secret: bool = False, player: str = "") -> dict:
        reply = await self._call("snapshot", game, "", "", "secret" if secret else "", player)
        return json.loads(reply[1])

    async def relay_view(self, game: str, limit: int, mark: tuple[str, int] | None = None) -> "RelayView":
        """Durable seq, last seq, epoch and the pending outbox events, read at one instant; with `mark`
        (epoch, seq), first marks that warehouse's events up to seq durable: stored in the event store, so
        they leave the outbox (unless Redis holds another epoch's warehouse by now)."""
        marking = (mark[1], mark[0]) if mark else ("", "")
        reply = await self._call("relay_read", game, "", "", limit, *marking)
        return RelayView(int(reply[1]), int(reply[2]), reply[3], [json.loads(raw) for raw in reply[4:]])

    async def drop(self, game: str, only_round: int | None = None, only_epoch: str | None = None) -> bool:
        """Forget a game's warehouse (it disagreed with the event store, or its round is over): all its
        keys in one script. With `only_round` / `only_epoch`, only if it still holds that round / that
        load (so several callers noticing one problem drop it once, not its replacement). True if dropped."""
        reply = await self._scripts["drop"](keys=[meta_key(game)], args=[
            "", "", "" if only_round is None else str(only_round), only_epoch or ""])
        return reply[0] == 1


@dataclass(frozen=True)
class RelayView:
    durable: int
    last: int
    epoch: str
    pending: list[dict]
