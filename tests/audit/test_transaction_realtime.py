"""The platform transaction fits a real-time service: a whole Trucker game written with `decide_next`
alone, the building rounds decided as the Trucker service (`service="trucker"`, each move with its
client's request id in meta) and the rest as the adjudicator, passes the audit."""
from __future__ import annotations

import random

from starbase_core.audit import PASS, audit_game
from starbase_core.envelope import GENESIS_HASH, seal
from starbase_core.gamestream import ends_game, replay
from starbase_core.transaction import REQUEST_ID, decide_next, open_game, realtime_service
from starbase_rules.registry import get_game

SEED = b"revealed when the game ends"


def test_a_trucker_game_written_by_the_transaction_as_both_writers_passes_the_audit():
    engine, bots = get_game("trucker"), random.Random(3)
    stream = seal("game.t1", open_game(engine, ["ann", "bob", "cyd"], {}, SEED), last_seq=0,
                  last_hash=GENESIS_HASH, command_id="create-t1")
    record = replay("t1", stream, get_game)
    by_service = 0
    for move in range(20000):
        service = realtime_service(record)          # "trucker" while a round builds, else the adjudicator
        if service is not None and not record.state.building_started:
            actor, command = None, {"type": "StartBuilding", "at": 0.0}     # the service's own timer
        else:
            actor = bots.choice(engine.to_act(record.state))
            command = engine.bot_command(record.state, actor, bots).model_dump(mode="json")
        request_id = f"{actor}:{move}" if service is not None and actor is not None else None
        decision = decide_next(record, command, actor, SEED, service=service, request_id=request_id)
        stored = seal("game.t1", decision.events, last_seq=record.last_seq, last_hash=record.last_hash,
                      command_id=f"c{move}")
        record.advance(decision.state, stored)
        stream += stored
        by_service += request_id is not None
        if decision.outcome is not None:
            break

    assert ends_game(stream[-1]) and record.ended == stream[-1].data
    assert by_service > 20 and sum(REQUEST_ID in e.meta for e in stream) == by_service
    report = audit_game("t1", stream, get_game)
    assert report.verdict == PASS, report.render()
