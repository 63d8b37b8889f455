"""The pure rules around seats: the standings of a game ended by resignations, what counts as a forced
move, and a record that meets an undo of what it folded."""
from __future__ import annotations

import pytest

from starbase_core.envelope import seal
from starbase_core.forced import forced_command
from starbase_core.gamestream import RefoldNeeded, game_created, platform_event, replay, wrap
from starbase_core.seats import SeatControl, resignation_standings
from starbase_rules.contract import Command
from tests.support import tally
from tests.support.tally import GAME as TALLY, Added, Pass, Seated, State


def ranks(outcome):
    return [(s.player, s.rank, s.score) for s in outcome.standings]


def test_those_who_stay_share_first_place_and_the_last_to_resign_comes_next():
    assert ranks(resignation_standings(["ann", "bob"], ["ann"])) == [("bob", 1, 0), ("ann", 2, 0)]
    assert ranks(resignation_standings(["ann", "bob", "cyd", "dee"], ["bob", "dee"])) == [
        ("ann", 1, 0), ("cyd", 1, 0), ("dee", 3, 0), ("bob", 4, 0)]
    assert resignation_standings(["a", "b"], ["a"]).reason == "resigned"


def test_too_few_people_is_fewer_than_two_or_than_there_were():
    two = SeatControl.opening(["ann", "bob"], {})
    two.resign("ann", "ann", "normal")
    assert two.too_few_people()
    three = SeatControl.opening(["ann", "bob", "cyd"], {})
    three.resign("ann", "ann", "normal")
    assert not three.too_few_people()
    alone = SeatControl.opening(["ann", "b1"], {"b1": "easy"})
    assert alone.humans_at_start == 1 and not alone.too_few_people()
    alone.resign("ann", "ann", "normal")
    assert alone.too_few_people()


def folded_state() -> State:
    return State(players=["ann", "bob"], scores={"ann": 0, "bob": 0}, folded=["ann"])


def test_a_single_legal_action_without_parameters_is_forced_and_none_other_is():
    assert forced_command(TALLY, folded_state(), "ann") == {"type": "Pass"}
    assert forced_command(TALLY, folded_state(), "bob") is None          # not bob's turn: no action

    class OneBid:
        def legal_actions(self, state, player):
            return [{"type": "Bid", "amount": 0}]                         # may stand for a choice
    assert forced_command(OneBid(), None, "ann") is None


def test_an_engines_own_forced_command_wins_over_the_rule():
    class Says:
        def forced_command(self, state, player):
            return Pass() if player == "bob" else None

        def legal_actions(self, state, player):
            raise AssertionError("not asked when the engine says it itself")
    assert forced_command(Says(), None, "bob") == {"type": "Pass"}
    assert forced_command(Says(), None, "ann") is None


def test_a_record_meeting_an_undo_of_what_it_folded_refuses_before_changing_anything():
    tally.register()
    created = game_created("tally", ["ann", "bob"], {}, "c" * 64, 0)
    stream = seal("game.x", [created, *wrap([Seated(players=["ann", "bob"], rounds=3)], actor=None, draw_end=0)],
                  last_seq=0, last_hash="0" * 64, command_id="create")
    add = seal("game.x", wrap([Added(player="ann", points=2)], actor="ann", draw_end=0,
                              command={"type": "Add", "points": 2}),
               last_seq=2, last_hash=stream[-1].hash, command_id="c1")
    undo = seal("game.x", [platform_event("CommandsUndone", {"player": "ann", "first_seq": 3, "last_seq": 3,
                                                             "steps": 1}, actor="ann", draw_end=0)],
                last_seq=3, last_hash=add[-1].hash, command_id="c2")
    record = replay("x", stream + add, lambda _name: TALLY)
    assert record.state.scores == {"ann": 2, "bob": 0}
    with pytest.raises(RefoldNeeded):
        record.apply(undo)
    assert record.last_seq == 3 and record.state.scores["ann"] == 2
    whole = replay("x", stream + add + undo, lambda _name: TALLY)
    assert whole.state.scores == {"ann": 0, "bob": 0} and whole.events == 1 and whole.last_seq == 4


def test_commands_are_the_platforms_names_no_engine_takes():
    from starbase_core.platform_commands import PLATFORM_COMMANDS
    from starbase_rules.contract import RuleViolation
    from starbase_rules.registry import ENGINES, get_game
    for name in ("moon21", "t2038", "stellar", "trucker"):
        assert name in ENGINES
        for command in PLATFORM_COMMANDS:
            with pytest.raises(RuleViolation) as refused:
                get_game(name).parse_command({"type": command})
            assert refused.value.code == "MALFORMED_COMMAND"
    assert issubclass(Pass, Command)
