"""The bot worker's I/O: a durable JetStream consumer of the game streams, and the moves it submits.

A durable pull consumer (`bots` by default) on the store's game subjects: the server keeps its place,
and replicas share it (each append is delivered to one of them). One message is one append (a JSON list
of envelopes of one game). For each, the worker brings its fold of that game up to date (reading the
stream from the store when it never saw the game, missed appends another replica handled, or meets an
undo), then plays what the game owes it (`Tracker.moves`) through the adjudicator: the bot's or the
forced move, `played_by` set, `expected_seq` the seq it was chosen at, and a command id derived from
the stream, so two replicas, a redelivery or a restart apply a move once. It folds each reply at once
and goes on while the game owes it more (a table of bots plays on without waiting for deliveries).

A message is acknowledged once handled. If the adjudicator or the store fails, it is handed back (`nak`)
and `run` raises: the supervisor restarts it with back-off, and the message comes again. A refusal is
not a failure: STALE_POSITION (the game moved on) means read on and decide again; a bot's move refused
otherwise is left out and the bot chooses again (a few times: `tracker.MAX_REFUSED`); any other is
logged and the game waits for its next append (or for the clock).
"""
from __future__ import annotations

import asyncio
import json
from typing import Any, Awaitable, Callable

import structlog
from nats.errors import TimeoutError as NatsTimeout
from nats.js import api
from nats.js.errors import NotFoundError
from prometheus_client import Counter

from bots.tracker import Move, Tracker
from starbase_core import consumer_lag
from starbase_core.batches import finish_shielded, keep_alive, quietly, raise_if_cancelled
from starbase_core.envelope import Envelope
from starbase_core.gamestream import game_stream
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_rules.contract import RuleViolation

log = structlog.get_logger(__name__)
MOVES = Counter("bots_moves_total", "Moves the bot worker submitted, by kind and result", ["kind", "result"])
BATCH = 20
ACK_WAIT = 30.0
HEARTBEAT = ACK_WAIT / 3
FETCH_TIMEOUT = 2.0
MAX_MOVES_PER_APPEND = 500       # a longer chain of bot moves goes on at the next delivery
MOVED_ON = frozenset({"STALE_POSITION", "UNKNOWN_POSITION"})

Submit = Callable[..., Awaitable[list[Envelope]]]


class BotWorker:
    def __init__(self, store: JetStreamEventStore, submit: Submit, tracker: Tracker | None = None,
                 durable: str = "bots"):
        self.store, self.submit, self.durable = store, submit, durable
        self.tracker = tracker or Tracker()
        self._js = store._nc.jetstream()
        self.handled = 0
        self.failures = 0        # batches handed back because the adjudicator or the store failed

    async def run(self) -> None:
        """Pull, handle, acknowledge, until cancelled (the batch in hand is finished first)."""
        subscription = await self._subscribe()
        try:
            while True:
                raise_if_cancelled()
                try:
                    messages = await subscription.fetch(BATCH, timeout=FETCH_TIMEOUT)
                except (NatsTimeout, asyncio.TimeoutError):
                    consumer_lag.idle("bots")
                    continue
                consumer_lag.fetched("bots", messages)        # how far behind the store it is
                await finish_shielded(self._handle_batch(messages))
        finally:
            try:
                await subscription.unsubscribe()
            except Exception:   # the connection is gone already
                pass

    async def _subscribe(self) -> Any:
        try:
            await self._js.consumer_info(self.store.name, self.durable)
        except NotFoundError:
            config = api.ConsumerConfig(
                durable_name=self.durable, filter_subject=f"{self.store.prefix}.game.>",
                ack_policy=api.AckPolicy.EXPLICIT, max_ack_pending=BATCH * 4, ack_wait=ACK_WAIT,
                deliver_policy=api.DeliverPolicy.ALL)
            try:
                await self._js.add_consumer(self.store.name, config)
            except Exception:     # another replica made it first
                await self._js.consumer_info(self.store.name, self.durable)
        return await self._js.pull_subscribe_bind(durable=self.durable, stream=self.store.name)

    async def _handle_batch(self, messages) -> None:
        heartbeat = keep_alive(messages, HEARTBEAT)
        try:
            for message in messages:
                envelopes = [Envelope.model_validate(item) for item in json.loads(message.data)]
                if envelopes:
                    await self.handle(envelopes)
                await message.ack()
                self.handled += 1
        except BaseException as problem:
            if not isinstance(problem, asyncio.CancelledError):
                self.failures += 1
            await quietly(*(m.nak() for m in messages))
            raise
        finally:
            heartbeat.cancel()

    # ---- one append -------------------------------------------------------------------------------

    async def handle(self, envelopes: list[Envelope]) -> int:
        """Bring the game up to date with an append and play what it owes; the moves applied."""
        game_id = envelopes[0].stream.split(".", 1)[1]
        if not envelopes[0].stream.startswith("game.") or not self.tracker.wants(game_id, envelopes):
            return 0
        await self._fold(game_id, envelopes)
        applied = 0
        for _ in range(MAX_MOVES_PER_APPEND):
            reply = None
            for move in self.tracker.moves(game_id):
                reply = await self._play(move)
                if reply is not None:
                    break       # the game moved (or was read anew): decide again on its new state
            if reply is None:
                return applied
            if reply:
                applied += 1
                await self._fold(game_id, reply)
        return applied

    async def _fold(self, game_id: str, envelopes: list[Envelope]) -> None:
        if not self.tracker.fold(game_id, envelopes):
            self.tracker.start(game_id, await self.store.read(game_stream(game_id)))

    async def _play(self, move: Move) -> list[Envelope] | None:
        kind = "forced" if move.played_by == "platform" else "bot"
        try:
            reply = await self.submit(move.game_id, move.player, move.command, move.command_id,
                                      expected_seq=move.at_seq, played_by=move.played_by)
        except RuleViolation as refusal:
            if refusal.code in MOVED_ON:       # read on: the next round decides on the newer state
                MOVES.labels(kind, "stale").inc()
                self.tracker.start(move.game_id, await self.store.read(game_stream(move.game_id)))
                return []
            MOVES.labels(kind, "refused").inc()
            log.warning("bot_move_refused", game_id=move.game_id, player=move.player, kind=kind,
                        command=move.command, code=refusal.code, reason=refusal.message)
            if kind == "bot" and self.tracker.refuse(move):
                return []           # decide again without that move
            return None
        MOVES.labels(kind, "applied").inc()
        log.info("bot_move_applied", game_id=move.game_id, player=move.player, kind=kind,
                 command=move.command, command_id=move.command_id)
        return reply
