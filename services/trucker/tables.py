"""The service layer: one call per player move, from the socket to an acknowledgement.

    move → the rules engine decides it on the player's view of the warehouse (`projection`: the view
           this replica remembers, `seats`, or a fresh read for moves that depend on the others)
         → `commit.lua` applies the engine's events only if what the decision relied on still holds
           (seat version, the face-up tile still there, the order tile still free, …: its guards),
           numbered into the outbox, atomically; else the view is read again and the engine decides again
         → the relay makes the events durable in the game's stream → acknowledged

Every refusal is the engine's, given on a fresh read (plus the service's own: TIME_UP when the sand has
run out on START, NOT_A_REALTIME_MOVE, TABLE_UNAVAILABLE). If Redis no longer holds the warehouse, it
is rebuilt from the stream. The moves that end building need the whole game and chance: `ending.py`;
a player giving their seat up is decided on the whole game too: `resignation.py`.
"""
from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass, replace

import structlog

from starbase_core.gamestream import game_stream
from starbase_core.platform_commands import Resign
from starbase_core.seats import is_bot
from starbase_core.seeds import SeedVault
from starbase_core.store import EventStore
from starbase_rules.contract import Command, RuleViolation
from starbase_rules.fair import FairRng
from trucker_rules import messages as m
from trucker_rules.build_evolve import evolve_building
from trucker_rules.build_phase import decide_building, face_down_sequence
from trucker_rules.legal import NoChance

from trucker import ending, projection, resignation
from trucker.bot_seats import bot_seats, list_game
from trucker.metrics import REBUILDS
from trucker.projection import View, event_json
from trucker.relay import Diverged, Relay
from trucker.seats import KnownSeats
from trucker.state_doc import WAREHOUSE_FORMAT, Folded, future_grabs, warehouse_doc
from trucker.warehouse import Applied, RedisWarehouse, Refused, Stale, WarehouseMissing

log = structlog.get_logger(__name__)

# The building moves a player sends to the service (the engine's command shapes). CallTimeUp is the
# service's own (its clock); repairs and the flight go to the adjudicator.
REALTIME_COMMANDS = (m.StartBuilding, m.GrabFaceDown, m.GrabFaceUp, m.TakeReserved, m.PlaceComponent,
                     m.MoveNewest, m.ReturnComponent, m.ReserveComponent, m.LookAtPile, m.PutBackPile,
                     m.TurnTimer, m.Finish)
# Moves that depend on what the other players hold or on the clock: always decided on a fresh read.
FRESH_ONLY = (m.StartBuilding, m.LookAtPile, m.TurnTimer, m.Finish)
ATTEMPTS = 8


@dataclass
class Decision:
    command: Command            # as decided (a TurnTimer carries the service's clock)
    events: list
    extras: dict | None = None  # a pile's first look: what else changes (see `_first_look`)

    @property
    def ends_building(self) -> bool:   # only the last ship's Finish ends building among the player's moves
        return isinstance(self.command, m.Finish) and any(isinstance(e, m.BuildingEnded) for e in self.events)


class TableService:
    def __init__(self, warehouse: RedisWarehouse, store: EventStore, relay: Relay,
                 vault: SeedVault | None = None):
        self.warehouse = warehouse
        self.store = store
        self.relay = relay
        self.vault = vault      # the games' secret seeds: chance after building resumes from them
        self.rebuilds = 0
        self._opening: dict[str, asyncio.Future] = {}   # loads in progress, shared by their callers
        self.seats = KnownSeats()       # each player's view as this replica last knew it

    # ---- opening and rebuilding ---------------------------------------------------------------

    async def open_table(self, game: str, commands_seen: dict[str, str] | None = None) -> Applied | None:
        """Make sure the game's warehouse is in Redis: load it from the stream (starting building if it
        has not started yet). Safe to call from every replica at once: the first load wins. Within this
        process, concurrent calls for one game (a table's players arriving together) share one load.
        Returns the start of building (durable) if this load started it."""
        if commands_seen:
            return await self._open_table(game, commands_seen)
        loading = self._opening.get(game)
        if loading is None:
            loading = self._opening[game] = asyncio.ensure_future(self._open_table(game, None))
            loading.add_done_callback(lambda done: self._opening.pop(game, None)
                                      if self._opening.get(game) is done else None)
        return await asyncio.shield(loading)

    async def _open_table(self, game: str, commands_seen: dict[str, str] | None) -> Applied | None:
        folded = Folded(await self.store.read(game_stream(game)))
        if folded.state.round == 0:
            raise Refused("NOT_A_TRUCKER_GAME", f"game {game} has no Trucker round to build")
        start = None
        if folded.building and not folded.state.building_started:
            # The engine starts building, at Redis's clock (the one all replicas share).
            command = m.StartBuilding(at=await self.now())
            events = decide_building(folded.state, command, None, NoChance())
            start = (command.model_dump_json(), [event_json(e) for e in events])
        if folded.building and bot_seats(folded.record):
            await list_game(self.warehouse.redis, game)     # bots build here too (`bot_seats.py`)
        future = future_grabs(folded, await self.seed(game)) if folded.building else []
        doc = warehouse_doc(game, folded, epoch=uuid.uuid4().hex, future=future)
        doc["cmds"].update(commands_seen or {})
        command_id = f"start-round-{folded.state.round}" if start else ""
        applied = await self.warehouse.open(game, doc, start, command_id)
        if applied is None:
            return None
        if start is None:
            self.rebuilds += 1
            REBUILDS.inc()
            log.info("warehouse_rebuilt", game=game, seq=folded.seq)
            return None
        await self.relay.wait_durable(game, applied.last_seq, applied.events[-1].get("epoch"))
        return replace(applied, durable=True)

    async def open_current_round(self, game: str, folded: Folded | None = None) -> bool | Applied:
        """Make sure Redis holds the warehouse of the round the stream is building (the adjudicator may
        have started the next round since): drop an earlier round's warehouse and load this one.
        Truthy if a warehouse was loaded (then the stream may have grown: BuildingStarted, returned
        when this call started building)."""
        folded = folded or Folded(await self.store.read(game_stream(game)))
        if not folded.building:
            return False
        loaded_round = await self.warehouse.redis.hget(f"trucker:{{{game}}}:meta", "round")
        if loaded_round == str(folded.state.round):
            return False
        if loaded_round is not None:   # Redis still holds an earlier round's (closed) warehouse
            await self.warehouse.drop(game, only_round=int(loaded_round))
        return await self.open_table(game) or True

    async def rebuild(self, game: str, epoch: str | None = None) -> None:
        """The warehouse (the load `epoch`, if given) disagrees with the stream: forget it and load it again
        from the stream. Every move that noticed one disagreement asks; only the first drops a warehouse."""
        await self.warehouse.drop(game, only_epoch=epoch)
        await self.open_table(game)

    # ---- moves --------------------------------------------------------------------------------

    async def play(self, game: str, player: str | None, command: Command, command_id: str | None,
                   round: int | None = None, played_by: str | None = None) -> Applied:
        """Apply one move and return once its events are durable; raises Refused. `round`: the round
        whose building the move was sent for (see `apply`); `played_by`: who plays the seat when not its
        own player (a bot seat's `bot:<level>`, `bot_seats.py`; a substitute's player id), recorded with
        the move. A `Resign` gives the seat up (`resignation.py`): a bot builds it from then on."""
        if isinstance(command, Resign):
            return await resignation.resign(self, game, player or "", command_id, played_by)
        if not isinstance(command, REALTIME_COMMANDS):
            raise Refused("NOT_A_REALTIME_MOVE", f"{command.type} is not a building move of the real-time "
                          "service: the service starts and ends building; repairs and the flight go "
                          "through the lobby's commands")
        applied = await self.apply(game, player or "", command, command_id, round, played_by)
        if applied.durable:
            return applied
        epoch = applied.events[-1].get("epoch") if applied.events else None
        try:
            await self.relay.wait_durable(game, applied.last_seq, epoch)
        except Diverged as diverged:
            await self.rebuild(game, diverged.epoch)
            raise Refused("RETRY", "the table was reloaded while your move was stored; send it again")
        return await self.with_stored_events(game, applied) if applied.retried else applied

    async def with_stored_events(self, game: str, applied: Applied) -> Applied:
        """A resent move is answered with the events its first sending stored (read back from the
        stream: Redis may have been rebuilt since, and the outbox keeps nothing once it is stored)."""
        if not applied.retried or applied.events or applied.last_seq < applied.first_seq:
            return applied
        stored = await self.store.read(game_stream(game), from_seq=applied.first_seq)
        events = tuple({"seq": e.seq, "type": e.type, "actor": e.actor, "data": e.data}
                       for e in stored if e.seq <= applied.last_seq)
        return replace(applied, events=events)

    async def apply(self, game: str, player: str, command: Command, command_id: str | None,
                    round: int | None = None, played_by: str | None = None) -> Applied:
        """Decide the move and apply it in Redis (its events in the outbox, not yet durable: `play`
        waits for that); raises Refused.

        A move is for one round's building: `round` (the one its player was shown when sending it), or
        else the round of the first fresh view it is decided on. Whatever retry a race sends it through
        below (a guard that no longer holds, the end of building decided again), it is decided on that
        round only, and refused (ROUND_OVER) once that round's building is over: the last Finish may run
        on by itself to the next round's building, which opens at once, and a move meant for the round
        that just ended must not land there (a second "last" order tile, a ship finished unbuilt)."""
        view: View | Applied | None = None if isinstance(command, FRESH_ONLY) else self.seats.get(game, player)
        loaded: bool | Applied = False      # this move had the warehouse loaded (the start, if it started it)
        for _ in range(ATTEMPTS):
            try:
                if view is None:
                    view = await self._read(game, player, command, command_id)
                if isinstance(view, Applied):
                    return view                         # that command id was applied already: a resend
                if round is not None and view.state.round != round:
                    view, loaded = await self._other_round(game, view, round, loaded)
                else:
                    if round is None and view.fresh and view.status == "building":
                        round = view.state.round        # from now on the move is for this round only
                    return await self._decide_and_commit(game, player, command, command_id, view, round,
                                                         played_by)
            except WarehouseMissing:                    # never loaded, or Redis lost it: load it
                if loaded:
                    raise Refused("TABLE_UNAVAILABLE", f"game {game} could not be loaded") from None
                view, loaded = None, await self.open_table(game) or True
            except RuleViolation as violation:
                if isinstance(view, View) and not view.fresh:
                    view = None                         # refuse only on what the warehouse holds now
                    continue
                if violation.code != "NOT_BUILDING" or loaded or round is not None:
                    raise Refused(violation.code, violation.message) from None
                view, loaded = None, await self.open_current_round(game)   # the next round, maybe
                if not loaded:
                    raise Refused(violation.code, violation.message) from None
            except Stale as stale:
                if stale.guard == "time_up":
                    raise Refused("TIME_UP", "the hourglass has run out on START: building is over") from None
                view = None
            if isinstance(command, m.StartBuilding) and isinstance(loaded, Applied):
                return loaded                           # the service started building for this move
        raise Refused("TABLE_UNAVAILABLE", f"game {game} keeps changing under the move")

    async def _other_round(self, game: str, view: View, round: int, loaded: bool | Applied
                           ) -> tuple[None, bool | Applied]:
        """The view is of another round than the move's: refuse if the move's round is over; else read
        again (a view this replica remembered) or load the move's round (Redis still holds an earlier
        one). Returns (no view: read it again, what was loaded)."""
        if view.state.round > round:
            raise ending.round_over(round)
        if not view.fresh:
            return None, loaded
        if loaded or not (opened := await self.open_current_round(game)):
            raise Refused("NOT_BUILDING", f"round {round} is not building")
        return None, opened

    async def _decide_and_commit(self, game: str, player: str, command: Command, command_id: str | None,
                                 view: View, round: int | None = None, played_by: str | None = None) -> Applied:
        # Who may play the seat is the building round's: a closed warehouse (an earlier round's, which
        # may predate a substitute taking the seat) is left to the engine, which refuses NOT_BUILDING
        # and has the current round loaded (`apply`). `commit.lua` checks the controller again.
        if (controller := view.controller(player)) != (played_by or "") and view.status == "building":
            if not view.fresh:
                raise Stale("controller")       # refuse only on what the warehouse holds now
            raise Refused("NOT_IN_CONTROL", f"seat {player} is played by {_held_by(controller)} now, "
                                            f"not by {played_by or player}")
        decision = self._decide(view, command, player)
        if isinstance(command, m.LookAtPile) and decision.events[0].cards:
            decision = await self._first_look(game, view, decision)
        if decision.ends_building:
            return await ending.decided(self, game, player, decision.command.model_dump(mode="json"),
                                        command_id, status="building", round=round, played_by=played_by)
        mark = self.relay.unmarked(game)
        try:
            applied = await self.warehouse.commit(
                game, player, command_id, decision.command.model_dump_json(),
                [*projection.guards(view, decision.command, decision.events), ["controller", played_by or ""]],
                [event_json(e) for e in decision.events], decision.extras, mark, played_by)
        except (Stale, WarehouseMissing):
            self.relay.marked(game, mark)       # the script ran, so the mark was made (or moot)
            self.seats.forget(game, player)
            raise
        self.relay.marked(game, mark)
        self.relay.offer(game, applied)
        if applied.events:
            self.seats.remember(game, player, projection.follow(view, decision.events, applied.events))
        else:
            self.seats.forget(game, player)
        return applied

    async def view_of(self, game: str, player: str) -> View:
        """The player's view read now (loading the warehouse if Redis has none), as a move of theirs
        would be decided on: what a bot seat decides its next move on (`bot_seats.py`). Raises
        Refused (TIME_UP, TABLE_UNAVAILABLE, NOT_A_TRUCKER_GAME)."""
        for _ in range(2):
            try:
                view = await self._read(game, player, m.GrabFaceDown(), None)
            except WarehouseMissing:
                await self.open_table(game)
                continue
            assert isinstance(view, View)       # no command id: never a resend's answer
            return view
        raise Refused("TABLE_UNAVAILABLE", f"game {game} could not be loaded")

    async def _read(self, game: str, player: str, command: Command, command_id: str | None) -> View | Applied:
        """The player's view read now, or the earlier answer to this command id; raises
        WarehouseMissing, and TIME_UP once the sand has run out on START."""
        facts = await self.warehouse.facts(game, player, command_id, isinstance(command, m.LookAtPile))
        if isinstance(facts, Applied):
            return facts
        if facts["meta"].get("format") != WAREHOUSE_FORMAT:    # loaded by an earlier version: reload it
            await self.warehouse.drop(game)
            raise WarehouseMissing(game)
        view = projection.read(facts, player)
        if view.time_up:
            raise Refused("TIME_UP", "the hourglass has run out on START: building is over")
        return view

    @staticmethod
    def _decide(view: View, command: Command, player: str) -> Decision:
        """The engine's decision on the view (raises RuleViolation); draws nothing (see `_first_look`)."""
        projection.optimistic(view, command)
        if isinstance(command, m.TurnTimer):       # the service's clock, never the client's
            command = m.TurnTimer(at=view.now)
        return Decision(command, decide_building(view.state, command, player, NoChance()))

    async def _first_look(self, game: str, view: View, decision: Decision) -> Decision:
        """A pile's first look draws its cards: the engine decides again with the game's FairRng at the
        warehouse's counter, and the face-down grabs to come are computed again from the new counter."""
        seed = await self.seed(game)
        rng = FairRng(seed, start=view.draw_end)
        events = decide_building(view.state, decision.command, view.player, rng)
        return Decision(decision.command, events, _first_look(view, events, seed, rng.used))

    # ---- the end of building (see `ending.py`) ------------------------------------------------

    async def stop_if_due(self, game: str) -> bool:
        return await ending.stop_if_due(self, game)

    async def conclude(self, game: str) -> None:
        await ending.conclude(self, game)

    async def decided(self, game: str, actor: str | None, command: dict, command_id: str | None,
                      status: str, round: int | None = None, played_by: str | None = None) -> Applied:
        return await ending.decided(self, game, actor, command, command_id, status, round, played_by)

    # ---- chance and time ----------------------------------------------------------------------

    async def seed(self, game: str) -> bytes:
        """The game's secret seed (face-down grabs and what follows building draw from it)."""
        seed = await self.vault.get(game) if self.vault is not None else None
        if seed is None:
            log.error("no_seed_for_game", game=game)
            raise Refused("NO_SEED", f"game {game} has no secret seed in the vault: its chance cannot go on")
        return seed

    async def now(self) -> float:
        """Redis's clock (seconds): the one time every replica shares."""
        seconds, micros = await self.warehouse.redis.time()
        return seconds + micros / 1_000_000


def _held_by(controller: str) -> str:
    """Who holds a seat, in a refusal's words (`View.controller`: '' its player)."""
    return "its player" if not controller else "a bot" if is_bot(controller) else "a substitute"


def _first_look(view: View, events: list, seed: bytes, draw_end: int) -> dict:
    """What a pile's first look changes besides its event: the piles and cards known (the engine's
    evolve on a copy of the view) and the draw counter; and since the counter moved, every face-down
    grab to come, computed again from the new counter (kept in Redis only)."""
    after = view.state.clone()
    for event in events:
        evolve_building(after, event)
    future = face_down_sequence(view.facedown or [], FairRng(seed, start=draw_end))
    return {"meta": {"piles": json.dumps(after.piles), "draw_end": draw_end,
                     "used_cards": json.dumps(after.used_cards), "round_cards": json.dumps(after.round_cards)},
            "facedown": [tile for tile, _ in future], "facedown_draws": [after_grab for _, after_grab in future]}
