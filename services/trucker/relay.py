"""The outbox relay: moves a game's events from Redis into its event stream, idempotently, in order.

Each append says `expected_seq = first event's seq - 1` and carries the command id `<epoch>:<first seq>`,
so its JetStream message id is `game.<id>:<epoch>:<seq>`: a retry after a crash, or the same batch moved
by two replicas at once, lands once. After an append the relay checks that what the stream holds at those
seqs is what this warehouse wrote (the same epoch: Redis numbers each seq once per epoch): if Redis was rebuilt meanwhile and someone else's event
holds the seq, the warehouse is dropped and rebuilt from the stream, and the waiting move is not
acknowledged (its client retries). Within one process the appends of a game are batched: whoever holds
the game's lock moves everything pending, so many concurrent moves share one append.

A move costs one script call and one append. The commit script answers with the move's outbox events
and the seq Redis knows durable (`offer`); when this relay knows every event before them is stored, it
stores them as they are, without reading the outbox back (`_offered`). Marking stored events durable in
Redis (which drops them from the outbox) rides on this relay's next script call for the game, a commit
or an outbox read (`unmarked` / `marked`). Whatever the relay does not hold itself (another replica's
moves, the end of building, a retried move) it reads from the outbox, as before.
"""
from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from starbase_core.envelope import Envelope, NewEvent
from starbase_core.gamestream import game_stream
from starbase_core.store import EventStore, WrongExpectedSeq
from starbase_core.transaction import REQUEST_ID

from trucker import observe
from trucker.warehouse import Applied, RedisWarehouse, RelayView, WarehouseMissing

MAX_BATCH = 256
Publish = Callable[[str, list[Envelope]], Awaitable[None]]


class Diverged(Exception):
    """The stream holds, at a seq, an event the warehouse of `epoch` did not write: Redis must be rebuilt."""

    def __init__(self, message: str, epoch: str):
        super().__init__(message)
        self.epoch = epoch


class NotDurable(Exception):
    """The move's event can no longer reach the stream (Redis lost it): the move was not applied."""


def new_event(outboxed: dict) -> NewEvent:
    """An outbox event as the platform stores game events. The end of building carries the meta the
    platform's transaction decided (`meta`): stored as it is. A move carries what the script knew:
    data = the engine event's fields (type and v added back, as `model_dump()` has them) and the meta
    `gamestream.wrap` writes (`draw_end`, and `command` and `played_by` on a command's first event), plus the client's
    id of the move as `request_id` (which the audit leaves out of its comparison)."""
    if "meta" in outboxed:
        return NewEvent(type=outboxed["type"], data=outboxed["data"], actor=outboxed.get("actor"),
                        meta=outboxed["meta"])
    meta = {"draw_end": outboxed.get("draw_end", 0)}
    if outboxed.get("command") is not None:
        meta["command"] = outboxed["command"]
        if outboxed.get("played_by"):       # a bot seat's move (`starbase_core.seats`: the audit checks it)
            meta["played_by"] = outboxed["played_by"]
        if outboxed.get("command_id"):
            # The client's id of the move (`<player>:<id>`): a warehouse rebuilt from the stream learns
            # from it which moves were applied, so a resend is answered and not applied again. (The
            # append's own command id, `<epoch>:<seq>`, names a relay batch, not a move.)
            meta[REQUEST_ID] = outboxed["command_id"]
    data = {"type": outboxed["type"], "v": 1, **outboxed["data"]}
    return NewEvent(type=outboxed["type"], data=data, actor=outboxed.get("actor"), meta=meta)


def append_id(epoch: str, first_seq: int) -> str:
    """The command id of an append (JetStream message id `game.<id>:<epoch>:<seq>`): the warehouse
    epoch that numbered the events, and the seq of the first."""
    return f"{epoch}:{first_seq}"


def written_by(envelope: Envelope, epoch: str) -> bool:
    return (envelope.command_id or "").startswith(f"{epoch}:")


class Relay:
    def __init__(self, warehouse: RedisWarehouse, store: EventStore, publish: Publish | None = None):
        self.warehouse = warehouse
        self.store = store
        self.publish = publish
        self._locks: dict[str, asyncio.Lock] = {}
        self._known: dict[str, tuple[str, int]] = {}
        self._unmarked: dict[str, tuple[str, int]] = {}   # (epoch, seq) stored but not yet marked in Redis
        self._offered: dict[str, tuple[str, dict[int, dict]]] = {}   # (epoch, {seq: outbox event}) not stored
        self.appends = 0            # how many store appends this relay made (a batching figure)

    @observe.waits          # the relay's backlog figures
    async def wait_durable(self, game: str, seq: int, epoch: str | None) -> None:
        """Return once event `seq` of warehouse `epoch` is in the stream; raise NotDurable if it never will be.
        (`epoch` None: a retried command, whose events this warehouse already holds.)

        Concurrent waiters of one game queue on its lock; whoever gets it moves everything pending, so
        the others usually find their event already stored (in `_known`, what this relay last saw:
        the warehouse epoch and its durable seq) without another look at Redis."""
        if self._covered(game, seq, epoch):
            return
        lock = self._locks.setdefault(game, asyncio.Lock())
        async with lock:
            if self._covered(game, seq, epoch):
                return
            try:
                durable, flushed_epoch = await self._flush(game, seq, epoch)
            except WarehouseMissing:
                raise NotDurable(f"the warehouse of game {game} was lost before event {seq} was stored") from None
            if epoch is not None and flushed_epoch != epoch:
                raise NotDurable(f"the warehouse of game {game} was rebuilt before event {seq} was stored")
            if durable < seq:
                raise NotDurable(f"event {seq} of game {game} was lost with Redis")

    def offer(self, game: str, applied: Applied) -> None:
        """Learn a move's outbox events from the commit that numbered them, and the seq Redis knew
        durable then: what lets `_flush` store them without reading the outbox."""
        if not applied.events or applied.outbox_durable is None:
            return
        epoch = applied.events[0].get("epoch")
        known = self._known.get(game)
        if known is None:
            self._known[game] = known = (epoch, applied.outbox_durable)
        elif known[0] != epoch:
            return      # only an outbox read tells which load is the current one (a late or early reply)
        elif applied.outbox_durable > known[1]:
            self._known[game] = known = (epoch, applied.outbox_durable)
        offered = self._offered.get(game)
        if offered is None or offered[0] != epoch:
            offered = self._offered[game] = (epoch, {})
        for event in applied.events:
            if event["seq"] > known[1]:
                offered[1][event["seq"]] = event

    def unmarked(self, game: str) -> tuple[str, int] | None:
        """(epoch, seq) this relay stored and Redis does not know yet: for the next script call to mark."""
        return self._unmarked.get(game)

    def marked(self, game: str, mark: tuple[str, int] | None) -> None:
        """A script call marked `mark` (what `unmarked` gave): forget it unless a newer one came since."""
        if mark is not None and self._unmarked.get(game) == mark:
            del self._unmarked[game]

    def _offered_view(self, game: str) -> RelayView | None:
        """The offered events right after the durable seq this relay knows, as the outbox would show
        them (whole script runs, in order, about MAX_BATCH); None if the next one is not offered."""
        known, offered = self._known.get(game), self._offered.get(game)
        if known is None or offered is None or offered[0] != known[0]:
            return None
        epoch, durable = known
        events = offered[1]
        for seq in [s for s in events if s <= durable]:
            del events[seq]
        batch, seq = [], durable + 1
        while (event := events.get(seq)) is not None:
            if len(batch) >= MAX_BATCH and "command" in event:
                break
            batch.append(event)
            seq += 1
        return RelayView(durable, seq - 1, epoch, batch) if batch else None

    def _covered(self, game: str, seq: int, epoch: str | None) -> bool:
        known = self._known.get(game)
        if known is None:
            return False
        known_epoch, durable = known
        if epoch is not None and known_epoch != epoch:
            return False   # a rebuild, or an old view: look at Redis again
        return durable >= seq

    async def flush(self, game: str) -> None:
        """Move everything pending now and mark it durable in Redis (used by the end of building, the
        tests and at shutdown)."""
        lock = self._locks.setdefault(game, asyncio.Lock())
        async with lock:
            await self._flush(game)
            if (mark := self._unmarked.pop(game, None)) is not None:
                await self.warehouse.relay_view(game, 0, mark)

    async def _flush(self, game: str, target: int | None = None, epoch: str | None = None) -> tuple[int, str]:
        """Move the outbox into the stream; returns (durable seq, epoch) of the warehouse it moved.
        With `target` and `epoch` (a waiter's event): when the relay knows that load to be the current
        one, store what was offered and return as soon as the target is stored.

        Marking the stored events durable in Redis (which drops them from the outbox) waits for the
        next script call, which does both in one round trip: a move is acknowledged once its event
        is in the stream, and until the mark lands any relay that tries to store those events again
        finds them there (the append expects the seq before them) and only marks them."""
        known = self._known.get(game)
        if target is None or known is None or known[0] != epoch:
            target = None
        try:
            return await self._move(game, target)
        except BaseException:
            self._offered.pop(game, None)   # whatever went wrong, read the outbox next time
            raise

    async def _move(self, game: str, target: int | None) -> tuple[int, str]:
        stream = game_stream(game)
        waited = 0
        while True:
            view = self._offered_view(game) if target is not None else None
            if view is None:
                view = await self.warehouse.relay_view(game, MAX_BATCH, self._unmarked.pop(game, None))
                if (offered := self._offered.get(game)) is not None and offered[0] != view.epoch:
                    del self._offered[game]     # that load is gone: its offered events are never stored
                self._known[game] = (view.epoch, view.durable)
                if view.durable >= view.last:
                    return view.durable, view.epoch
            if not view.pending:
                # Another replica moved them and is about to mark them durable: look again shortly.
                waited += 1
                if waited > 200:
                    raise NotDurable(f"game {game}: outbox entry {view.durable + 1} is missing")
                await asyncio.sleep(0.005)
                continue
            stored, fresh = await self._append(stream, view)
            # Within one warehouse epoch each seq is numbered once (by a script), so an envelope carrying
            # this epoch is this warehouse's event, whichever replica stored it; any other is not.
            for envelope in stored:
                if not written_by(envelope, view.epoch):
                    raise Diverged(f"game {game}: seq {envelope.seq} in the stream is not this warehouse's",
                                   view.epoch)
            durable = stored[-1].seq
            self._known[game] = (view.epoch, durable)
            self._unmarked[game] = (view.epoch, durable)
            if (offered := self._offered.get(game)) is not None:
                for seq in [s for s in offered[1] if s <= durable]:
                    del offered[1][seq]     # stored: not kept until the game's next move
            if fresh and self.publish is not None:
                await self.publish(game, stored)
            if durable >= view.last and (target is None or durable >= target):
                return durable, view.epoch

    @observe.appends        # the append's span (linked to the moves it writes) and figures
    async def _append(self, stream: str, view) -> tuple[list[Envelope], bool]:
        """Append the pending events after `view.durable`; (what the stream now holds there, appended by us?)."""
        try:
            events = observe.stamped(stream, [new_event(e) for e in view.pending])
            stored = await self.store.append(stream, events,
                                             expected_seq=view.durable,
                                             command_id=append_id(view.epoch, view.durable + 1))
            self.appends += 1
            return [e for e in stored if e.seq > view.durable], True
        except WrongExpectedSeq as moved:
            if moved.actual < view.durable:
                raise Diverged(f"{stream}: the stream is at {moved.actual}, behind Redis's {view.durable}",
                               view.epoch) from None
            stored = await self.store.read(stream, from_seq=view.durable + 1)
            if not stored:
                raise Diverged(f"{stream}: nothing in the stream after {view.durable}", view.epoch) from None
            return stored, False
