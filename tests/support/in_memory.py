"""An adjudicator over an in-memory store, for tests of the platform's transaction without NATS:
the fixtures, a move with a fresh command id, and a refusal that must change nothing."""
from __future__ import annotations

import itertools

import pytest

from adjudicator.service import Adjudicator
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.contract import RuleViolation

_command_ids = itertools.count()


@pytest.fixture
def store():
    return MemoryEventStore()


@pytest.fixture
def adjudicator(store):
    return Adjudicator(store, MemorySeedVault())


async def play(adjudicator, game_id, actor, command, played_by=None):
    return await adjudicator.submit(game_id, actor, command, f"c{next(_command_ids)}", played_by=played_by)


async def refused(code, adjudicator, game_id, actor, command, played_by=None):
    """The refusal, after checking its code and that nothing was appended."""
    before = (await adjudicator.record(game_id)).last_seq
    with pytest.raises(RuleViolation) as refusal:
        await play(adjudicator, game_id, actor, command, played_by)
    assert refusal.value.code == code, refusal.value.message
    assert (await adjudicator.record(game_id)).last_seq == before      # nothing appended
    return refusal.value
