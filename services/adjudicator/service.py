"""The adjudicator's core: a command in, the engine's decision out, appended with optimistic concurrency.

Plain asyncio code over two ports (an `EventStore` and a `SeedVault`); the gRPC servicer only adapts it.
The transaction itself (guards, decide, wrap, evolve, GameEnded) is `starbase_core.transaction`, the
code the audit re-runs; this module adds the cache, the lock, the retries and the answers.

Safe as several replicas: the store decides the order of a game's commands (append with the expected
seq), never this process's memory. The per-game cache is an optimisation: a command is decided on the
cached state; if another replica appended first (WrongExpectedSeq), or the cached state refused a command
that a newer state might accept, the replica catches up from the store and decides again
(`run_optimistically`, bounded, then TOO_BUSY). A decision advances the cached state in place, so any
failure after it evicts the game and the next use rebuilds it.

Retries are idempotent: a command id already in the stream returns the envelopes it first produced, so a
lobby that lost the reply (the adjudicator died between the append and the reply) retries safely; and no
refusal is answered for a command id that is in the stream (see `submit`).
"""
from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable

import structlog
from prometheus_client import Counter, Gauge, Histogram

from starbase_core.envelope import Envelope
from starbase_core.gamestream import GameRecord, game_stream, replay
from starbase_core.seeds import SeedVault
from starbase_core.store import EventStore, WrongExpectedSeq
from starbase_core.transaction import TooBusy, check_new_game, decide_next, open_game, run_optimistically
from starbase_rules.contract import Game, RuleViolation
from starbase_rules.registry import get_game

log = structlog.get_logger(__name__)

COMMANDS = Counter("adjudicator_commands_total", "Commands handled, by result", ["result"])
SUBMIT_SECONDS = Histogram("adjudicator_submit_seconds", "Time to handle one command")
REBUILDS = Counter("adjudicator_rebuilds_total", "Games rebuilt from the store")
CACHED_GAMES = Gauge("adjudicator_cached_games", "Games held in the cache")

MAX_ATTEMPTS = 20


@dataclass
class _Slot:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    record: GameRecord | None = None
    seed: bytes | None = None      # kept here, never in the record that views are made from


class Adjudicator:
    def __init__(self, store: EventStore, vault: SeedVault, *,
                 games: Callable[[str], Game] = get_game, cache_size: int = 1000):
        self.store, self.vault, self.games = store, vault, games
        self.cache_size = cache_size
        self._slots: OrderedDict[str, _Slot] = OrderedDict()

    # ---- commands ---------------------------------------------------------------------------------

    async def create_game(self, game_id: str, game_name: str, players: list[str], options: dict,
                          command_id: str | None = None) -> list[Envelope]:
        stream = game_stream(game_id)
        command_id = command_id or f"create-{game_id}"
        if found := await self.store.find_command(stream, command_id):
            return found
        engine = self.games(game_name)
        check_new_game(engine, players, options)   # before the vault keeps a seed for a game that cannot start
        new = open_game(engine, players, options, await self.vault.get_or_create(game_id))
        try:
            stored = await self.store.append(stream, new, expected_seq=0, command_id=command_id)
        except WrongExpectedSeq:
            raise RuleViolation("GAME_EXISTS", f"game {game_id} already exists") from None
        log.info("game_created", game_id=game_id, game=engine.name, players=players)
        return stored

    async def submit(self, game_id: str, actor: str, command: dict, command_id: str, *,
                     expected_seq: int | None = None) -> list[Envelope]:
        """Decide and append one command. `expected_seq` (optional): refuse with STALE_POSITION unless
        the game's last envelope is that seq, i.e. unless the sender decided on the current state.

        A refusal means "not applied, ever": another attempt of the same command id (a resend while
        this one was in flight, here or on another replica) may have landed meanwhile, so before any
        refusal the store is asked, after the game's lock, whether the id is there; if it is, its
        envelopes are the answer (a retry's answer, not a refusal)."""
        started = time.perf_counter()
        stream = game_stream(game_id)
        if found := await self.store.find_command(stream, command_id):
            COMMANDS.labels("retried").inc()
            return found
        slot = self._slot(game_id)
        try:
            async with slot.lock:
                stored = await run_optimistically(
                    lambda: self._attempt(slot, game_id, stream, actor, command, command_id, expected_seq),
                    attempts=MAX_ATTEMPTS)
        except (RuleViolation, TooBusy) as refusal:
            # Asked after the lock is released: every attempt of this id that took the lock before this
            # one has finished, and a refusal does not hold up the game's next command.
            if found := await self.store.find_command(stream, command_id):
                COMMANDS.labels("retried").inc()
                return found
            COMMANDS.labels("refused").inc()
            if isinstance(refusal, TooBusy):
                raise RuleViolation("TOO_BUSY", "the game is changing too fast; try again") from None
            raise
        finally:
            SUBMIT_SECONDS.observe(time.perf_counter() - started)
        COMMANDS.labels("accepted").inc()
        return stored

    async def _attempt(self, slot: _Slot, game_id: str, stream: str, actor: str, command: dict,
                       command_id: str, expected_seq: int | None) -> list[Envelope]:
        """One try: decide on the cached state and append. Raises WrongExpectedSeq when the stream moved
        on under the decision (the caller's loop tries again on the caught-up state)."""
        was_cached = slot.record is not None
        record = await self._record(slot, game_id, catch_up=False)
        if expected_seq is not None and record.last_seq != expected_seq:
            # The cache is never ahead of the store, so a cached seq past the expected one is final;
            # one short of it may be this replica lagging: catch up and look again.
            if record.last_seq < expected_seq and was_cached and await self._caught_up(slot, game_id):
                raise _moved_on(record)
            raise _position_refused(game_id, record.last_seq, expected_seq)
        try:
            decision = decide_next(record, command, actor, slot.seed or await self._seed(slot, game_id))
        except RuleViolation:
            # A cached state may be behind another replica's appends: refuse only on a fresh one.
            if was_cached and await self._caught_up(slot, game_id):
                raise _moved_on(record) from None
            raise
        except BaseException:
            slot.record = None      # the cached state may be half-evolved
            raise
        try:
            stored = await self.store.append(stream, decision.events, expected_seq=record.last_seq,
                                             command_id=command_id)
        except WrongExpectedSeq:
            COMMANDS.labels("conflict").inc()
            slot.record = None      # evolved past the stream: rebuild it
            raise
        except BaseException:
            slot.record = None
            raise
        if stored[0].seq == record.last_seq + 1 and \
                [(e.type, e.data) for e in stored] == [(n.type, n.data) for n in decision.events]:
            record.advance(decision.state, stored)
        else:
            slot.record = None      # an earlier attempt of this command got in first: trust the store
        return stored

    async def _seed(self, slot: _Slot, game_id: str) -> bytes:
        if slot.seed is None:
            slot.seed = await self.vault.get(game_id)
            if slot.seed is None:
                raise RuntimeError(f"game {game_id} has no seed in the vault")
        return slot.seed

    # ---- queries ----------------------------------------------------------------------------------

    async def view(self, game_id: str, viewer: str | None) -> dict:
        slot = self._slot(game_id)
        async with slot.lock:
            record = await self._record(slot, game_id, catch_up=True)
            view = record.engine.view(record.state, viewer or None)
        return {"game_id": game_id, "game": record.game_name, "seq": record.last_seq,
                "players": record.players, "commitment": record.commitment, "ended": record.ended,
                "view": view}

    async def legal_actions(self, game_id: str, player: str) -> list[dict]:
        slot = self._slot(game_id)
        async with slot.lock:
            record = await self._record(slot, game_id, catch_up=True)
            if record.ended is not None:
                return []
            return record.engine.legal_actions(record.state, player)

    async def record(self, game_id: str) -> GameRecord:
        """The current record of a game (for tools and tests); do not mutate it."""
        slot = self._slot(game_id)
        async with slot.lock:
            return await self._record(slot, game_id, catch_up=True)

    # ---- the cache --------------------------------------------------------------------------------

    def _slot(self, game_id: str) -> _Slot:
        slot = self._slots.get(game_id)
        if slot is None:
            slot = self._slots[game_id] = _Slot()
            self._evict_idle()
        self._slots.move_to_end(game_id)
        CACHED_GAMES.set(len(self._slots))
        return slot

    def _evict_idle(self) -> None:
        for game_id in list(self._slots):
            if len(self._slots) <= self.cache_size:
                return
            if not self._slots[game_id].lock.locked():
                del self._slots[game_id]

    async def _record(self, slot: _Slot, game_id: str, *, catch_up: bool) -> GameRecord:
        if slot.record is None:
            envelopes = await self.store.read(game_stream(game_id))
            if not envelopes:
                raise RuleViolation("GAME_NOT_FOUND", f"no game {game_id}")
            slot.record = replay(game_id, envelopes, self.games)
            REBUILDS.inc()
        elif catch_up:
            await self._caught_up(slot, game_id)
        return slot.record

    async def _caught_up(self, slot: _Slot, game_id: str) -> bool:
        """Apply what other replicas appended; True when there was anything."""
        newer = await self.store.read(game_stream(game_id), from_seq=slot.record.last_seq + 1)
        if newer:
            try:
                slot.record.apply(newer)
            except BaseException:
                slot.record = None
                raise
        return bool(newer)


def _moved_on(record: GameRecord) -> WrongExpectedSeq:
    """The stream moved on under a decision (this replica has caught up since): decide again."""
    return WrongExpectedSeq(record.last_seq, stream=game_stream(record.game_id))


def _position_refused(game_id: str, last_seq: int, expected_seq: int) -> RuleViolation:
    if last_seq > expected_seq:
        return RuleViolation("STALE_POSITION", f"game {game_id} has moved on to seq {last_seq} since seq "
                             f"{expected_seq}; decide again on the current state")
    return RuleViolation("UNKNOWN_POSITION", f"game {game_id} is at seq {last_seq}; it has no seq {expected_seq} yet")

