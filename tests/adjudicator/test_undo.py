"""Undo through the adjudicator: allowed, each refusal with its code, agreement in rated games, and the
state always equal to the fold of the stream without the commands taken back."""
from __future__ import annotations

import pytest

from adjudicator.service import Adjudicator
from starbase_core.audit import PASS, audit_game
from starbase_core.gamestream import replay
from starbase_core.seeds import MemorySeedVault
from starbase_core.snapshots import MemorySnapshotBucket, Snapshots, check_snapshot
from starbase_rules.registry import get_game
from tests.support import tally
from tests.support.in_memory import adjudicator, play, refused, store  # noqa: F401 (fixtures)

tally.register()
UNRATED = {"rated": False}


async def scores(adjudicator, game_id):
    return dict((await adjudicator.record(game_id)).state.scores)


async def test_undo_takes_back_my_last_commands_and_the_state_is_the_fold_without_them(adjudicator, store):
    await adjudicator.create_game("u", "tally", ["ann", "bob"], UNRATED)
    await play(adjudicator, "u", "ann", {"type": "Add", "points": 1})
    await play(adjudicator, "u", "ann", {"type": "Add", "points": 2})
    await play(adjudicator, "u", "ann", {"type": "Add", "points": 3})
    assert (await scores(adjudicator, "u"))["ann"] == 6

    undone = await play(adjudicator, "u", "ann", {"type": "Undo"})
    assert [e.type for e in undone] == ["CommandsUndone"] and undone[0].meta["platform"] is True
    assert undone[0].data == {"player": "ann", "first_seq": undone[0].seq - 1, "last_seq": undone[0].seq - 1,
                              "steps": 1}
    assert (await scores(adjudicator, "u"))["ann"] == 3
    await play(adjudicator, "u", "ann", {"type": "Undo", "count": 2})
    assert (await scores(adjudicator, "u"))["ann"] == 0
    await refused("UNDO_NOTHING", adjudicator, "u", "ann", {"type": "Undo"})

    await play(adjudicator, "u", "ann", {"type": "Add", "points": 2})
    stream = await store.read("game.u")
    assert replay("u", stream, get_game).state.scores == await scores(adjudicator, "u") == {"ann": 2, "bob": 0}
    # A fresh replica (no cache) folds the same; the audit re-runs every undo.
    fresh = Adjudicator(store, MemorySeedVault())
    assert (await fresh.record("u")).state.scores == {"ann": 2, "bob": 0}
    await play(adjudicator, "u", "ann", {"type": "Fold"})
    await play(adjudicator, "u", "bob", {"type": "Resign"})
    assert audit_game("u", await store.read("game.u"), get_game).verdict == PASS


async def test_each_refusal_has_its_own_code_and_appends_nothing(adjudicator):
    await adjudicator.create_game("r", "tally", ["ann", "bob"], UNRATED)
    await refused("UNDO_NOTHING", adjudicator, "r", "ann", {"type": "Undo"})
    await play(adjudicator, "r", "ann", {"type": "Add", "points": 1})
    await refused("UNDO_NOTHING", adjudicator, "r", "ann", {"type": "Undo", "count": 2})   # only one there
    await play(adjudicator, "r", "ann", {"type": "Roll"})
    await refused("UNDO_AFTER_DRAW", adjudicator, "r", "ann", {"type": "Undo"})
    await play(adjudicator, "r", "ann", {"type": "Peek"})
    await refused("UNDO_REVEALED", adjudicator, "r", "ann", {"type": "Undo"})
    await play(adjudicator, "r", "ann", {"type": "EndTurn"})
    await play(adjudicator, "r", "bob", {"type": "Add", "points": 1})
    await refused("UNDO_OTHERS_ACTED", adjudicator, "r", "ann", {"type": "Undo"})
    await refused("UNDO_OTHERS_ACTED", adjudicator, "r", "bob", {"type": "Undo", "count": 2})
    await refused("NO_UNDO_REQUEST", adjudicator, "r", "ann", {"type": "AgreeUndo"})
    await play(adjudicator, "r", "bob", {"type": "Undo"})              # bob's own: fine
    await play(adjudicator, "r", "bob", {"type": "Add", "points": 2})
    # A clock's default is not the player's own command: it cannot be undone by them.
    await play(adjudicator, "r", "bob", {"type": "EndTurn"}, played_by="clock")
    await refused("UNDO_OTHERS_ACTED", adjudicator, "r", "bob", {"type": "Undo"})


async def test_a_resignation_closes_the_past(adjudicator):
    await adjudicator.create_game("c", "tally", ["ann", "bob", "cyd"], UNRATED)
    await play(adjudicator, "c", "ann", {"type": "Add", "points": 1})
    await play(adjudicator, "c", "cyd", {"type": "Resign"})
    await refused("UNDO_NOTHING", adjudicator, "c", "ann", {"type": "Undo"})


async def test_in_a_rated_game_the_other_people_must_agree_bots_agree(adjudicator, store):
    await adjudicator.create_game("g", "tally", ["ann", "bob", "cyd", "b1"], {"bots": {"b1": "normal"}})
    await play(adjudicator, "g", "ann", {"type": "Add", "points": 3})
    asked = await play(adjudicator, "g", "ann", {"type": "Undo"})
    assert asked[0].type == "UndoRequested" and asked[0].data["awaiting"] == ["bob", "cyd"]
    assert (await scores(adjudicator, "g"))["ann"] == 3            # nothing undone yet
    assert (await adjudicator.view("g", "bob"))["undo_request"]["awaiting"] == ["bob", "cyd"]
    await refused("UNDO_PENDING", adjudicator, "g", "ann", {"type": "Undo"})
    await refused("NOT_ASKED", adjudicator, "g", "ann", {"type": "AgreeUndo"})
    await refused("NOT_IN_CONTROL", adjudicator, "g", "b1", {"type": "AgreeUndo"})

    assert [e.type for e in await play(adjudicator, "g", "bob", {"type": "AgreeUndo"})] == ["UndoAgreed"]
    await refused("NOT_ASKED", adjudicator, "g", "bob", {"type": "AgreeUndo"})
    last = await play(adjudicator, "g", "cyd", {"type": "AgreeUndo"})
    assert [e.type for e in last] == ["UndoAgreed", "CommandsUndone"] and last[1].data["player"] == "ann"
    assert (await scores(adjudicator, "g"))["ann"] == 0

    # Refused: the same commands may not be asked for again.
    await play(adjudicator, "g", "ann", {"type": "Add", "points": 2})
    await play(adjudicator, "g", "ann", {"type": "Undo"})
    assert [e.type for e in await play(adjudicator, "g", "cyd", {"type": "RefuseUndo"})] == ["UndoRefused"]
    await refused("UNDO_NOT_AGREED", adjudicator, "g", "ann", {"type": "Undo"})
    assert (await scores(adjudicator, "g"))["ann"] == 2

    # A game move lapses a pending request.
    await play(adjudicator, "g", "ann", {"type": "Add", "points": 1})
    await play(adjudicator, "g", "ann", {"type": "Undo"})
    await play(adjudicator, "g", "ann", {"type": "EndTurn"})
    await refused("NO_UNDO_REQUEST", adjudicator, "g", "bob", {"type": "AgreeUndo"})
    await play(adjudicator, "g", "bob", {"type": "Resign"})
    await play(adjudicator, "g", "cyd", {"type": "Resign"})
    assert audit_game("g", await store.read("game.g"), get_game).verdict == PASS


async def test_an_undo_reaching_back_past_a_snapshot_folds_the_stream_again(store):
    vault = MemorySeedVault()
    snapshots = await Snapshots.open(MemorySnapshotBucket(), vault, get_game)
    writer = Adjudicator(store, vault, snapshots=snapshots, snapshot_every=3)
    await writer.create_game("s", "tally", ["ann", "bob"], {**UNRATED, "rounds": 50})
    for points in (1, 2, 3, 1, 2):
        await play(writer, "s", "ann", {"type": "Add", "points": points})
    await writer.close()
    blob = await snapshots.bucket.get("s")
    assert blob is not None and check_snapshot(blob, await store.read("game.s"), get_game) == []
    await play(writer, "s", "ann", {"type": "Undo", "count": 4})

    reader = Adjudicator(store, vault, snapshots=snapshots, snapshot_every=3)
    assert (await reader.record("s")).state.scores == {"ann": 1, "bob": 0}
    await play(reader, "s", "ann", {"type": "Add", "points": 3})
    assert (await writer.record("s")).state.scores == {"ann": 4, "bob": 0}   # caught up across the undo
    await reader.close()
    blob = await snapshots.bucket.get("s")
    assert check_snapshot(blob, await store.read("game.s"), get_game) == []


async def test_an_undo_answers_no_turn_and_the_next_command_does_again(adjudicator):
    await adjudicator.create_game("t", "tally", ["ann", "bob"], UNRATED)
    added, turn = await adjudicator.submit_with_turn("t", "ann", {"type": "Add", "points": 1}, "a1")
    assert turn == {"seq": added[-1].seq, "to_act": (await adjudicator.to_act("t"))["to_act"], "ended": False}
    undone, turn = await adjudicator.submit_with_turn("t", "ann", {"type": "Undo"}, "u1")
    assert undone[0].type == "CommandsUndone" and turn is None       # the game is folded again first
    added, turn = await adjudicator.submit_with_turn("t", "ann", {"type": "Add", "points": 2}, "a2")
    assert turn == {"seq": added[-1].seq, "to_act": (await adjudicator.to_act("t"))["to_act"], "ended": False}
