"""The adjudicator's core: a command in, the engine's decision out, appended with optimistic concurrency.

Plain asyncio code over two ports (an `EventStore` and a `SeedVault`); the gRPC servicer only adapts it.

Safe as several replicas: the store decides the order of a game's commands (append with the expected
seq), never this process's memory. The per-game cache is an optimisation: a command is decided on the
cached state; if another replica appended first (WrongExpectedSeq), or the cached state refused a command
that a newer state might accept, the replica catches up from the store and decides again. `evolve` may
mutate the cached state, so any failure after it evicts the game and the next use rebuilds it.

Retries are idempotent: a command id already in the stream returns the envelopes it first produced, so a
lobby that lost the reply (the adjudicator died between the append and the reply) retries safely.
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
from starbase_core.gamestream import (
    GameRecord, ends_game, engine_options, game_created, game_ended, game_stream, platform_option_problems,
    replay, wrap,
)
from starbase_core.seeds import SeedVault
from starbase_core.store import EventStore, WrongExpectedSeq
from starbase_rules.contract import Game, RuleViolation
from starbase_rules.fair import FairRng, commitment
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
        _check_players(engine, players)
        if problems := platform_option_problems(options):
            raise RuleViolation("BAD_OPTION", "; ".join(problems))
        seed = await self.vault.get_or_create(game_id)
        rng = FairRng(seed)
        # The engine sees its own options only; GameCreated keeps them all (the clock reads its own there).
        setup = engine.setup(list(players), engine_options(options), rng)
        new = [game_created(engine.name, players, options, commitment(seed), rng.used)]
        new += wrap(setup, actor=None, draw_end=rng.used)
        try:
            stored = await self.store.append(stream, new, expected_seq=0, command_id=command_id)
        except WrongExpectedSeq:
            raise RuleViolation("GAME_EXISTS", f"game {game_id} already exists") from None
        log.info("game_created", game_id=game_id, game=engine.name, players=players)
        return stored

    async def submit(self, game_id: str, actor: str, command: dict, command_id: str, *,
                     expected_seq: int | None = None) -> list[Envelope]:
        """Decide and append one command. `expected_seq` (optional): refuse with STALE_POSITION unless
        the game's last envelope is that seq, i.e. unless the sender decided on the current state."""
        started = time.perf_counter()
        stream = game_stream(game_id)
        if found := await self.store.find_command(stream, command_id):
            COMMANDS.labels("retried").inc()
            return found
        slot = self._slot(game_id)
        async with slot.lock:
            try:
                stored = await self._submit_locked(slot, game_id, stream, actor, command, command_id,
                                                   expected_seq)
            except RuleViolation:
                COMMANDS.labels("refused").inc()
                raise
            finally:
                SUBMIT_SECONDS.observe(time.perf_counter() - started)
        COMMANDS.labels("accepted").inc()
        return stored

    async def _submit_locked(self, slot: _Slot, game_id: str, stream: str, actor: str, command: dict,
                             command_id: str, expected_seq: int | None) -> list[Envelope]:
        for _ in range(MAX_ATTEMPTS):
            was_cached = slot.record is not None
            record = await self._record(slot, game_id, catch_up=False)
            if expected_seq is not None and record.last_seq != expected_seq:
                # The cache is never ahead of the store, so a cached seq past the expected one is final;
                # one short of it may be this replica lagging: catch up and look again.
                if record.last_seq < expected_seq and was_cached and await self._caught_up(slot, game_id):
                    continue
                raise _position_refused(game_id, record.last_seq, expected_seq)
            try:
                events, command_json, draw_end = await self._decide(slot, record, actor, command)
            except RuleViolation:
                # A cached state may be behind another replica's appends: refuse only on a fresh one.
                if was_cached and await self._caught_up(slot, game_id):
                    continue
                raise
            try:
                new = self._advance(record, events, actor, command_json, draw_end, slot.seed)
            except BaseException:
                slot.record = None  # the cached state may be half-evolved
                raise
            try:
                stored = await self.store.append(stream, new, expected_seq=record.last_seq,
                                                 command_id=command_id)
            except WrongExpectedSeq:
                COMMANDS.labels("conflict").inc()
                slot.record = None
                continue
            except BaseException:
                slot.record = None
                raise
            if [(e.type, e.data) for e in stored] != [(n.type, n.data) for n in new]:
                slot.record = None   # an earlier attempt of this command got in first: trust the store
            else:
                record.last_seq, record.last_hash = stored[-1].seq, stored[-1].hash
                record.draw_end = stored[-1].meta.get("draw_end", record.draw_end)
                if ends_game(stored[-1]):
                    record.ended = stored[-1].data
            return stored
        raise RuleViolation("TOO_BUSY", "the game is changing too fast; try again")

    async def _decide(self, slot: _Slot, record: GameRecord, actor: str, command: dict):
        """The engine's decision: (events, the validated command as JSON, the draw counter after it).
        Raises RuleViolation; changes nothing."""
        if record.ended is not None:
            raise RuleViolation("GAME_OVER", f"game {record.game_id} is over")
        if actor not in record.players:
            raise RuleViolation("NOT_A_PLAYER", f"{actor!r} is not a player of game {record.game_id}")
        # A real-time phase (Trucker's building) is written by its own service: one writer per stream.
        realtime = getattr(record.engine, "realtime_service", None)
        if realtime is not None and (service := realtime(record.state)) is not None:
            raise RuleViolation("REALTIME_PHASE", f"game {record.game_id} is in a real-time phase played on "
                                f"the {service} service; the adjudicator takes its commands again after it")
        parsed = record.engine.parse_command(command)
        if slot.seed is None:
            slot.seed = await self.vault.get(record.game_id)
            if slot.seed is None:
                raise RuntimeError(f"game {record.game_id} has no seed in the vault")
        rng = FairRng(slot.seed, start=record.draw_end)
        events = record.engine.decide(record.state, parsed, actor, rng)
        return events, parsed.model_dump(mode="json"), rng.used

    @staticmethod
    def _advance(record: GameRecord, events, actor: str, command_json: dict, draw_end: int,
                 seed: bytes) -> list:
        """Evolve the cached state by the decided events (in place) and wrap them for the store,
        with GameEnded when the engine says the game is over."""
        new = wrap(events, actor=actor, draw_end=draw_end, command=command_json)
        for event in events:
            record.state = record.engine.evolve(record.state, event)
        if (outcome := record.engine.outcome(record.state)) is not None:
            new.append(game_ended(outcome, seed, draw_end))
        return new

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


def _position_refused(game_id: str, last_seq: int, expected_seq: int) -> RuleViolation:
    if last_seq > expected_seq:
        return RuleViolation("STALE_POSITION", f"game {game_id} has moved on to seq {last_seq} since seq "
                             f"{expected_seq}; decide again on the current state")
    return RuleViolation("UNKNOWN_POSITION", f"game {game_id} is at seq {last_seq}; it has no seq {expected_seq} yet")


def _check_players(engine: Game, players: list[str]) -> None:
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise RuleViolation("BAD_PLAYERS", "players must be distinct, non-empty names")
    if not engine.min_players <= len(players) <= engine.max_players:
        raise RuleViolation("BAD_PLAYER_COUNT", f"{engine.name} takes {engine.min_players} to "
                            f"{engine.max_players} players, not {len(players)}")
