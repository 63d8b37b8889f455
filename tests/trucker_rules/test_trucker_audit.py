"""A whole Trucker game through the adjudicator (in-memory store and seed vault) passes the audit:
the hash chain, the seed commitment and a full re-run of every command and draw."""
from __future__ import annotations

import asyncio

from adjudicator.service import Adjudicator
from starbase_core.audit import PASS, audit_game
from starbase_core.gamestream import ends_game, replay
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.registry import get_game
from tests.support.play import play_to_end


async def _play():
    store, vault = MemoryEventStore(), MemorySeedVault()
    adjudicator = Adjudicator(store, vault)
    await adjudicator.create_game("t1", "trucker", ["ann", "bob", "cyd"], {})
    await play_to_end(adjudicator, store, "t1", seed=5)
    return await store.read("game.t1"), (await adjudicator.record("t1")).state


def test_a_whole_trucker_game_through_the_adjudicator_passes_the_audit():
    stream, final_state = asyncio.run(_play())
    assert ends_game(stream[-1])
    report = audit_game("t1", stream, get_game)
    assert report.verdict == PASS, report.render()
    assert replay("t1", stream, get_game).state == final_state
