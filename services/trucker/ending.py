"""The end of building: the last ship finishing, or the sand running out on START.

Both need the whole game and chance (inspection, launch, cards, maybe the next round follow by
themselves), so they are decided by the platform's own transaction (`starbase_core.transaction
.decide_next`, as the adjudicator decides and the audit re-runs every command) on the game folded from
the stream, with the game's FairRng resumed at the stream's `draw_end` (seed from the vault).
`decided.lua` puts its envelopes into the outbox exactly as decided (meta included) only if Redis has
applied nothing since (`whole_game.decide_and_store`, shared with a resignation), and closes the round's
warehouse. If the next round's building follows at once, its warehouse is loaded right away.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import structlog

from trucker_rules.state import BUILDING

from trucker.state_doc import Folded
from trucker.warehouse import Applied, Refused, Stale, WarehouseMissing
from trucker.whole_game import ToStore, decide_and_store, decide_on

if TYPE_CHECKING:
    from trucker.tables import TableService

log = structlog.get_logger(__name__)


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
    rounds: list[int] = []             # the round each attempt decided on: the last one was stored

    async def decide(folded: Folded) -> ToStore:
        round_before = folded.state.round
        if round is not None and round_before != round:
            raise round_over(round)
        decision = decide_on(folded.record, actor, command, command_id, await service.seed(game), played_by)
        if not any(event.type == "BuildingEnded" for event in decision.events):
            raise Stale("not_ending")
        rounds.append(round_before)
        return ToStore(decision, {"status": "ended"})

    applied, stored = await decide_and_store(service, game, command_id, status, decide)
    if stored is None:
        return applied                 # that command id was applied before: its first answer
    log.info("building_ended", game=game, by=command["type"], seq=applied.last_seq)
    if stored.decision.state.phase == BUILDING and stored.decision.outcome is None:
        # Everything up to the next round's building followed by itself: load that warehouse,
        # keeping the command ids seen so far so that a resent move is still not applied twice.
        seen = await service.warehouse.redis.hgetall(f"trucker:{{{game}}}:cmds")
        await service.warehouse.drop(game, only_round=rounds[-1])
        await service.open_table(game, seen)
    return applied
