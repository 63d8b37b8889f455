"""Scoring's consumer: follows every game stream and records each `GameEnded` in the ledger.

`handle` is the one place an envelope is scored. `run` drives it through the event-store port
(any adapter: the in-memory one in tests, JetStream); `durable.DurableScoring` drives it from a
durable JetStream consumer, which is what `python -m scoring` runs.

Through the port, `run` keeps its place ("processed up to position N") in Redis next to what it
computed, so a restart resumes where it stopped. Either way `record` is idempotent on (stream, seq),
so events seen again after a crash change nothing, and replaying from zero after `Ledger.reset` gives
the same ratings and boards (same events, same order).
"""
from __future__ import annotations

import asyncio

import structlog
from prometheus_client import Counter

from starbase_core import tracing
from starbase_core.envelope import Envelope
from starbase_core.gamestream import BOTS, GAME_CREATED, GUESTS, PRIVATE, ends_game, is_rated

from scoring.ledger import EndedGame, Ledger

log = structlog.get_logger(__name__)
GAMES_SCORED = Counter("scoring_games_total", "GameEnded events handled", ["result"])
# Positions are saved at every GameEnded and at least this often, so a restart rereads little.
SAVE_EVERY = 200


class ScoringConsumer:
    def __init__(self, store, ledger: Ledger):
        self.store, self.ledger = store, ledger
        self.position = 0
        self._unsaved = 0

    async def handle(self, envelope: Envelope, trace_meta: dict | None = None) -> bool:
        """Score one envelope if it ends a game; True when it changed the ledger. The end is the
        platform's GameEnded (`gamestream.ends_game`, the one test of it), never an engine's event of
        that name, so a game is scored once however its engine names its events.

        Scoring a game is a `scoring.record` span in the trace of the command that ended it: its ids are
        in the meta of that command's first event (`trace_meta`: the meta of the first envelope of the
        append the GameEnded came in; the GameEnded's own by default)."""
        if not ends_game(envelope):
            return False
        game_id = envelope.stream.split(".", 1)[1]
        with tracing.span_after(envelope.meta if trace_meta is None else trace_meta, "scoring.record",
                                **{"starbase.game": game_id, "starbase.seq": envelope.seq}):
            return await self._record(envelope)

    async def _record(self, envelope: Envelope) -> bool:
        game_id = envelope.stream.split(".", 1)[1]
        first = await self.store.read(envelope.stream, 1)
        created = first[0].data if first and first[0].type == GAME_CREATED else {}
        game, options = created.get("game", "unknown"), created.get("options") or {}
        recorded = await self.ledger.record(EndedGame(
            stream=envelope.stream, seq=envelope.seq, game_id=game_id, game=game,
            standings=list(envelope.data.get("standings", [])), time=envelope.time,
            private=options.get(PRIVATE) is True, guests=frozenset(options.get(GUESTS) or ()),
            bots=frozenset(options.get(BOTS) or ()), rated_game=is_rated(options),
            resigned=tuple(envelope.data.get("resigned") or ())))
        GAMES_SCORED.labels("recorded" if recorded else "duplicate").inc()
        log.info("game_scored", game_id=game_id, game=game, duplicate=not recorded)
        return recorded

    async def run(self) -> None:
        """Follow the store for ever (cancel to stop), resuming after the saved position.

        Each envelope is handled in a shielded step: a stop (cancel) never lands inside a Redis call,
        where a client library may swallow it, and the step in hand finishes before `run` returns.
        """
        self.position = await self.ledger.position()
        step: asyncio.Future | None = None
        while True:
            try:
                async for position, envelope in self.store.follow(self.position, "game.>"):
                    step = asyncio.ensure_future(self._step(position, envelope))
                    await asyncio.shield(step)
            except asyncio.CancelledError:
                if step is not None and not step.done():
                    await asyncio.wait({step})
                if self._unsaved:
                    await asyncio.wait({asyncio.ensure_future(self.ledger.save_position(self.position))})
                raise
            except Exception:
                log.exception("scoring_follow_failed", position=self.position)
                await asyncio.sleep(1.0)    # NATS or Redis hiccup: resume from the last handled position

    async def _step(self, position: int, envelope: Envelope) -> None:
        changed = await self.handle(envelope)
        self.position = position
        self._unsaved += 1
        if changed or self._unsaved >= SAVE_EVERY:
            await self.ledger.save_position(position)
            self._unsaved = 0
