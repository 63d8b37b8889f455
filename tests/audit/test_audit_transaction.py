"""The audit re-runs the platform's own transaction (`starbase_core.transaction`), so what the adjudicator
refuses, the audit refuses in a stream; a command recorded in an equal form passes, another one fails."""
from __future__ import annotations

from starbase_core.audit import FAIL, PASS, audit_game
from starbase_rules.registry import get_game
from tests.audit.test_audit import edited, played, rechained  # noqa: F401  (`played` is a fixture)


def first_command(envelopes, type_):
    return next(i for i, e in enumerate(envelopes) if e.meta.get("command", {}).get("type") == type_)


def with_command(envelope, command):
    return edited(envelope, meta={**envelope.meta, "command": command})


def test_a_command_recorded_without_its_defaults_is_the_same_command(played):  # noqa: F811
    game_id, envelopes = played
    index = first_command(envelopes, "Draw")
    assert envelopes[index].meta["command"] == {"type": "Draw", "v": 1}
    envelopes[index] = with_command(envelopes[index], {"type": "Draw"})   # as a service's script may write it
    report = audit_game(game_id, rechained(envelopes), get_game)
    assert report.problems == [] and report.verdict == PASS


def test_a_recorded_command_swapped_for_another_fails_at_its_seq(played):  # noqa: F811
    game_id, envelopes = played
    index = first_command(envelopes, "Draw")
    envelopes[index] = with_command(envelopes[index], {"type": "Stand", "v": 1})
    report = audit_game(game_id, rechained(envelopes), get_game)
    assert report.verdict == FAIL
    assert any(f"seq {envelopes[index].seq}" in problem for problem in report.problems)


def test_a_command_forged_onto_someone_who_does_not_play_is_refused_as_the_adjudicator_would(played):  # noqa: F811
    game_id, envelopes = played
    index = first_command(envelopes, "Think")
    envelopes[index] = edited(envelopes[index], actor="mallory")
    report = audit_game(game_id, rechained(envelopes), get_game)
    assert report.verdict == FAIL
    assert any("NOT_A_PLAYER" in problem and "mallory" in problem for problem in report.problems)


def test_a_game_whose_players_the_engine_cannot_seat_fails_at_its_setup(played):  # noqa: F811
    game_id, envelopes = played
    created = envelopes[0]
    envelopes[0] = edited(created, data={**created.data, "players": ["ann", "bob", "cyd", "dee", "eve"]})
    report = audit_game(game_id, rechained(envelopes), get_game)
    assert report.verdict == FAIL
    assert any("seq 1" in problem and "testjack takes 1 to 4 players, not 5" in problem for problem in report.problems)
