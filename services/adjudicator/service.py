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
refusal is answered for a command id that is in the stream (see `submit`). The store knows the command
ids of what it has read (`starbase_core.store_jetstream`), so on a cached game the check costs no round
trip: a command is one append, and the store's own check stops a retry this replica had not seen.

The cache, its rebuilds from snapshots and the snapshots it writes: `adjudicator.cache`.
"""
from __future__ import annotations

import time
from typing import Callable

import structlog
from prometheus_client import Counter, Histogram

from adjudicator.cache import GameCache, Slot
from adjudicator.review import Reviews, owing
from starbase_core import tracing
from starbase_core.envelope import Envelope
from starbase_core.gamestream import GameRecord, game_stream, is_rated
from starbase_core.seats import BOT_PREFIX, is_bot
from starbase_core.seeds import SeedVault
from starbase_core.snapshots import Snapshots
from starbase_core.store import EventStore, WrongExpectedSeq
from starbase_core.transaction import TooBusy, check_new_game, decide_next, open_game, run_optimistically
from starbase_rules.contract import Game, RuleViolation
from starbase_rules.registry import get_game

log = structlog.get_logger(__name__)

COMMANDS = Counter("adjudicator_commands_total", "Commands handled, by result", ["result"])
SUBMIT_SECONDS = Histogram("adjudicator_submit_seconds", "Time to handle one command")
# One child per result, looked up once rather than by `labels()` (a locked dict lookup) on every command.
ACCEPTED, RETRIED, REFUSED, CONFLICT = (COMMANDS.labels(r) for r in ("accepted", "retried", "refused", "conflict"))

MAX_ATTEMPTS = 20


class Adjudicator:
    def __init__(self, store: EventStore, vault: SeedVault, *,
                 games: Callable[[str], Game] = get_game, cache_size: int = 1000,
                 snapshots: Snapshots | None = None, snapshot_every: int = 256):
        self.store, self.vault, self.games = store, vault, games
        self.cache = GameCache(store, games, size=cache_size, snapshots=snapshots,
                               snapshot_every=snapshot_every)
        self.reviews = Reviews(store, games, snapshots)

    async def close(self) -> None:
        """Let snapshots being written finish (bounded); call before closing the store."""
        await self.cache.settle()

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
            with tracing.span("store.append"):
                stored = await self.store.append(stream, tracing.stamp(new), expected_seq=0, command_id=command_id)
        except WrongExpectedSeq:
            raise RuleViolation("GAME_EXISTS", f"game {game_id} already exists") from None
        log.info("game_created", game_id=game_id, game=engine.name, players=players)
        return stored

    async def submit(self, game_id: str, actor: str, command: dict, command_id: str, *,
                     expected_seq: int | None = None, played_by: str | None = None) -> list[Envelope]:
        """Decide and append one command: `submit_with_turn` without the turn."""
        stored, _ = await self.submit_with_turn(game_id, actor, command, command_id,
                                                expected_seq=expected_seq, played_by=played_by)
        return stored

    async def submit_with_turn(self, game_id: str, actor: str, command: dict, command_id: str, *,
                               expected_seq: int | None = None,
                               played_by: str | None = None) -> tuple[list[Envelope], dict | None]:
        """Decide and append one command; (its envelopes, the turn right after them) where the turn is
        what `to_act` would answer at the last envelope's seq, read under the game's lock before any
        other command moves it on. The turn is None for a retry (its envelopes are older than the game)
        and after an undo (the game is folded again on its next use): the caller asks `to_act` then.

        `expected_seq` (optional): refuse with STALE_POSITION unless the game's last envelope is that
        seq, i.e. unless the sender decided on the current state.
        `played_by` (optional): who plays the seat `actor` when not its own player (a bot, a
        substitute, the clock, the platform: `starbase_core.seats`); it must control the seat now.

        A refusal means "not applied, ever": another attempt of the same command id (a resend while
        this one was in flight, here or on another replica) may have landed meanwhile, so before any
        refusal the store is asked, after the game's lock, whether the id is there; if it is, its
        envelopes are the answer (a retry's answer, not a refusal)."""
        started = time.perf_counter()
        stream = game_stream(game_id)
        slot = self.cache.slot(game_id)
        turn = None
        try:
            async with slot.lock:
                stored, retried = await run_optimistically(
                    lambda: self._attempt(slot, game_id, stream, actor, command, command_id, expected_seq,
                                          played_by),
                    attempts=MAX_ATTEMPTS)
                record = slot.record
                if not retried and record is not None and record.last_seq == stored[-1].seq:
                    turn = {"seq": record.last_seq, "to_act": owing(record), "ended": record.ended is not None}
        except (RuleViolation, TooBusy) as refusal:
            # Asked after the lock is released: every attempt of this id that took the lock before this
            # one has finished, and a refusal does not hold up the game's next command.
            if found := await self.store.find_command(stream, command_id):
                RETRIED.inc()
                return found, None
            REFUSED.inc()
            if isinstance(refusal, TooBusy):
                raise RuleViolation("TOO_BUSY", "the game is changing too fast; try again") from None
            raise
        finally:
            SUBMIT_SECONDS.observe(time.perf_counter() - started)
        (RETRIED if retried else ACCEPTED).inc()
        if not retried:
            self.cache.stored(slot, game_id)
        return stored, turn

    async def _attempt(self, slot: Slot, game_id: str, stream: str, actor: str, command: dict,
                       command_id: str, expected_seq: int | None,
                       played_by: str | None) -> tuple[list[Envelope], bool]:
        """One try: decide on the cached state and append; (the envelopes, whether they were stored
        before). Raises WrongExpectedSeq when the stream moved on under the decision (the caller's loop
        tries again on the caught-up state)."""
        was_cached = slot.record is not None
        record = await self.cache.record(slot, game_id, catch_up=False)
        # A retry this replica has seen stored (no round trip; one it has not seen, the append stops).
        if found := await self.store.find_command(stream, command_id, catch_up=False):
            return found, True
        if expected_seq is not None and record.last_seq != expected_seq:
            # The cache is never ahead of the store, so a cached seq past the expected one is final;
            # one short of it may be this replica lagging: catch up and look again.
            if record.last_seq < expected_seq and was_cached and await self.cache.caught_up(slot, game_id):
                raise _moved_on(record)
            raise _position_refused(game_id, record.last_seq, expected_seq)
        try:
            decision = decide_next(record, command, actor, slot.seed or await self._seed(slot, game_id),
                                   played_by=played_by)
        except RuleViolation:
            # A cached state may be behind another replica's appends: refuse only on a fresh one.
            if was_cached and await self.cache.caught_up(slot, game_id):
                raise _moved_on(record) from None
            raise
        except BaseException:
            slot.record = None      # the cached state may be half-evolved
            raise
        try:
            events = tracing.stamp(decision.events)     # the trace's ids, before the append's own span
            with tracing.span("store.append"):
                stored = await self.store.append(stream, events, expected_seq=record.last_seq, command_id=command_id)
        except WrongExpectedSeq:
            CONFLICT.inc()
            slot.record = None      # evolved past the stream: rebuild it
            raise
        except BaseException:
            slot.record = None
            raise
        if stored[0].seq == record.last_seq + 1 and \
                [(e.type, e.data) for e in stored] == [(n.type, n.data) for n in decision.events]:
            if decision.refold:
                slot.record = None  # commands were undone: the next use folds the stream without them
            else:
                record.advance(decision.state, stored)
            return stored, False
        slot.record = None          # an earlier attempt of this command got in first: trust the store
        return stored, True

    async def _seed(self, slot: Slot, game_id: str) -> bytes:
        if slot.seed is None:
            slot.seed = await self.vault.get(game_id)
            if slot.seed is None:
                raise RuntimeError(f"game {game_id} has no seed in the vault")
        return slot.seed

    # ---- queries ----------------------------------------------------------------------------------

    async def view(self, game_id: str, viewer: str | None) -> dict:
        slot = self.cache.slot(game_id)
        async with slot.lock:
            record = await self.cache.record(slot, game_id, catch_up=True)
            view = record.engine.view(record.state, viewer or None)
            to_act = owing(record)
            seats = seat_summary(record)
            pending = record.undo.pending
        return {"game_id": game_id, "game": record.game_name, "seq": record.last_seq,
                "players": record.players, "commitment": record.commitment, "ended": record.ended,
                "to_act": to_act, "seats": seats, "rated": is_rated(record.options),
                "undo_request": dict(pending) if pending is not None else None, "view": view}

    async def view_at(self, game_id: str, seq: int, viewer: str | None) -> dict:
        """Read-only: the game folded to `seq`, seen by `viewer` (every seat's view once the game is
        over). Never takes the game's command lock: see `adjudicator.review`."""
        return await self.reviews.view_at(game_id, seq, viewer)

    async def to_act(self, game_id: str) -> dict:
        """Who owes a decision now, at which seq (what the lobby's "my games" and pushes follow)."""
        slot = self.cache.slot(game_id)
        async with slot.lock:
            record = await self.cache.record(slot, game_id, catch_up=True)
            return {"game_id": game_id, "seq": record.last_seq, "to_act": owing(record),
                    "ended": record.ended is not None}

    async def legal_actions(self, game_id: str, player: str) -> list[dict]:
        slot = self.cache.slot(game_id)
        async with slot.lock:
            record = await self.cache.record(slot, game_id, catch_up=True)
            if record.ended is not None:
                return []
            return record.engine.legal_actions(record.state, player)

    async def record(self, game_id: str) -> GameRecord:
        """The current record of a game (for tools and tests); do not mutate it."""
        slot = self.cache.slot(game_id)
        async with slot.lock:
            return await self.cache.record(slot, game_id, catch_up=True)


def seat_summary(record: GameRecord) -> list[dict]:
    """Who plays each seat, for views: a person (the player or a substitute) or a bot of some level."""
    summary = []
    for player in record.players:
        controller = record.seats.controllers.get(player, player)
        summary.append({"player": player, "controller": controller,
                        "bot": controller.removeprefix(BOT_PREFIX) if is_bot(controller) else None,
                        "resigned": player in record.seats.resigned})
    return summary


def _moved_on(record: GameRecord) -> WrongExpectedSeq:
    """The stream moved on under a decision (this replica has caught up since): decide again."""
    return WrongExpectedSeq(record.last_seq, stream=game_stream(record.game_id))


def _position_refused(game_id: str, last_seq: int, expected_seq: int) -> RuleViolation:
    if last_seq > expected_seq:
        return RuleViolation("STALE_POSITION", f"game {game_id} has moved on to seq {last_seq} since seq "
                             f"{expected_seq}; decide again on the current state")
    return RuleViolation("UNKNOWN_POSITION", f"game {game_id} is at seq {last_seq}; it has no seq {expected_seq} yet")

