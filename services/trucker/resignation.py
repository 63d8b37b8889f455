"""A person gives their seat up while a round builds (`{"type": "Resign"}` on the socket).

While a round builds the game's one writer is this service (the adjudicator refuses every command then,
`REALTIME_PHASE`), so a resignation at that moment is decided here, exactly as the end of building is:
by the platform's transaction (`whole_game.decide_on`: `decide_next(..., service="trucker")`) on the
game folded from the stream, so the stored `PlayerResigned` (and `GameEnded`, when too few people are
left) are what the adjudicator would have stored and the audit re-runs them. `decided.lua` stores them
only if Redis applied nothing since the fold, and at once:

- the game goes on: the warehouse's meta `controllers` gives the seat to its replacement bot (as the
  event names it), so from that instant the moves of whoever gave it up (its player, or the substitute
  who held it: `played_by`) are refused NOT_IN_CONTROL (`commit.lua`'s guard `controller`) and the
  seat's bot may build; the game is listed for the bot seats
  (`bot_seats.BOT_GAMES`), which fold the stream and build the seat from their next tick;
- the game ends (`decide_platform` says too few people are left): the round's warehouse is closed
  (status `ended`), so building stops for everyone, as when the last ship finishes.

Between buildings a seat is given up through the lobby (the adjudicator decides it there): the
service refuses a Resign then with NOT_BUILDING, having no say in those phases.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING

import structlog

from starbase_core.gamestream import GameRecord, game_stream
from starbase_core.seats import bot_controller
from starbase_core.transaction import realtime_service
from starbase_core.undo import PLAYER_RESIGNED

from trucker.bot_seats import list_game
from trucker.state_doc import Folded, controllers_meta
from trucker.warehouse import Applied, Refused, meta_key
from trucker.whole_game import SERVICE, ToStore, decide_and_store, decide_on

if TYPE_CHECKING:
    from trucker.tables import TableService

log = structlog.get_logger(__name__)
RESIGN = {"type": "Resign"}


async def resign(service: "TableService", game: str, player: str, command_id: str | None,
                 played_by: str | None = None) -> Applied:
    """Give `player`'s seat up now; once durable. Raises Refused: the transaction's code (NOT_A_PLAYER,
    NOT_IN_CONTROL for a seat given up already, NOT_A_PERSON, GAME_OVER), NOT_BUILDING between
    buildings. A command id stored before is answered with its first events (`retried`). `played_by`:
    the substitute giving up the seat they hold (the transaction checks they hold it; a bot, the clock
    or the platform is refused NOT_A_PERSON)."""
    # Only a seat's own player is refused on Redis alone: a substitute's claim is checked on the
    # stream (an earlier round's warehouse may not know they took the seat since).
    if played_by is None and await _given_up(service, game, player, command_id):
        # Refused on Redis alone: a socket repeating Resign must not make each message read the stream.
        raise Refused("NOT_IN_CONTROL", "a bot or a substitute holds this seat now: it was given up")
    folded = Folded(await service.store.read(game_stream(game)))
    if command_id is not None and command_id in folded.requests:
        # Stored before (the stream is the truth, whatever Redis holds now: another round, or nothing).
        first, last = map(int, folded.requests[command_id].split(","))
        return replace(await service.with_stored_events(game, Applied(first, last, retried=True)), durable=True)
    if await service.warehouse.applied_before(game, command_id) is None:
        _building(folded)
        await service.open_current_round(game, folded)  # Redis may still hold an earlier round's warehouse
    seed = await service.seed(game)

    async def decide(now: Folded) -> ToStore:
        record = _building(now)
        decision = decide_on(record, player, RESIGN, command_id, seed, played_by)
        controllers = dict(record.seats.controllers)
        for event in decision.events:
            if event.type == PLAYER_RESIGNED:       # the seat's bot, as the transaction named it
                controllers[event.data["player"]] = bot_controller(event.data["level"])
        after = {"controllers": controllers_meta(controllers)}
        if decision.outcome is not None:
            after["status"] = "ended"               # the game is over: building stops for everyone
        return ToStore(decision, after)

    applied, stored = await decide_and_store(service, game, command_id, "", decide)
    if stored is None:
        return applied                              # that command id was applied before
    service.seats.forget(game, player)              # this replica's memory of the seat: a person's
    if stored.decision.outcome is None:
        # After the store, not before: a tick finding no bot seat in the stream would unlist the game.
        await list_game(service.warehouse.redis, game)
    log.info("seat_resigned", game=game, player=player, seq=applied.last_seq,
             game_ended=stored.decision.outcome is not None)
    return applied


async def _given_up(service: "TableService", game: str, player: str, command_id: str | None) -> bool:
    """Whether the loaded warehouse says someone else (a bot, a substitute) holds `player`'s seat, and
    `command_id` was not what gave it up (a resend of that is answered with its events). A seat's own
    player never gets it back, so even an earlier round's warehouse answers this rightly."""
    redis = service.warehouse.redis
    controllers = await redis.hget(meta_key(game), "controllers")
    if not controllers or player not in json.loads(controllers):
        return False
    return await service.warehouse.applied_before(game, command_id) is None


def _building(folded: Folded) -> GameRecord:
    """The game, if a Resign is this service's to decide: only while the game's phase is its own
    (building); else Refused."""
    if folded.record is None:
        raise Refused("NOT_A_TRUCKER_GAME", "this game has no Trucker round to build")
    if folded.record.ended is not None:
        raise Refused("GAME_OVER", "the game is over")
    if realtime_service(folded.record) != SERVICE:
        raise Refused("NOT_BUILDING", "no round is building: between buildings a seat is given up through "
                      "the lobby (POST /games/<id>/resign)")
    return folded.record
