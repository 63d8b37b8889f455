"""The clock's rule, as pure functions: which limit a table has, and when a decision is due."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from clock.decision import command_id, decision_limit, due_at, is_due, parse_time
from starbase_core.envelope import COMMAND_ID

SINCE = datetime(2026, 11, 29, 22, 0, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("options, default, limit", [
    ({"decision_seconds": 30}, 120, 30.0),      # the table's option wins
    ({"decision_seconds": 0.5}, 0, 0.5),
    ({}, 120, 120.0),                           # no option: the service default
    ({}, 0, None),                              # no option and no default: no clock
    ({"decision_seconds": 0}, 120, None),       # 0 switches the clock off for that table
    ({"decision_seconds": -5}, 120, None),
    ({"decision_seconds": "45"}, 120, 45.0),
    ({"decision_seconds": "soon"}, 120, None),
    ({"decision_seconds": None}, 120, None),
    ({"decision_seconds": True}, 120, None),
])
def test_a_table_limit_comes_from_its_option_else_the_default(options, default, limit):
    assert decision_limit(options, default) == limit


def test_a_decision_is_due_once_its_limit_has_passed_and_not_before():
    limit = 30.0
    assert due_at(SINCE, limit) == SINCE + timedelta(seconds=30)
    assert not is_due(SINCE, limit, SINCE)
    assert not is_due(SINCE, limit, SINCE + timedelta(seconds=29.999))
    assert is_due(SINCE, limit, SINCE + timedelta(seconds=30))
    assert is_due(SINCE, limit, SINCE + timedelta(hours=3))


def test_a_table_without_a_limit_is_never_due():
    assert due_at(SINCE, None) is None
    assert not is_due(SINCE, None, SINCE + timedelta(days=365))


def test_envelope_times_are_read_as_utc():
    assert parse_time("2026-11-29T22:00:00.000000Z") == SINCE
    assert parse_time("2026-11-29T22:00:00") == SINCE


def test_the_command_id_names_the_owed_decision_and_is_a_valid_id():
    assert command_id(7, "ann") == command_id(7, "ann") == "clock:7:ann"
    assert command_id(8, "ann") != command_id(7, "ann") != command_id(7, "bob")
    odd = command_id(7, "Ann Marie ☄")
    assert COMMAND_ID.match(odd) and odd.startswith("clock:7:") and odd != command_id(7, "Ann Marie")
