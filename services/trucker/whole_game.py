"""Commands decided on the whole game while a round builds: the end of building (`ending.py`) and a
resignation (`resignation.py`).

Both are decided by the platform's own transaction (`starbase_core.transaction.decide_next`, as the
adjudicator decides and the audit re-runs every command) on the game folded from the stream, as the
service that plays building (`service="trucker"`), so what is stored is what the adjudicator would
have stored. `decided.lua` puts the decided envelopes into the outbox exactly as decided (meta
included), and the warehouse's meta fields the decision changes with them, only if Redis has applied
nothing since the fold: otherwise the command is decided again on the new stream.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Awaitable, Callable

from starbase_core.gamestream import GameRecord, game_stream
from starbase_core.transaction import REQUEST_ID, Decision, decide_next
from starbase_rules.contract import RuleViolation

from trucker.state_doc import Folded
from trucker.warehouse import Applied, Refused, Stale, meta_key

if TYPE_CHECKING:
    from trucker.tables import TableService

ATTEMPTS = 5
SERVICE = "trucker"        # the real-time service that plays building (`GAME.realtime_service`)


@dataclass(frozen=True)
class ToStore:
    """A decision to store, and the warehouse's meta fields once its envelopes are in (`decided.lua`)."""

    decision: Decision
    after: dict[str, str]


def decide_on(record: GameRecord, actor: str | None, command: dict, command_id: str | None,
              seed: bytes, played_by: str | None = None) -> Decision:
    """The platform's transaction (the one the adjudicator writes with and the audit re-runs): its
    guards, the decision (the engine's with the game's FairRng at the stream's counter, or the
    platform's own for a `Resign`), the envelopes to store (`meta.command`, `meta.draw_end`,
    `meta.request_id`, `meta.played_by` for a bot seat's move; GameEnded when the game is over). The
    transaction checks `played_by` controls the seat, as the audit will. Raises Refused."""
    try:
        decision = decide_next(record, command, actor, seed, service=SERVICE, request_id=command_id,
                               played_by=played_by)
    except RuleViolation as violation:
        raise Refused(violation.code, violation.message) from None
    first = decision.events[0] if decision.events else None
    if command_id is not None and first is not None and REQUEST_ID not in first.meta:
        # `decide_next` records the id beside an engine's command only; a platform command's (Resign)
        # gets it here, so that a warehouse rebuilt from the stream still knows it was stored
        # (`state_doc.Folded.requests`: a resend is answered, not decided again). The audit leaves
        # `request_id` out of its comparison.
        first = first.model_copy(update={"meta": {**first.meta, REQUEST_ID: command_id}})
        decision = replace(decision, events=[first, *decision.events[1:]])
    return decision


async def decide_and_store(service: "TableService", game: str, command_id: str | None, status: str,
                           decide: Callable[[Folded], Awaitable[ToStore]]) -> tuple[Applied, ToStore | None]:
    """Fold the stream at the warehouse's seq, `decide` on it (raising Refused or Stale to give up), and
    store what it decided while Redis still holds that seq (and `status`, unless ''); once durable.
    Returns what was applied and what was decided, or (the first sending's events, None) for a command
    id applied before. Raises TABLE_BUSY if the table kept changing through every attempt."""
    warehouse = service.warehouse
    for _ in range(ATTEMPTS):
        if (before := await warehouse.applied_before(game, command_id)) is not None:
            await service.relay.wait_durable(game, before.last_seq, None)
            return replace(await service.with_stored_events(game, before), durable=True), None
        seq, epoch = await warehouse.redis.hmget(meta_key(game), "seq", "epoch")
        if seq is None:
            await service.open_table(game)
            continue
        await service.relay.wait_durable(game, int(seq), epoch)
        folded = Folded(await service.store.read(game_stream(game)))
        if folded.record is None or folded.seq != int(seq):
            continue
        chosen = await decide(folded)
        try:
            applied = await warehouse.decided(game, command_id, int(seq), status, chosen.decision.draw_end,
                                              chosen.decision.events, chosen.after)
        except Stale:
            continue                   # something was applied since: decide again on the new stream
        if applied.events:
            await service.relay.wait_durable(game, applied.last_seq, applied.events[-1].get("epoch"))
        return replace(applied, durable=True), chosen
    raise Refused("TABLE_BUSY", "the table kept changing while the game was decided on")
