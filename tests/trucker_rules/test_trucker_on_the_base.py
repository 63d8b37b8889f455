"""Trucker on the engine base: what it declares (options, realtime round, free and platform commands),
that a building move costs no copy of the state, and that the pile's cards are redacted by their
declared secrecy."""
from __future__ import annotations

import pytest

from starbase_rules import FairRng, RuleViolation, fold
from trucker_rules import messages as m
from trucker_rules.game import GAME, Trucker
from trucker_rules.rules import decide_alone
from trucker_rules.state import BUILDING
from tests.trucker_rules.trucker_helpers import Table

OPTIONS = {"hourglass_seconds", "refuse_flawed_placements", "reserve_in_round_1", "round3_board",
           "lenient_inspection", "reuse_cards", "top_card_of_round_level", "lapped_ship_gives_up",
           "voluntary_give_up", "pirates_shared_roll", "stardust_from_rear", "lone_ship_skips_weakest",
           "half_value_rounding"}


def test_the_declaration_names_the_options_the_rounds_and_who_may_send_what():
    info = GAME.info
    assert (info.name, info.min_players, info.max_players) == ("trucker", 2, 4)
    assert {spec.key for spec in info.options} == OPTIONS
    assert info.option("round3_board").choices == ("III", "IIIa")
    assert info.option("hourglass_seconds").type == "float"
    assert info.realtime == {"building": "trucker"} and "GiveUp" in info.free_actions
    assert set(info.platform_commands) == {"StartBuilding", "TurnTimer", "CallTimeUp"}


@pytest.mark.parametrize("options, code", [
    ({"round3_board": "IV"}, "BAD_OPTION"), ({"hourglass_seconds": 0}, "BAD_OPTION"),
    ({"voluntary_give_up": 1}, "BAD_OPTION"), ({"nonsense": 1}, "UNKNOWN_OPTION"),
])
def test_a_table_the_declaration_forbids_is_refused(options, code):
    with pytest.raises(RuleViolation) as refused:
        GAME.setup(["ann", "bob"], options, FairRng(b"s"))
    assert refused.value.code == code


def test_every_option_is_recorded_with_its_default_in_the_setup_event():
    started = GAME.setup(["ann", "bob"], {"hourglass_seconds": 0.2}, FairRng(b"s"))[0]
    assert set(started.options) == OPTIONS and started.options["hourglass_seconds"] == 0.2
    assert started.options["half_value_rounding"] == "down"


def test_the_realtime_service_plays_building_only():
    table = Table()
    assert table.state.phase == BUILDING and GAME.realtime_service(table.state) == "trucker"
    table.state.phase = "repair"
    assert GAME.realtime_service(table.state) is None


class NoCopies(Trucker):
    def copy_state(self, state):
        raise AssertionError("a building move copied the state")


def test_a_building_move_copies_nothing_while_building_goes_on():
    table = Table()
    table.do("ann", m.StartBuilding(at=0.0))
    engine = NoCopies()
    [grabbed] = engine.decide(table.state, m.GrabFaceDown(), "ann", table.rng)
    state = fold(GAME, [grabbed], table.state)
    assert engine.decide(state, m.ReturnComponent(), "ann", table.rng)[0].type == "ComponentReturned"
    assert decide_alone(state, m.ReturnComponent(), "ann")[0].type == "ComponentReturned"
    with pytest.raises(RuleViolation) as refused:
        decide_alone(state, m.ReturnComponent(), "zed")
    assert refused.value.code == "NOT_A_PLAYER"


def test_the_clock_may_start_building_but_no_one_else_outside_the_table():
    table = Table()
    table.do(None, m.StartBuilding(at=0.0))
    table.refused(None, m.GrabFaceDown(), "NOT_A_PLAYER")
    table.refused("zed", m.TurnTimer(at=1000.0), "NOT_A_PLAYER")


def test_a_piles_cards_are_shown_to_the_looker_and_only_counted_for_the_others():
    taken = m.PileTaken(player="ann", pile=2, cards=["I-01", "I-02", "I-03"])
    assert GAME.redact(taken, "ann")["cards"] == ["I-01", "I-02", "I-03"]
    assert GAME.redact(taken, "bob")["cards"] == 3 and GAME.redact(taken, None)["cards"] == 3
    again = m.PileTaken(player="bob", pile=2)
    assert GAME.redact(again, "ann")["cards"] is None
