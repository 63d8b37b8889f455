"""The service layer: one call per player move, from the socket to an acknowledgement.

    move → (place/move: check the joints in Python with the pure rules, noting the ship's version)
         → one Lua script (shared-state rules, change, numbered event in the outbox, atomically)
         → the relay makes the event durable in the game's stream → acknowledged

If Redis no longer holds the warehouse, it is rebuilt from the stream and the move is run again.
The two moves that end building (the last ship finishing, the sand running out on START) need the whole
game and chance: the rules engine decides them on the state folded from the stream (`decided`), and
the warehouse appends the result only if nothing was applied in between.
"""
from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass, replace

import structlog

from starbase_core.gamestream import game_ended, game_stream
from starbase_core.seeds import SeedVault
from starbase_core.store import EventStore
from starbase_rules.contract import RuleViolation
from starbase_rules.fair import FairRng
from trucker_rules import deck
from trucker_rules.build_phase import face_down_sequence
from trucker_rules.building import check_placement
from trucker_rules.game import GAME
from trucker_rules.ship import Placed, Ship
from trucker_rules.state import BUILDING

from trucker.known_ships import KnownShip, KnownShips
from trucker.metrics import REBUILDS
from trucker.relay import Diverged, Relay
from trucker.state_doc import Folded, future_grabs, warehouse_doc
from trucker.warehouse import Applied, RedisWarehouse, Refused, WarehouseMissing

log = structlog.get_logger(__name__)

PLACING = ("place", "move_newest")
STALE_RETRIES = 5


@dataclass(frozen=True)
class Move:
    """A player's move, already validated in shape (see `schemas.py`)."""

    operation: str            # a `warehouse.OPERATIONS` name
    args: tuple = ()          # place/move_newest: (column, row, rotation)


class TableService:
    def __init__(self, warehouse: RedisWarehouse, store: EventStore, relay: Relay,
                 vault: SeedVault | None = None):
        self.warehouse = warehouse
        self.store = store
        self.relay = relay
        self.vault = vault      # the games' secret seeds: chance after building resumes from them
        self.rebuilds = 0
        self._opening: dict[str, asyncio.Future] = {}   # loads in progress, shared by their callers
        self.ships = KnownShips()       # each player's ship as this replica last knew it (placements)

    # ---- opening and rebuilding ---------------------------------------------------------------

    async def open_table(self, game: str, commands_seen: dict[str, str] | None = None) -> None:
        """Make sure the game's warehouse is in Redis: load it from the stream (starting building if it
        has not started yet). Safe to call from every replica at once: the first load wins. Within this
        process, concurrent calls for one game (a table's players arriving together) share one load."""
        if commands_seen:
            return await self._open_table(game, commands_seen)
        loading = self._opening.get(game)
        if loading is None:
            loading = self._opening[game] = asyncio.ensure_future(self._open_table(game, None))
            loading.add_done_callback(lambda done: self._opening.pop(game, None)
                                      if self._opening.get(game) is done else None)
        await asyncio.shield(loading)

    async def _open_table(self, game: str, commands_seen: dict[str, str] | None) -> None:
        folded = Folded(await self.store.read(game_stream(game)))
        if folded.state.round == 0:
            raise Refused("NOT_A_TRUCKER_GAME", f"game {game} has no Trucker round to build")
        start = folded.building and not folded.state.building_started
        future = future_grabs(folded, await self._seed(game)) if folded.building else []
        doc = warehouse_doc(game, folded, epoch=uuid.uuid4().hex, future=future)
        doc["cmds"].update(commands_seen or {})
        applied = await self.warehouse.open(game, doc, start, command_id=f"start-round-{folded.state.round}"
                                            if start else "")
        if applied is None:
            return
        if not start:
            self.rebuilds += 1
            REBUILDS.inc()
            log.info("warehouse_rebuilt", game=game, seq=folded.seq)
        if applied.events:
            await self.relay.wait_durable(game, applied.last_seq, applied.events[-1].get("epoch"))

    async def open_current_round(self, game: str, folded: Folded | None = None) -> bool:
        """Make sure Redis holds the warehouse of the round the stream is building (the adjudicator may
        have started the next round since): drop an earlier round's warehouse and load this one.
        True if a warehouse was loaded (then the stream may have grown: BuildingStarted)."""
        folded = folded or Folded(await self.store.read(game_stream(game)))
        if not folded.building:
            return False
        loaded_round = await self.warehouse.redis.hget(f"trucker:{{{game}}}:meta", "round")
        if loaded_round == str(folded.state.round):
            return False
        if loaded_round is not None:   # Redis still holds an earlier round's (closed) warehouse
            await self.warehouse.drop(game, only_round=int(loaded_round))
        await self.open_table(game)
        return True

    async def rebuild(self, game: str) -> None:
        """The warehouse disagrees with the stream: forget it and load it again from the stream."""
        await self.warehouse.drop(game)
        await self.open_table(game)

    # ---- moves --------------------------------------------------------------------------------

    async def play(self, game: str, player: str | None, move: Move, command_id: str | None) -> Applied:
        """Apply one move and return once its events are durable; raises Refused."""
        if player is None:
            raise Refused("NOT_A_PLAYER", "spectators watch: only the players of the game may move")
        try:
            applied = await self._apply(game, player, move, command_id)
        except Refused as refusal:
            if refusal.code != "LAST_TO_FINISH":
                raise
            finish = {"type": "Finish"} if move.args[0] == "" else {"type": "Finish", "order_tile": int(move.args[0])}
            return await self.decided(game, player, finish, command_id, status="building")
        epoch = applied.events[-1].get("epoch") if applied.events else None
        try:
            await self.relay.wait_durable(game, applied.last_seq, epoch)
        except Diverged:
            await self.rebuild(game)
            raise Refused("RETRY", "the table was reloaded while your move was stored; send it again")
        return await self._with_stored_events(game, applied)

    async def _with_stored_events(self, game: str, applied: Applied) -> Applied:
        """A resent move is answered with the events its first sending stored (read back from the
        stream: Redis may have been rebuilt since, and the outbox keeps nothing once it is stored)."""
        if not applied.retried or applied.events or applied.last_seq < applied.first_seq:
            return applied
        stored = await self.store.read(game_stream(game), from_seq=applied.first_seq)
        events = tuple({"seq": e.seq, "type": e.type, "actor": e.actor, "data": e.data}
                       for e in stored if e.seq <= applied.last_seq)
        return replace(applied, events=events)

    async def _apply(self, game: str, player: str, move: Move, command_id: str | None) -> Applied:
        for attempt in range(STALE_RETRIES + 2):
            try:
                args = move.args
                if move.operation in PLACING:
                    args = await self._checked(game, player, move, fresh=attempt > 0)
                elif move.operation == "look_at_pile":
                    args = await self._pile_draw(game, int(move.args[0]))
                applied = await self.warehouse.apply(move.operation, game, player, command_id, *args)
                self.ships.applied(game, player, move.operation, applied.events)
                return applied
            except WarehouseMissing:
                self.ships.forget(game, player)
                if attempt > 0:
                    raise Refused("TABLE_UNAVAILABLE", f"game {game} could not be loaded") from None
                await self.open_table(game)
            except Refused as refusal:
                self.ships.forget(game, player)
                if refusal.code == "NOT_BUILDING" and attempt == 0 and await self.open_current_round(game):
                    continue   # the warehouse was a finished round's: the next round's is loaded now
                if refusal.code in ("STALE_CHECK", "STALE_DRAW"):
                    continue   # checked on what this replica remembered, or drawn at an old counter: again
                if refusal.code != "STALE_SHIP" or attempt >= STALE_RETRIES:
                    raise
        raise Refused("TABLE_UNAVAILABLE", f"game {game} keeps changing under the move")

    async def _checked(self, game: str, player: str, move: Move, fresh: bool) -> tuple:
        """Check the joints with the pure rules against the ship; return the script's arguments with
        what the check saw (ship version, component, warehouse epoch), so a stale check is refused by the
        script. A placement uses the ship this replica remembers (`known_ships`) unless `fresh`."""
        column, row, rotation = move.args
        known = self.ships.get(game, player) if move.operation == "place" and not fresh else None
        remembered = known is not None and known.hand is not None
        if not remembered:
            ship = await self.warehouse.ship_of(game, player)
            known = KnownShip(ship.epoch, ship.version, ship.board, ship.strict, ship.hand, dict(ship.squares))
            if move.operation == "place":
                self.ships.remember(game, player, known)
        tiles = {square: Placed(tile, turn) for square, (tile, turn) in known.squares.items()}
        component = known.hand
        if move.operation == "move_newest" and ship.newest is not None:
            component = ship.newest["component"]
            tiles.pop((ship.newest["col"], ship.newest["row"]), None)
        if component is not None:  # otherwise the script refuses: nothing in hand / no newest
            try:
                check_placement(Ship(known.board, tiles), component, (column, row), rotation, known.strict)
            except RuleViolation as violation:
                if remembered:
                    raise Refused("STALE_CHECK", "checked on a remembered ship") from None
                raise Refused(violation.code, violation.message) from None
        if move.operation == "place":   # the script also checks the hand still holds what was checked
            return column, row, rotation, known.version, component or "", known.epoch
        return column, row, rotation, known.version

    async def _pile_draw(self, game: str, pile: int) -> tuple:
        """The script's arguments for looking at `pile`. A pile nobody has looked at this round has no
        cards yet: the rules engine draws them now (`deck.draw_pile`, the game's FairRng at the
        warehouse's counter), which moves the counter, so the face-down grabs to come are computed
        again from the new one. `look_at_pile.lua` refuses the draw (STALE_DRAW, then drawn again) if
        the counter moved meanwhile. Pile draws are rare (at most three per round)."""
        piles_raw, draw_end, seq, epoch = await self.warehouse.redis.hmget(
            f"trucker:{{{game}}}:meta", "piles", "draw_end", "seq", "epoch")
        if piles_raw is None:
            raise WarehouseMissing(game)
        piles = json.loads(piles_raw)
        if not 1 <= pile <= min(3, len(piles)) or piles[pile - 1]:
            return (pile,)             # already drawn (or not a pile one may look at: the script refuses)
        await self.relay.wait_durable(game, int(seq), epoch)
        folded = Folded(await self.store.read(game_stream(game)))
        if not folded.building:
            return (pile,)             # building is over: the script refuses (NOT_BUILDING)
        if str(folded.draw_end) != draw_end:
            raise Refused("STALE_DRAW", "the table changed while the pile was drawn")
        seed = await self._seed(game)
        rng = FairRng(seed, start=folded.draw_end)
        piles[pile - 1] = deck.draw_pile(folded.state, rng)
        future = face_down_sequence(folded.state.face_down, FairRng(seed, start=rng.used))
        return (pile, draw_end, json.dumps(piles), rng.used,
                json.dumps([tile for tile, _ in future]), json.dumps([after for _, after in future]))

    # ---- the end of building ------------------------------------------------------------------

    async def _status(self, game: str) -> str | None:
        return await self.warehouse.redis.hget(f"trucker:{{{game}}}:meta", "status")

    async def stop_if_due(self, game: str) -> bool:
        """Called when the sand should have run out on START: stop building and record the end."""
        try:
            await self.warehouse.apply("stop", game, None, None)
        except Refused as refusal:
            if refusal.code != "NOT_BUILDING":
                return False
        except WarehouseMissing:
            await self.open_table(game)
            return await self.stop_if_due(game)
        if await self._status(game) == "ending":
            await self.conclude(game)
        return True

    async def conclude(self, game: str) -> None:
        """Record the end of building after the sand ran out on START (`stop`): the rules engine decides
        `CallTimeUp` at the moment building stopped, on the state folded from the stream."""
        end_at, round_no = await self.warehouse.redis.hmget(f"trucker:{{{game}}}:meta", "end_at", "round")
        if end_at is None:
            return
        try:
            await self.decided(game, None, {"type": "CallTimeUp", "at": float(end_at)},
                               f"end-round-{round_no}", status="ending")
        except Refused as refusal:
            if refusal.code not in ("NOT_BUILDING", "TABLE_BUSY"):
                raise

    async def decided(self, game: str, actor: str | None, command: dict, command_id: str | None,
                      status: str) -> Applied:
        """Moves that end building need the whole game and chance: the rules engine decides them
        (`GAME.decide`, with the game's FairRng resumed where the stream's last draw left it, the seed
        from the vault) on the state folded from the stream, and `decided.lua` appends the result only
        if nothing was applied since. Raises Refused (the engine's code) when the rules refuse it."""
        for _ in range(STALE_RETRIES):
            if (before := await self.warehouse.applied_before(game, command_id)) is not None:
                await self.relay.wait_durable(game, before.last_seq, None)
                return await self._with_stored_events(game, before)
            seq, epoch = await self.warehouse.redis.hmget(f"trucker:{{{game}}}:meta", "seq", "epoch")
            await self.relay.wait_durable(game, int(seq), epoch)
            folded = Folded(await self.store.read(game_stream(game)))
            if folded.seq != int(seq):
                continue
            round_before = folded.state.round
            events, draw_end, after = await self._decide(game, folded, actor, command)   # folds `folded` on
            args: list = [seq, status, draw_end, json.dumps(command)]
            for event_type, data in events:
                args += [event_type, json.dumps(data)]
            try:
                applied = await self.warehouse.apply("decided", game, actor, command_id, *args)
            except Refused as refusal:
                if refusal.code == "STALE_STATE":
                    continue
                raise
            if applied.events:
                await self.relay.wait_durable(game, applied.last_seq, applied.events[-1].get("epoch"))
            log.info("building_ended", game=game, by=command["type"], seq=applied.last_seq)
            if after.phase == BUILDING:
                # Everything up to the next round's building followed by itself: load that warehouse,
                # keeping the command ids seen so far so that a resent move is still not applied twice.
                seen = await self.warehouse.redis.hgetall(f"trucker:{{{game}}}:cmds")
                await self.warehouse.drop(game, only_round=round_before)
                await self.open_table(game, seen)
            return applied
        raise Refused("TABLE_BUSY", "the table kept changing while the end of building was decided")

    async def _seed(self, game: str) -> bytes:
        """The game's secret seed (face-down grabs and what follows building draw from it)."""
        seed = await self.vault.get(game) if self.vault is not None else None
        if seed is None:
            log.error("no_seed_for_game", game=game)
            raise Refused("NO_SEED", f"game {game} has no secret seed in the vault: its chance cannot go on")
        return seed

    async def _decide(self, game: str, folded: Folded, actor: str | None,
                      command: dict) -> tuple[list[tuple[str, dict]], int, object]:
        seed = await self._seed(game)
        rng = FairRng(seed, start=folded.draw_end)
        try:
            events = GAME.decide(folded.state, GAME.parse_command(command), actor, rng)
        except RuleViolation as violation:
            raise Refused(violation.code, violation.message) from None
        new = [(e.type, _engine_data(e)) for e in events]
        state = folded.state
        for event in events:
            state = GAME.evolve(state, event)
        if (outcome := GAME.outcome(state)) is not None:
            ended = game_ended(outcome, seed, rng.used)
            new.append((ended.type, ended.data))
        return new, rng.used, state


def _engine_data(event) -> dict:
    data = event.model_dump(mode="json")
    return {k: v for k, v in data.items() if k not in ("type", "v")}
