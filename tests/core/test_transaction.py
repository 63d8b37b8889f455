"""The platform transaction (`starbase_core.transaction`), pure: the code the adjudicator writes with and
the audit re-runs. Games here are sealed in memory with `envelope.seal`, no store."""
from __future__ import annotations

import copy

import pytest

from starbase_core.envelope import GENESIS_HASH, seal
from starbase_core.gamestream import GAME_CREATED, GAME_ENDED, NO_EFFECT, ends_game, replay
from starbase_core.store import WrongExpectedSeq
from starbase_core.transaction import (
    REQUEST_ID, InvariantsBroken, TooBusy, check_players, decide_next, open_game, run_optimistically,
)
from starbase_rules.contract import RuleViolation
from starbase_rules.fair import FairRng, commitment
from tests.support.testjack import CardDrawn, Testjack

SEED = b"s" * 32
PLAYERS = ["ann", "bob"]


def new_game(engine=None, players=PLAYERS):
    engine = engine or Testjack()
    sealed = seal("game.g1", open_game(engine, players, {"decision_seconds": 5}, SEED),
                  last_seq=0, last_hash=GENESIS_HASH, command_id="create-g1")
    return replay("g1", sealed, lambda _name: engine)


def store(record, decision, command_id):
    """Seal a decision after the record, as the store would, and advance the record past it."""
    stored = seal("game.g1", decision.events, last_seq=record.last_seq, last_hash=record.last_hash,
                  command_id=command_id)
    record.advance(decision.state, stored)
    return stored


def test_a_game_opens_with_its_commitment_all_options_and_a_setup_that_sees_only_its_own():
    seen = {}

    class Recording(Testjack):
        def setup(self, players, options, rng):
            seen.update(options)
            return super().setup(players, options, rng)

    created, *setup = open_game(Recording(), PLAYERS, {"decision_seconds": 5, "speed": 2}, SEED)
    assert created.type == GAME_CREATED and created.meta == {"draw_end": 2, "platform": True}
    assert created.data == {"game": "testjack", "players": PLAYERS, "options": {"decision_seconds": 5, "speed": 2},
                            "commitment": commitment(SEED)}
    assert seen == {"speed": 2}
    rng = FairRng(SEED)
    assert [e.data.get("card") for e in setup if e.type == "CardDealt"] == [rng.randint(1, 10) for _ in PLAYERS]


@pytest.mark.parametrize("players, code", [([], "BAD_PLAYER_COUNT"), (["a"] * 2, "BAD_PLAYERS"),
                                           (["a", "b", "c", "d", "e"], "BAD_PLAYER_COUNT")])
def test_a_player_list_the_engine_cannot_seat_is_refused_naming_the_range(players, code):
    with pytest.raises(RuleViolation) as refused:
        check_players(Testjack(), players)
    assert refused.value.code == code
    if code == "BAD_PLAYER_COUNT":
        assert "1 to 4 players" in refused.value.message


def test_a_decision_wraps_the_engines_events_with_the_command_and_the_draw_counter():
    record = new_game()
    decision = decide_next(record, {"type": "Draw"}, "ann", SEED)
    rng = FairRng(SEED, start=record.draw_end)
    (drawn,) = [e for e in decision.events if e.type == "CardDrawn"]
    assert drawn.data["card"] == rng.randint(1, 10) and drawn.actor == "ann"
    assert drawn.meta == {"draw_end": rng.used, "command": {"type": "Draw", "v": 1}}
    assert decision.draw_end == rng.used and decision.outcome is None
    assert decision.state.hands["ann"][-1] == drawn.data["card"]


def test_a_command_with_no_event_is_recorded_as_having_had_no_effect():
    decision = decide_next(new_game(), {"type": "Think"}, "ann", SEED)
    assert [(e.type, e.meta) for e in decision.events] == [
        (NO_EFFECT, {"draw_end": 2, "platform": True, "command": {"type": "Think", "v": 1}})]


def test_the_command_that_ends_the_game_appends_game_ended_with_the_seed():
    record = new_game()
    store(record, decide_next(record, {"type": "Stand"}, "ann", SEED), "c1")
    decision = decide_next(record, {"type": "Stand"}, "bob", SEED)
    assert [e.type for e in decision.events] == ["Stood", GAME_ENDED]
    assert decision.outcome is not None and decision.events[-1].data["seed"] == SEED.hex()
    stored = store(record, decision, "c2")
    assert ends_game(stored[-1]) and record.ended == stored[-1].data
    with pytest.raises(RuleViolation) as refused:
        decide_next(record, {"type": "Think"}, "ann", SEED)
    assert refused.value.code == "GAME_OVER"


@pytest.mark.parametrize("actor, command, code", [
    ("zed", {"type": "Draw"}, "NOT_A_PLAYER"),
    ("bob", {"type": "Draw"}, "NOT_YOUR_TURN"),
    ("ann", {"type": "Fly"}, "MALFORMED_COMMAND"),
])
def test_a_refusal_changes_nothing(actor, command, code):
    record = new_game()
    before = copy.deepcopy(vars(record) | {"engine": None})
    with pytest.raises(RuleViolation) as refused:
        decide_next(record, command, actor, SEED)
    assert refused.value.code == code
    assert vars(record) | {"engine": None} == before


class Fastlane(Testjack):
    """Testjack whose second turn is played in real time by a service called "fastlane"."""

    def realtime_service(self, state):
        return "fastlane" if len(state.done) == 1 else None


def test_a_real_time_phase_is_decided_only_by_the_service_that_plays_it():
    record = new_game(Fastlane())
    store(record, decide_next(record, {"type": "Stand"}, "ann", SEED), "c1")
    for service in (None, "elsewhere"):
        with pytest.raises(RuleViolation) as refused:
            decide_next(record, {"type": "Stand"}, "bob", SEED, service=service)
        assert refused.value.code == "REALTIME_PHASE" and "fastlane" in refused.value.message
    decision = decide_next(record, {"type": "Stand"}, "bob", SEED, service="fastlane", request_id="bob:m1")
    assert decision.events[0].meta[REQUEST_ID] == "bob:m1" and decision.outcome is not None


def test_the_platform_itself_may_act_but_a_stranger_may_not():
    with pytest.raises(RuleViolation) as refused:
        decide_next(new_game(), {"type": "Think"}, "", SEED)
    assert refused.value.code == "NOT_A_PLAYER"
    # actor None (a timer) passes the platform's guard; testjack's own rules then refuse it.
    with pytest.raises(RuleViolation) as refused:
        decide_next(new_game(), {"type": "Think"}, None, SEED)
    assert refused.value.code == "NOT_YOUR_TURN"


def test_checked_invariants_name_the_event_that_broke_them():
    class Cheating(Testjack):
        def decide(self, state, command, actor, rng):
            return [CardDrawn(player=actor, card=11)]

    record = new_game(Cheating())
    assert decide_next(record, {"type": "Draw"}, "ann", SEED).state is record.state   # unchecked: the adjudicator
    with pytest.raises(InvariantsBroken) as broken:
        decide_next(new_game(Cheating()), {"type": "Draw"}, "ann", SEED, check_invariants=True)
    assert broken.value.event_type == "CardDrawn" and "outside 1-10" in str(broken.value)


async def test_the_retry_loop_decides_again_after_a_lost_race_and_gives_up_bounded():
    tries = []

    async def loses_twice():
        tries.append(1)
        if len(tries) <= 2:
            raise WrongExpectedSeq(len(tries), 0, "game.g1")
        return "stored"

    assert await run_optimistically(loses_twice, attempts=3) == "stored" and len(tries) == 3
    tries.clear()
    with pytest.raises(TooBusy):
        await run_optimistically(loses_twice, attempts=2)
    assert len(tries) == 2
