"""The end of building: the last ship finishing, or the sand running out on START.

Both need the whole game and chance (inspection, launch, cards, maybe the next round follow by
themselves): the rules engine decides `Finish` / `CallTimeUp` with `GAME.decide` on the state folded
from the stream, with the game's FairRng resumed at the stream's `draw_end` (seed from the vault), and
`decided.lua` appends the result only if Redis has applied nothing since. If the next round's building
follows at once, its warehouse is loaded right away.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING

import structlog

from starbase_core.gamestream import game_ended, game_stream
from starbase_rules.contract import RuleViolation
from starbase_rules.fair import FairRng
from trucker_rules.game import GAME
from trucker_rules.state import BUILDING

from trucker.projection import event_json
from trucker.state_doc import Folded
from trucker.warehouse import Applied, Refused, Stale, WarehouseMissing

if TYPE_CHECKING:
    from trucker.tables import TableService

log = structlog.get_logger(__name__)
ATTEMPTS = 5


def _meta(game: str) -> str:
    return f"trucker:{{{game}}}:meta"


async def stop_if_due(service: "TableService", game: str) -> bool:
    """Called when the sand should have run out on START: stop building and record the end."""
    try:
        if not await service.warehouse.stop(game):
            return False               # the sand still runs (Redis's clock decides)
    except Stale:
        pass                           # building had stopped already: its end may still be unrecorded
    except WarehouseMissing:
        await service.open_table(game)
        return await stop_if_due(service, game)
    if await service.warehouse.redis.hget(_meta(game), "status") == "ending":
        await conclude(service, game)
    return True


async def conclude(service: "TableService", game: str) -> None:
    """Record the end of building after the sand ran out on START (`stop`): the rules engine decides
    `CallTimeUp` at the moment building stopped, on the state folded from the stream."""
    end_at, round_no = await service.warehouse.redis.hmget(_meta(game), "end_at", "round")
    if end_at is None:
        return
    try:
        await decided(service, game, None, {"type": "CallTimeUp", "at": float(end_at)},
                      f"end-round-{round_no}", status="ending")
    except Refused as refusal:
        if refusal.code not in ("NOT_BUILDING", "TABLE_BUSY"):
            raise


async def decided(service: "TableService", game: str, actor: str | None, command: dict,
                  command_id: str | None, status: str) -> Applied:
    """Decide a move that ends building on the whole game and append it; raises Refused (the engine's
    code) when the rules refuse it."""
    warehouse = service.warehouse
    for _ in range(ATTEMPTS):
        if (before := await warehouse.applied_before(game, command_id)) is not None:
            await service.relay.wait_durable(game, before.last_seq, None)
            return replace(await service.with_stored_events(game, before), durable=True)
        seq, epoch = await warehouse.redis.hmget(_meta(game), "seq", "epoch")
        if seq is None:
            await service.open_table(game)
            continue
        await service.relay.wait_durable(game, int(seq), epoch)
        folded = Folded(await service.store.read(game_stream(game)))
        if folded.seq != int(seq):
            continue
        round_before = folded.state.round
        events, draw_end, after = await _decide(service, game, folded, actor, command)
        try:
            applied = await warehouse.decided(game, actor, command_id, int(seq), status, draw_end,
                                              json.dumps(command), events)
        except Stale:
            continue                   # something was applied since: decide again on the new stream
        if applied.events:
            await service.relay.wait_durable(game, applied.last_seq, applied.events[-1].get("epoch"))
        log.info("building_ended", game=game, by=command["type"], seq=applied.last_seq)
        if after.phase == BUILDING:
            # Everything up to the next round's building followed by itself: load that warehouse,
            # keeping the command ids seen so far so that a resent move is still not applied twice.
            seen = await warehouse.redis.hgetall(f"trucker:{{{game}}}:cmds")
            await warehouse.drop(game, only_round=round_before)
            await service.open_table(game, seen)
        return replace(applied, durable=True)
    raise Refused("TABLE_BUSY", "the table kept changing while the end of building was decided")


async def _decide(service: "TableService", game: str, folded: Folded, actor: str | None,
                  command: dict) -> tuple[list[tuple[str, str]], int, object]:
    seed = await service.seed(game)
    rng = FairRng(seed, start=folded.draw_end)
    try:
        events = GAME.decide(folded.state, GAME.parse_command(command), actor, rng)
    except RuleViolation as violation:
        raise Refused(violation.code, violation.message) from None
    new = [event_json(e) for e in events]
    state = folded.state
    for event in events:
        state = GAME.evolve(state, event)
    if (outcome := GAME.outcome(state)) is not None:
        ended = game_ended(outcome, seed, rng.used)
        new.append((ended.type, json.dumps(ended.data)))
    return new, rng.used, state

