"""The audit: a played game passes; any alteration, however careful, fails it."""
from __future__ import annotations

import json

import pytest

from adjudicator.service import Adjudicator
from starbase_core.audit import FAIL, PASS, UNFINISHED, audit_game
from starbase_core.envelope import GENESIS_HASH, Envelope, hash_of
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.fair import commitment
from starbase_rules.registry import get_game
from tests.support import testjack
from tests.support.play import play_to_end

testjack.register()
PLAYERS = ["ann", "bob", "cyd"]


@pytest.fixture
async def played(new_name):
    """A whole game of testjack played through the adjudicator: (game id, its envelopes)."""
    store, game_id = MemoryEventStore(), new_name("g")
    adjudicator = Adjudicator(store, MemorySeedVault())
    await adjudicator.create_game(game_id, "testjack", PLAYERS, {})
    await adjudicator.submit(game_id, "ann", {"type": "Think"}, "thinking")   # a command with no effect
    await play_to_end(adjudicator, store, game_id, seed=7)
    return game_id, await store.read(f"game.{game_id}")


def rechained(envelopes: list[Envelope]) -> list[Envelope]:
    """What a careful forger does after editing: recompute every hash so the chain holds again."""
    fixed, prev = [], GENESIS_HASH
    for envelope in envelopes:
        body = envelope.model_dump(exclude={"hash"}) | {"prev_hash": prev}
        fixed.append(Envelope(**body, hash=hash_of(body)))
        prev = fixed[-1].hash
    return fixed


def edited(envelope: Envelope, **changes) -> Envelope:
    return envelope.model_copy(update=changes)


def first_of(envelopes, type_):
    return next(i for i, e in enumerate(envelopes) if e.type == type_)


def test_a_played_game_passes_the_audit(played):
    game_id, envelopes = played
    report = audit_game(game_id, envelopes, get_game)
    assert report.problems == [] and report.verdict == PASS
    assert "VERDICT: PASS" in report.render()


def test_an_altered_event_breaks_the_chain(played):
    game_id, envelopes = played
    index = first_of(envelopes, "CardDrawn")
    card = envelopes[index].data["card"]
    envelopes[index] = edited(envelopes[index], data={**envelopes[index].data, "card": card % 10 + 1})
    report = audit_game(game_id, envelopes, get_game)
    assert report.verdict == FAIL
    assert any("altered" in problem for problem in report.problems)


def test_a_dropped_event_breaks_the_chain(played):
    game_id, envelopes = played
    del envelopes[3]
    assert audit_game(game_id, envelopes, get_game).verdict == FAIL


def test_a_rechained_forgery_of_a_draw_is_caught_by_re_running_the_rules(played):
    game_id, envelopes = played
    index = first_of(envelopes, "CardDrawn")
    card = envelopes[index].data["card"]
    envelopes[index] = edited(envelopes[index], data={**envelopes[index].data, "card": card % 10 + 1})
    report = audit_game(game_id, rechained(envelopes), get_game)
    assert report.verdict == FAIL
    assert any(f"seq {envelopes[index].seq}" in problem for problem in report.problems)


def test_a_forged_seed_is_caught_by_the_commitment(played):
    game_id, envelopes = played
    ended = envelopes[-1]
    envelopes[-1] = edited(ended, data={**ended.data, "seed": ("00" * 32)})
    report = audit_game(game_id, rechained(envelopes), get_game)
    assert report.verdict == FAIL
    assert any("commitment" in problem for problem in report.problems)


def test_a_forged_seed_with_a_matching_forged_commitment_fails_on_the_draws(played):
    game_id, envelopes = played
    fake = bytes(32)
    envelopes[0] = edited(envelopes[0], data={**envelopes[0].data, "commitment": commitment(fake)})
    envelopes[-1] = edited(envelopes[-1], data={**envelopes[-1].data, "seed": fake.hex()})
    assert audit_game(game_id, rechained(envelopes), get_game).verdict == FAIL


def test_a_forged_standing_is_caught(played):
    game_id, envelopes = played
    ended = envelopes[-1]
    standings = [dict(s, score=s["score"] + 1) for s in ended.data["standings"]]
    envelopes[-1] = edited(ended, data={**ended.data, "standings": standings})
    assert audit_game(game_id, rechained(envelopes), get_game).verdict == FAIL


def test_an_event_without_a_command_is_caught(played):
    game_id, envelopes = played
    index = first_of(envelopes, "CardDrawn")
    envelopes[index] = edited(envelopes[index], meta={"draw_end": envelopes[index].meta["draw_end"]},
                              command_id="forged")
    report = audit_game(game_id, rechained(envelopes), get_game)
    assert report.verdict == FAIL


def test_a_game_in_progress_is_reported_unfinished_not_passed(played):
    game_id, envelopes = played
    report = audit_game(game_id, envelopes[:-3], get_game)
    assert report.verdict == UNFINISHED and report.problems == []


def test_a_command_with_no_effect_is_in_the_stream_for_the_audit(played):
    _, envelopes = played
    marker = next(e for e in envelopes if e.command_id == "thinking")
    assert marker.type == "CommandHadNoEffect" and marker.meta["command"] == {"type": "Think", "v": 1}
    assert json.loads(marker.model_dump_json())["data"] == {}
