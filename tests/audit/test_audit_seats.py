"""The audit re-runs resignations, substitutions, bot moves, forced moves and undos, and fails any of them
tampered with (even with the hash chain recomputed)."""
from __future__ import annotations

import itertools

import pytest

from adjudicator.service import Adjudicator
from starbase_core.audit import FAIL, PASS, audit_game
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.registry import get_game
from tests.audit.test_audit import edited, rechained
from tests.support import tally

tally.register()
ids = itertools.count()


@pytest.fixture
async def eventful(new_name):
    """A game of tally with every platform command: (game id, its envelopes)."""
    store, game_id = MemoryEventStore(), new_name("g")
    adjudicator = Adjudicator(store, MemorySeedVault())

    async def play(actor, command, played_by=None):
        return await adjudicator.submit(game_id, actor, command, f"c{next(ids)}", played_by=played_by)

    await adjudicator.create_game(game_id, "tally", ["ann", "bob", "cyd", "b1"],
                                  {"bots": {"b1": "easy"}, "rated": False})
    await play("ann", {"type": "Add", "points": 3})
    await play("ann", {"type": "Add", "points": 1})
    await play("ann", {"type": "Undo"})                                  # back to 3
    await play("ann", {"type": "Fold"})
    await play("bob", {"type": "Resign"})                                # a bot plays bob's seat
    await play("bob", {"type": "Add", "points": 2}, played_by="bot:normal")
    await play("bob", {"type": "TakeSeat"}, played_by="dan")             # a substitute takes it
    await play("bob", {"type": "EndTurn"}, played_by="dan")
    await play("cyd", {"type": "EndTurn"}, played_by="clock")
    await play("b1", {"type": "EndTurn"}, played_by="bot:easy")
    await play("ann", {"type": "Pass"}, played_by="platform")           # ann folded: forced
    await play("cyd", {"type": "Resign"})
    await play("ann", {"type": "Resign"})                                # one person left (dan): over
    envelopes = await store.read(f"game.{game_id}")
    assert envelopes[-1].type == "GameEnded" and envelopes[-1].data["reason"] == "resigned"
    return game_id, envelopes


def index_of(envelopes, **wanted):
    return next(i for i, e in enumerate(envelopes)
                if all(e.meta.get(k) == v if k in ("played_by",) else getattr(e, k) == v for k, v in wanted.items()))


def test_a_game_with_every_platform_command_passes(eventful):
    game_id, envelopes = eventful
    report = audit_game(game_id, envelopes, get_game)
    assert report.problems == [] and report.verdict == PASS


def fails_at(eventful, index, **changes):
    game_id, envelopes = eventful
    envelopes = list(envelopes)
    envelopes[index] = edited(envelopes[index], **changes)
    report = audit_game(game_id, rechained(envelopes), get_game)
    assert report.verdict == FAIL
    return " ".join(report.problems)


def test_a_bot_move_claimed_for_a_seat_the_bot_does_not_hold_fails(eventful):
    _, envelopes = eventful
    i = index_of(envelopes, played_by="bot:easy")
    assert "NOT_IN_CONTROL" in fails_at(eventful, i, meta={**envelopes[i].meta, "played_by": "bot:strong"})


def test_a_move_passed_off_as_the_platforms_that_was_not_forced_fails(eventful):
    _, envelopes = eventful
    i = index_of(envelopes, played_by="clock")
    assert "NOT_FORCED" in fails_at(eventful, i, meta={**envelopes[i].meta, "played_by": "platform"})


def test_a_substitutes_move_recorded_as_the_resigned_players_fails(eventful):
    _, envelopes = eventful
    i = index_of(envelopes, played_by="dan", type="TurnEnded")
    meta = {k: v for k, v in envelopes[i].meta.items() if k != "played_by"}
    assert "NOT_IN_CONTROL" in fails_at(eventful, i, meta=meta)


def test_an_undo_that_names_other_seqs_fails(eventful):
    _, envelopes = eventful
    i = index_of(envelopes, type="CommandsUndone")
    data = {**envelopes[i].data, "first_seq": envelopes[i].data["first_seq"] - 1}
    assert f"seq {envelopes[i].seq}" in fails_at(eventful, i, data=data)


def test_a_resignation_removed_makes_the_bots_move_fail(eventful):
    _, envelopes = eventful
    i = index_of(envelopes, type="PlayerResigned")
    data = {**envelopes[i].data, "player": "cyd"}
    assert "PlayerResigned" in fails_at(eventful, i, data=data)


def test_standings_of_a_resigned_game_other_than_the_rules_fail(eventful):
    _, envelopes = eventful
    ended = envelopes[-1]
    standings = [dict(s, rank=1) for s in ended.data["standings"]]
    assert "GameEnded" in fails_at(eventful, len(envelopes) - 1, data={**ended.data, "standings": standings})
