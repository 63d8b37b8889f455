"""Wiring: build the lobby's adapters and services once, start their background work, stop it in order.

Tests pass their own store and adjudicator client (real ones on real servers, or the in-memory store);
`python -m lobby` lets `start` connect to NATS, Redis and the adjudicator from the settings.
"""
from __future__ import annotations

import asyncio

import structlog
from redis.asyncio import Redis

from adjudicator.client import AdjudicatorClient
from starbase_core.connections import nats_auth, redis_options
from starbase_core.envelope import Envelope
from starbase_core.gamestream import ends_game
from starbase_core.store_jetstream import JetStreamEventStore

from lobby.config import LobbySettings
from lobby.feed import Feed
from lobby.games import GameService
from lobby.projection import TableProjection
from lobby.service import PlayerService, TableService
from lobby.tokens import TokenSigner
from scoring.client import ScoringReader

log = structlog.get_logger(__name__)


class LobbyRuntime:
    def __init__(self, settings: LobbySettings, *, store=None, adjudicator=None, redis: Redis | None = None):
        self.settings = settings
        self.store, self.adjudicator, self.redis = store, adjudicator, redis
        self._owned: list = []                  # what we opened ourselves, closed on stop
        self._tasks: list[asyncio.Task] = []
        self.signer = TokenSigner(settings.lobby_secret, settings.lobby_token_max_age)
        self._rebuilt: dict[str, asyncio.Event] = {}
        self._rebuild_end = 0
        self._last_applied = 0.0

    async def start(self) -> "LobbyRuntime":
        settings = self.settings
        if self.store is None:
            self.store = await JetStreamEventStore.connect(
                settings.nats_url, name=settings.event_stream, subject_prefix=settings.event_subject_prefix,
                replicas=settings.store_replicas, auth=nats_auth(settings, "lobby"))
            self._owned.append(self.store)
        if self.redis is None:
            self.redis = Redis.from_url(settings.redis_url, decode_responses=True, **redis_options(settings))
            self._owned.append(self.redis)
        if self.adjudicator is None:
            # A bounded retry budget: an HTTP caller hears 503 within ~25 s rather than waiting minutes.
            self.adjudicator = AdjudicatorClient.from_settings(settings, timeout=5.0, retries=4)
            self._owned.append(self.adjudicator)
        self.projection = TableProjection(self.store)
        self.players = PlayerService(self.store, self.projection, self.signer)
        self.tables = TableService(self.store, self.projection, self.adjudicator)
        self.feed = Feed(self.store, on_envelope=self._on_live)
        self.games = GameService(self.store, self.tables, self.adjudicator, self.feed)
        self.ledger = ScoringReader(self.redis, settings.scoring_prefix)
        await self.feed.start()
        self._rebuild_end = await self.store.end_position()
        self._rebuilt = {subject_filter: asyncio.Event() for subject_filter in ("table.>", "player.>")}
        self._last_applied = asyncio.get_running_loop().time()
        if self._rebuild_end == 0:                  # an empty store: nothing to rebuild
            for rebuilt in self._rebuilt.values():
                rebuilt.set()
        for subject_filter in self._rebuilt:
            self._tasks.append(asyncio.create_task(self._project(subject_filter)))
            self._tasks.append(asyncio.create_task(self._mark_rebuilt_when_quiet(subject_filter)))
        self._tasks.append(asyncio.create_task(self._reconcile()))
        log.info("lobby_started", store=type(self.store).__name__)
        return self

    async def _project(self, subject_filter: str) -> None:
        """Rebuild the projection from the whole store, then keep it current."""
        position = 0
        while True:
            try:
                async for position, envelope in self.store.follow(position, subject_filter):
                    await self.projection.apply(envelope)
                    self._last_applied = asyncio.get_running_loop().time()
                    if position >= self._rebuild_end:
                        self._rebuilt[subject_filter].set()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("projection_follow_failed", filter=subject_filter, position=position)
                await asyncio.sleep(1.0)

    async def _mark_rebuilt_when_quiet(self, subject_filter: str, quiet: float = 1.0) -> None:
        """The follower yields only matching envelopes, so when the last stored one is of another kind
        it never reports a position past the start's end. A backlog is delivered back to back, so a
        second with nothing new also means the rebuild is done."""
        while not self._rebuilt[subject_filter].is_set():
            await asyncio.sleep(quiet / 4)
            if asyncio.get_running_loop().time() - self._last_applied >= quiet:
                self._rebuilt[subject_filter].set()

    async def _on_live(self, envelope: Envelope) -> None:
        if envelope.stream.startswith("game.") and ends_game(envelope):
            await self.tables.finish(envelope.stream.split(".", 1)[1], list(envelope.data.get("standings", [])))

    async def _reconcile(self) -> None:
        """Mark finished the tables whose game ended while no lobby was following (the live feed only
        sees ends from now on). Runs once, when the table list is rebuilt."""
        for rebuilt in self._rebuilt.values():
            await rebuilt.wait()
        for table in self.projection.playing():
            try:
                stream = f"game.{table.game_id}"
                tail = await self.store.read(stream, await self.store.last_seq(stream))
                if tail and ends_game(tail[-1]):
                    await self.tables.finish(table.game_id, list(tail[-1].data.get("standings", [])))
            except Exception:
                log.exception("reconcile_failed", table_id=table.table_id)

    async def ready(self) -> bool:
        """Ready once the store and Redis answer and the table list is rebuilt (so a new replica does
        not serve a half-empty list while it catches up)."""
        await self.redis.ping()
        await self.store.last_seq("table.readyz")
        return self.feed.started.is_set() and all(event.is_set() for event in self._rebuilt.values())

    async def stop(self) -> None:
        await self.feed.stop()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for resource in reversed(self._owned):
            try:
                await (resource.aclose() if hasattr(resource, "aclose") else resource.close())
            except Exception:
                log.exception("close_failed", resource=type(resource).__name__)
        log.info("lobby_stopped")
