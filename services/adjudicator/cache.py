"""The adjudicator's per-game cache: folded records, their locks, and the snapshots that refill them.

One slot per game: the lock that orders the game's commands on this replica, the folded record (None:
rebuild it before use), the seed, and the seq of the last snapshot this replica knows of. On a miss the
record comes from the game's snapshot, if one may be used (`starbase_core.snapshots` says when), and the
stream's tail after it; else from the whole stream. The cache is never the truth: the store orders the
commands (appends with the expected seq), and a record that may have drifted is dropped and rebuilt.

Snapshots are written off the request path: once `snapshot_every` events were folded past the last one,
`stored` starts a background task that waits for the game's lock (the reply to the command that
triggered it is already on its way), copies the record and the store's checkpoint as plain data (no
await in between, so both are at one seq), lets the lock go, then encodes, signs and stores the copy.
A failed snapshot is logged and tried again `snapshot_every` events later; nothing waits on it.
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable

import structlog
from prometheus_client import Counter, Gauge

from starbase_core.gamestream import GameRecord, RefoldNeeded, game_stream, replay
from starbase_core.snapshots import Snapshots
from starbase_core.store import EventStore
from starbase_rules.contract import Game, RuleViolation

log = structlog.get_logger(__name__)

REBUILDS = Counter("adjudicator_rebuilds_total", "Games rebuilt from the store, by source", ["source"])
SNAPSHOTS = Counter("adjudicator_snapshots_total", "Snapshots written, by result", ["result"])
CACHED_GAMES = Gauge("adjudicator_cached_games", "Games held in the cache")

SNAPSHOT_WRITERS = 2            # snapshots encoded and stored at once, at most


@dataclass
class Slot:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    record: GameRecord | None = None
    seed: bytes | None = None      # kept here, never in the record that views are made from
    snapshot_seq: int = 0          # the seq of the newest snapshot of the game this replica knows of
    snapshotting: bool = False


class GameCache:
    def __init__(self, store: EventStore, games: Callable[[str], Game], *, size: int = 1000,
                 snapshots: Snapshots | None = None, snapshot_every: int = 256):
        self.store, self.games, self.size = store, games, size
        self.snapshots = snapshots if snapshot_every > 0 else None
        self.snapshot_every = snapshot_every
        self._slots: OrderedDict[str, Slot] = OrderedDict()
        self._writers = asyncio.Semaphore(SNAPSHOT_WRITERS)
        self._tasks: set[asyncio.Task] = set()

    def slot(self, game_id: str) -> Slot:
        slot = self._slots.get(game_id)
        if slot is None:
            slot = self._slots[game_id] = Slot()
            self._evict_idle()
            CACHED_GAMES.set(len(self._slots))     # only a new slot changes the count (a locked write)
        self._slots.move_to_end(game_id)
        return slot

    async def record(self, slot: Slot, game_id: str, *, catch_up: bool) -> GameRecord:
        """The slot's record, rebuilt if missing; with `catch_up`, with what other replicas appended."""
        if slot.record is None:
            slot.record = await self._load(slot, game_id)
            self.stored(slot, game_id)
        elif catch_up:
            await self.caught_up(slot, game_id)
        return slot.record

    async def caught_up(self, slot: Slot, game_id: str) -> bool:
        """Apply what other replicas appended; True when there was anything. An undo among it takes
        back what the record folded: the record is then rebuilt (`_load`).

        A record more than `snapshot_every` events behind (a game another replica decides, asked here
        about now and then: a lobby's ToAct, a client's legal actions) is taken afresh from the game's
        newest snapshot and the tail after it, not from every envelope since: those interleave with every
        other game's in the store, so reading them made the store walk all it had stored since, and every
        game's appends waited meanwhile (docs/lobby-capacity.md, fourteenth round)."""
        assert slot.record is not None
        stream = game_stream(game_id)
        if self.snapshots is not None:
            behind = await self.store.last_seq(stream) - slot.record.last_seq
            if behind <= 0:
                return False
            if behind > self.snapshot_every:
                fresh = await self._from_snapshot_and_tail(slot, game_id)
                if fresh is not None and fresh.last_seq > slot.record.last_seq:
                    slot.record = fresh
                    return True
        newer = await self.store.read(stream, from_seq=slot.record.last_seq + 1)
        if newer:
            try:
                slot.record.apply(newer)
            except RefoldNeeded:
                slot.record = None
                slot.record = await self._load(slot, game_id)
            except BaseException:
                slot.record = None
                raise
        return bool(newer)

    def stored(self, slot: Slot, game_id: str) -> None:
        """The slot's record moved on (a command stored, a rebuild): snapshot it if it is time."""
        record = slot.record
        if self.snapshots is None or record is None or slot.snapshotting \
                or record.last_seq - slot.snapshot_seq < self.snapshot_every:
            return
        slot.snapshotting = True
        task = asyncio.get_running_loop().create_task(self._snapshot(slot, game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self, timeout: float = 5.0) -> None:
        """Let the snapshots being written finish (for at most `timeout` seconds), then drop the rest."""
        if self._tasks:
            _, late = await asyncio.wait(set(self._tasks), timeout=timeout)
            for task in late:
                task.cancel()

    # ---- loading and snapshotting -----------------------------------------------------------------

    async def _load(self, slot: Slot, game_id: str) -> GameRecord:
        record = await self._from_snapshot_and_tail(slot, game_id)
        if record is not None:
            return record
        envelopes = await self.store.read(game_stream(game_id))
        if not envelopes:
            raise RuleViolation("GAME_NOT_FOUND", f"no game {game_id}")
        REBUILDS.labels("stream").inc()
        return replay(game_id, envelopes, self.games)

    async def _from_snapshot_and_tail(self, slot: Slot, game_id: str) -> GameRecord | None:
        """The game from its snapshot and the stream's tail after it; None without a usable snapshot, or
        when an undo reaches back before it (then only a fold from seq 1 will do)."""
        record = await self._from_snapshot(game_id)
        if record is None:
            return None
        slot.snapshot_seq = max(slot.snapshot_seq, record.last_seq)
        try:
            record.apply(await self.store.read(game_stream(game_id), from_seq=record.last_seq + 1))
        except RefoldNeeded:
            return None
        REBUILDS.labels("snapshot").inc()
        return record

    async def _from_snapshot(self, game_id: str) -> GameRecord | None:
        if self.snapshots is None:
            return None
        try:
            return await self.snapshots.load(game_id, self.store)
        except Exception as error:   # a cache: whatever is wrong with it, fold the stream instead
            log.warning("snapshot_unusable", game_id=game_id, error=repr(error))
            return None

    async def _snapshot(self, slot: Slot, game_id: str) -> None:
        assert self.snapshots is not None
        seq = 0
        try:
            async with slot.lock:
                record, checkpoint = slot.record, self.store.checkpoint(game_stream(game_id))
                if record is None or checkpoint is None or checkpoint.seq != record.last_seq:
                    return                # the record is being rebuilt, or the store knows more: later
                seq = record.last_seq
                captured = self.snapshots.capture(record, checkpoint)
            async with self._writers:
                size = await self.snapshots.save(captured)
            SNAPSHOTS.labels("saved").inc()
            log.debug("snapshot_saved", game_id=game_id, seq=seq, bytes=size)
        except Exception as error:
            SNAPSHOTS.labels("failed").inc()
            log.warning("snapshot_failed", game_id=game_id, seq=seq, error=repr(error))
        finally:
            slot.snapshot_seq = max(slot.snapshot_seq, seq)    # after a failure too: try again later
            slot.snapshotting = False

    def _evict_idle(self) -> None:
        for game_id in list(self._slots):
            if len(self._slots) <= self.size:
                return
            if not self._slots[game_id].lock.locked():
                del self._slots[game_id]
