"""The end of building: the last ship finishing, or the sand running out on START.

Both need the whole game and chance (inspection, launch, cards, maybe the next round follow by
themselves), so they are decided by the platform's own transaction (`starbase_core.transaction
.decide_next`, as the adjudicator decides and the audit re-runs every command) on the game folded from
the stream, with the game's FairRng resumed at the stream's `draw_end` (seed from the vault).
`decided.lua` puts its envelopes into the outbox exactly as decided (meta included) only if Redis has
applied nothing since. If the next round's building follows at once, its warehouse is loaded right away.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import structlog

from starbase_core.gamestream import GameRecord, game_stream
from starbase_core.transaction import Decision, decide_next
from starbase_rules.contract import RuleViolation
from trucker_rules.state import BUILDING

from trucker.state_doc import Folded
from trucker.warehouse import Applied, Refused, Stale, WarehouseMissing

if TYPE_CHECKING:
    from trucker.tables import TableService

log = structlog.get_logger(__name__)
ATTEMPTS = 5
SERVICE = "trucker"        # the real-time service that plays building (`GAME.realtime_service`)


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
                      f"end-round-{round_no}", status="ending", round=int(round_no))
    except Refused as refusal:
        if refusal.code not in ("NOT_BUILDING", "GAME_OVER", "TABLE_BUSY"):
            raise


def round_over(round: int) -> Refused:
    return Refused("ROUND_OVER", f"this move was sent for round {round}, whose building is over")


async def decided(service: "TableService", game: str, actor: str | None, command: dict,
                  command_id: str | None, status: str, round: int | None = None,
                  played_by: str | None = None) -> Applied:
    """Decide a move that ends building on the whole game, with the platform's transaction, and append
    it; raises Refused (the engine's code) when the rules refuse it.

    Only ever an end of building, and only of `round` (the move's; None: whichever is building): when
    something was applied first, the move is decided again on the stream, which may have run on to the
    next round's building by then. There it is refused (ROUND_OVER); and a decision that no longer
    ends building raises Stale, for the caller to decide it again as an ordinary move: `decided.lua`
    closes the round's warehouse after what it stores."""
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
        if folded.record is None or folded.seq != int(seq):
            continue
        round_before = folded.state.round
        if round is not None and round_before != round:
            raise round_over(round)
        decision = _decide(folded.record, actor, command, command_id, await service.seed(game), played_by)
        if not any(event.type == "BuildingEnded" for event in decision.events):
            raise Stale("not_ending")
        try:
            applied = await warehouse.decided(game, command_id, int(seq), status, decision.draw_end,
                                              decision.events)
        except Stale:
            continue                   # something was applied since: decide again on the new stream
        if applied.events:
            await service.relay.wait_durable(game, applied.last_seq, applied.events[-1].get("epoch"))
        log.info("building_ended", game=game, by=command["type"], seq=applied.last_seq)
        if decision.state.phase == BUILDING and decision.outcome is None:
            # Everything up to the next round's building followed by itself: load that warehouse,
            # keeping the command ids seen so far so that a resent move is still not applied twice.
            seen = await warehouse.redis.hgetall(f"trucker:{{{game}}}:cmds")
            await warehouse.drop(game, only_round=round_before)
            await service.open_table(game, seen)
        return replace(applied, durable=True)
    raise Refused("TABLE_BUSY", "the table kept changing while the end of building was decided")


def _decide(record: GameRecord, actor: str | None, command: dict, command_id: str | None,
            seed: bytes, played_by: str | None = None) -> Decision:
    """The platform's transaction (the one the adjudicator writes with and the audit re-runs): its
    guards, the engine's decision with the game's FairRng at the stream's counter, the envelopes to
    store (`meta.command`, `meta.draw_end`, `meta.request_id`, `meta.played_by` for a bot seat's move; GameEnded
    when the game is over). The transaction checks `played_by` controls the seat, as the audit will."""
    try:
        return decide_next(record, command, actor, seed, service=SERVICE, request_id=command_id,
                           played_by=played_by)
    except RuleViolation as violation:
        raise Refused(violation.code, violation.message) from None
