"""Platform table options (the engine never sees them) and commands sent with the stream position their
sender decided on (`expected_seq`), over the in-memory store."""
from __future__ import annotations

import pytest

from adjudicator.service import Adjudicator
from starbase_core.gamestream import (
    DECISION_SECONDS, GAME_CREATED, PLATFORM_OPTIONS, engine_options, platform_option_problems,
)
from starbase_core.seeds import MemorySeedVault
from starbase_rules.contract import RuleViolation
from tests.support.in_memory import adjudicator, store  # noqa: F401 (fixtures)

PLAYERS = ["ann", "bob", "cyd"]


# ---- platform options -------------------------------------------------------------------------------

def test_engine_options_leave_out_the_platforms_own_and_keep_the_rest():
    options = {DECISION_SECONDS: 45, "difficulty": "hard"}
    assert DECISION_SECONDS in PLATFORM_OPTIONS
    assert engine_options(options) == {"difficulty": "hard"}
    assert options == {DECISION_SECONDS: 45, "difficulty": "hard"}   # the caller's dict is untouched


@pytest.mark.parametrize("value, ok", [
    (0, True), (30, True), (0.5, True),
    (-1, False), ("30", False), (True, False), (None, False), (float("nan"), False), (float("inf"), False),
])
def test_decision_seconds_must_be_a_number_of_seconds(value, ok):
    assert (platform_option_problems({DECISION_SECONDS: value}) == []) is ok


@pytest.mark.parametrize("game", ["stellar", "t2038"])
async def test_a_game_whose_engine_refuses_unknown_options_takes_a_table_with_a_clock(adjudicator, store, game):
    with pytest.raises(RuleViolation) as refused:   # the engine does refuse options it does not know
        await adjudicator.create_game("strict", game, PLAYERS, {"no_such_option": 1})
    assert refused.value.code in {"BAD_OPTION", "UNKNOWN_OPTION"}

    created = await adjudicator.create_game("g1", game, PLAYERS, {DECISION_SECONDS: 45})
    assert created[0].type == GAME_CREATED and created[0].data["options"] == {DECISION_SECONDS: 45}
    assert len(created) > 1   # the engine's setup ran
    record = await adjudicator.record("g1")
    assert record.options == {DECISION_SECONDS: 45} and record.engine.to_act(record.state)


async def test_engine_options_still_reach_the_engine_next_to_a_platform_option(adjudicator):
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.create_game("g1", "stellar", PLAYERS, {DECISION_SECONDS: 45, "difficulty": "nope"})
    assert refused.value.code == "BAD_OPTION"


@pytest.mark.parametrize("value", [-5, "soon", True])
async def test_a_bad_decision_time_is_refused_and_nothing_is_stored(adjudicator, store, value):
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.create_game("g1", "testjack", PLAYERS, {DECISION_SECONDS: value})
    assert refused.value.code == "BAD_OPTION" and DECISION_SECONDS in refused.value.message
    assert await store.read("game.g1") == []


# ---- expected stream positions ------------------------------------------------------------------

async def created(adjudicator) -> int:
    """A testjack game g1 (ann to act); the seq of its last envelope."""
    envelopes = await adjudicator.create_game("g1", "testjack", PLAYERS, {})
    return envelopes[-1].seq


async def test_a_command_at_the_current_position_is_decided(adjudicator):
    last = await created(adjudicator)
    drawn = await adjudicator.submit("g1", "ann", {"type": "Draw"}, "c1", expected_seq=last)
    assert drawn[0].seq == last + 1 and drawn[0].type == "CardDrawn"


async def test_a_command_decided_on_an_older_position_is_refused_and_appends_nothing(adjudicator, store):
    last = await created(adjudicator)
    await adjudicator.submit("g1", "ann", {"type": "Think"}, "c1")   # the game moves on (no effect, one envelope)
    before = await store.read("game.g1")
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.submit("g1", "ann", {"type": "Stand"}, "c2", expected_seq=last)
    assert refused.value.code == "STALE_POSITION" and str(last + 1) in refused.value.message
    assert await store.read("game.g1") == before
    # The command id was not used up: the same command at the current position goes through.
    stood = await adjudicator.submit("g1", "ann", {"type": "Stand"}, "c2", expected_seq=last + 1)
    assert stood[0].type == "Stood"


async def test_a_position_the_game_has_not_reached_is_refused(adjudicator, store):
    last = await created(adjudicator)
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.submit("g1", "ann", {"type": "Stand"}, "c1", expected_seq=last + 5)
    assert refused.value.code == "UNKNOWN_POSITION"
    assert (await store.read("game.g1"))[-1].seq == last


async def test_a_retried_command_id_gets_its_events_whatever_position_it_names(adjudicator):
    last = await created(adjudicator)
    first = await adjudicator.submit("g1", "ann", {"type": "Draw"}, "c1", expected_seq=last)
    assert await adjudicator.submit("g1", "ann", {"type": "Draw"}, "c1", expected_seq=last) == first


async def test_a_replica_whose_cache_is_behind_still_refuses_a_stale_position(store):
    vault = MemorySeedVault()
    first, second = Adjudicator(store, vault), Adjudicator(store, vault)
    last = await created(first)
    await first.record("g1")
    await second.record("g1")   # both replicas have cached the game at `last`
    await second.submit("g1", "ann", {"type": "Think"}, "c1")
    with pytest.raises(RuleViolation) as refused:   # first's cache says `last`; its append finds out
        await first.submit("g1", "ann", {"type": "Stand"}, "c2", expected_seq=last)
    assert refused.value.code == "STALE_POSITION"
    assert [e.command_id for e in await store.read("game.g1")].count("c2") == 0


async def test_a_replica_whose_cache_is_behind_catches_up_to_a_position_it_has_not_seen(store):
    vault = MemorySeedVault()
    first, second = Adjudicator(store, vault), Adjudicator(store, vault)
    await created(first)
    await first.record("g1")
    moved = await second.submit("g1", "ann", {"type": "Think"}, "c1")
    stood = await first.submit("g1", "ann", {"type": "Stand"}, "c2", expected_seq=moved[-1].seq)
    assert stood[0].seq == moved[-1].seq + 1 and stood[0].type == "Stood"
