"""Wiring of the player's loop into a lobby replica: built and started by `LobbyRuntime`, fed by its
live feed (`on_envelope`: every game and table envelope this replica follows), stopped with it."""
from __future__ import annotations

import structlog

from starbase_core.envelope import Envelope

from lobby.domain import Table
from lobby.loop.clocks import ClockPushes, wire_time
from lobby.loop.presence import Presence
from lobby.loop.pushes import TurnPushes
from lobby.loop.quickplay import QuickPlay
from lobby.loop.review import Review
from lobby.loop.tracker import TurnTracker
from lobby.loop.turns import Owed, TurnIndex, due_at

log = structlog.get_logger(__name__)


class Loop:
    def __init__(self, runtime):
        self.runtime = runtime

    async def start(self) -> "Loop":
        runtime, settings = self.runtime, self.runtime.settings
        prefix = settings.lobby_loop_prefix
        self.turns = TurnIndex()
        self.tracker = TurnTracker(self.turns, runtime.redis, prefix, runtime.adjudicator, runtime.store)
        runtime.games.tracker = self.tracker        # told who owes by each command's reply (no ToAct)
        self.default_seconds = settings.clock_default_seconds     # the clock service's, for untimed tables
        runtime.games.clocks.use_default(self.default_seconds)
        self.pushes = TurnPushes(self.turns, self.options_of, self.deadline)
        self.clocks = ClockPushes(runtime.games.clocks, self.options_of)
        self.presence = await Presence(runtime.redis, runtime.nc, prefix, f"{settings.lobby_personal_prefix}-live",
                                       runtime.projection.get).start()
        self.quickplay = QuickPlay(runtime.redis, prefix, runtime.tables, runtime.ledger, runtime.limits,
                                   self.presence.online, band=settings.lobby_quickplay_band,
                                   widen=settings.lobby_quickplay_widen, idle=settings.lobby_quickplay_idle,
                                   grace=settings.lobby_quickplay_grace)
        self.review = Review(runtime.games, runtime.store, runtime.adjudicator, runtime.limits)
        runtime.supervisor.start("warm turns", self._warm, once=True)
        runtime.supervisor.start("quick play sweep", self.quickplay.sweep_forever)
        return self

    async def stop(self) -> None:
        await self.tracker.stop()
        await self.clocks.stop()
        await self.presence.stop()

    async def on_envelope(self, envelope: Envelope) -> None:
        kind, _, key = envelope.stream.partition(".")
        if kind == "game":
            self.tracker.seen(key, envelope.seq)
            self.runtime.games.clocks.seen(envelope)
            self.clocks.changed(key)
        elif kind == "table" and envelope.type == "PlayerLeft":
            table = self.runtime.projection.get(key) or await self.runtime.tables.load(key)
            await self.quickplay.player_left(table, envelope.data["player"])

    async def _warm(self) -> None:
        await self.runtime.rebuilt()
        await self.tracker.warm([t.game_id for t in self.runtime.projection.playing() if t.game_id])

    # --- what routes ask ---

    def options_of(self, game_id: str) -> dict:
        table = self.runtime.projection.get(game_id)
        return table.options if table is not None else {}

    def waiting(self, table_id: str) -> bool:
        """Whether the table is a quick-play table still filling (its sockets keep players queued)."""
        table = self.runtime.projection.get(table_id)
        return table is not None and table.quickplay and table.status == "open"

    def seat_turn(self, table: Table, player: str | None) -> tuple[bool, str | None]:
        """(whether `player` owes a decision at this table, until when)."""
        if table.status != "playing" or not table.game_id or player is None:
            return False, None
        owed = self.turns.owed(table.game_id, player)
        return owed is not None, self.deadline(table.game_id, player, owed, table.options)

    def deadline(self, game_id: str, player: str, owed: Owed | None, options: dict,
                 clock: dict | None = None) -> str | None:
        """When `player`'s decision is due: as the game's clock fold has it when this replica holds it up
        to date (banks, pauses), else from the turn index and the table's per-decision limit."""
        clock = clock or self.runtime.games.clocks.cached(game_id)
        if clock is not None and player in clock["seats"]:
            return wire_time(clock["seats"][player]["due_at"])
        return due_at(owed, options, self.default_seconds)

    def with_deadlines(self, game_id: str, view: dict) -> dict:
        """A view with `due_at` for each player it says owes a decision (null: no clock, or not known yet)."""
        options = self.options_of(game_id)
        return {**view, "due_at": {player: self.deadline(game_id, player, self.turns.owed(game_id, player), options,
                                                         view.get("clock"))
                                   for player in view.get("to_act", [])}}
