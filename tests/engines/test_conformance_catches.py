"""The conformance suite fails on an engine that breaks what it checks: each check against a copy of
Tiny Counters broken in that one way."""
from __future__ import annotations

import pytest

from tests.engines import conformance
from tests.engines import test_conformance as suite

CASES = [
    ("LISTS_AN_ILLEGAL_TAKE", suite.test_every_listed_action_parses_and_is_accepted),
    ("MUTATES_ITS_INPUT", suite.test_decide_leaves_its_input_as_it_was),
    ("CHANGES_STATE_THEN_REFUSES", suite.test_a_refused_command_changes_nothing_and_says_why),
    ("ANSWERS_STRANGERS_WRONGLY", suite.test_a_refused_command_changes_nothing_and_says_why),
    ("SHOWS_EVERY_LUCKY_NUMBER", suite.test_a_view_does_not_depend_on_what_that_viewer_may_not_see),
    ("REDACTS_NOTHING", suite.test_redaction_blanks_exactly_the_declared_secrets),
    ("OFFERS_THE_NEXT_PLAYER_A_TURN", suite.test_to_act_and_legal_actions_agree),
    ("MISREADS_ITS_EVENTS", suite.test_events_round_trip_through_json_and_refold_to_the_same_state),
    ("DEFAULTS_TO_AN_ILLEGAL_TAKE", suite.test_the_clocks_default_and_the_bots_commands_are_accepted),
]


@pytest.mark.parametrize("broken, check", CASES, ids=[case[0].lower() for case in CASES])
def test_the_check_fails_on_an_engine_broken_that_way(monkeypatch, broken, check):
    name = f"broken-{broken.lower()}"
    monkeypatch.setitem(conformance.SUITE, name, f"tests.engines.broken_games:{broken}")
    with pytest.raises(AssertionError):
        check(name)


def test_the_same_checks_pass_on_the_example_game():
    for _, check in CASES:
        check("tiny")
