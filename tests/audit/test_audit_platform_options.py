"""The audit of a game whose table has a platform option (`decision_seconds`) next to the engine's own:
the re-run gives the engine what the adjudicator gave it (its own options only), so the audit is exact."""
from __future__ import annotations

import pytest

from adjudicator.service import Adjudicator
from starbase_core.audit import FAIL, PASS, audit_game
from starbase_core.gamestream import DECISION_SECONDS
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.registry import get_game
from tests.audit.test_audit import edited, rechained
from tests.support.play import play_to_end

OPTIONS = {DECISION_SECONDS: 45, "difficulty": "hostile"}


@pytest.fixture
async def stellar_game():
    """A whole Stellar Ventures game (an engine that refuses options it does not know), with a clock."""
    store = MemoryEventStore()
    adjudicator = Adjudicator(store, MemorySeedVault())
    await adjudicator.create_game("s1", "stellar", ["ann", "bob", "cyd"], OPTIONS)
    await play_to_end(adjudicator, store, "s1", seed=11)
    return await store.read("game.s1")


async def test_a_game_with_a_decision_time_passes_the_audit(stellar_game):
    assert stellar_game[0].data["options"] == OPTIONS
    report = audit_game("s1", stellar_game, get_game)
    assert report.problems == [] and report.verdict == PASS


async def test_the_engines_own_options_are_still_checked_by_the_re_run(stellar_game):
    envelopes = list(stellar_game)
    forged = {**OPTIONS, "difficulty": "friendly"}    # a gentler table than the one that was played
    envelopes[0] = edited(envelopes[0], data={**envelopes[0].data, "options": forged})
    report = audit_game("s1", rechained(envelopes), get_game)
    assert report.verdict == FAIL and any("setup" in p or "seq 2" in p for p in report.problems)
