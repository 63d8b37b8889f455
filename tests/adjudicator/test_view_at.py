"""Review at a past position (`view_at`) and who owes a decision (`to_act`): read-only, never ahead of
the seq asked, everything once the game is over."""
from __future__ import annotations

import json
import random

import pytest

from adjudicator.service import Adjudicator
from starbase_core.seeds import MemorySeedVault
from starbase_core.snapshots import MemorySnapshotBucket, Snapshots
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.contract import RuleViolation
from starbase_rules.registry import get_game
from tests.support.in_memory import adjudicator, store  # noqa: F401 (fixtures)

PLAYERS = ["ann", "bob", "cyd"]


async def play_recording_views(adjudicator, game_id: str, seed: int = 5) -> dict[int, dict]:
    """Bots play testjack to the end; the live view of every player at every seq the game stood at."""
    bots, seen = random.Random(seed), {}
    for number in range(200):
        for player in PLAYERS:
            live = json.loads(json.dumps(await adjudicator.view(game_id, player)))   # as the wire has it
            seen.setdefault(live["seq"], {})[player] = live
        record = await adjudicator.record(game_id)
        if record.ended is not None:
            return seen
        actor = record.engine.to_act(record.state)[0]
        command = record.engine.bot_command(record.state, actor, bots)
        await adjudicator.submit(game_id, actor, command.model_dump(mode="json"), f"c{number}")
    raise AssertionError("the game did not end")


async def test_a_review_while_the_game_runs_is_what_that_viewer_saw_at_that_seq(adjudicator, store, game_id):
    await adjudicator.create_game(game_id, "testjack", PLAYERS, {})
    live_views: dict[int, dict] = {}
    bots = random.Random(2)
    for number in range(3):                     # a few moves, the game still running
        for player in PLAYERS:
            live = json.loads(json.dumps(await adjudicator.view(game_id, player)))
            live_views.setdefault(live["seq"], {})[player] = live
        record = await adjudicator.record(game_id)
        actor = record.engine.to_act(record.state)[0]
        await adjudicator.submit(game_id, actor, {"type": "Draw"} if bots.random() < 0.7 else {"type": "Think"},
                                 f"c{number}")
    before = await store.read(f"game.{game_id}")
    assert (await adjudicator.record(game_id)).ended is None

    for seq, views in sorted(live_views.items(), reverse=True):     # stepping back too
        for player, live in views.items():
            review = await adjudicator.view_at(game_id, seq, player)
            assert review["view"] == live["view"] and review["to_act"] == live["to_act"]
            assert review["game_over"] is False and "views" not in review
    assert await store.read(f"game.{game_id}") == before          # nothing was written


async def test_a_review_never_shows_a_card_drawn_after_its_seq(adjudicator, game_id):
    await adjudicator.create_game(game_id, "testjack", PLAYERS, {})
    record = await adjudicator.record(game_id)
    actor = record.engine.to_act(record.state)[0]
    at = record.last_seq
    hand_then = list(record.state.hands[actor])
    assert hand_then
    await adjudicator.submit(game_id, actor, {"type": "Draw"}, "draw-1")

    review = await adjudicator.view_at(game_id, at, actor)
    now = await adjudicator.view(game_id, actor)
    assert review["view"]["my_hand"] == hand_then and len(now["view"]["my_hand"]) == len(hand_then) + 1
    assert (await adjudicator.view_at(game_id, at, None))["view"]["my_hand"] is None      # a spectator


async def test_once_the_game_is_over_a_review_shows_every_seats_view(adjudicator, game_id):
    await adjudicator.create_game(game_id, "testjack", PLAYERS, {})
    seen = await play_recording_views(adjudicator, game_id)
    record = await adjudicator.record(game_id)
    last = record.last_seq
    middle = sorted(seen)[len(seen) // 2]

    review = await adjudicator.view_at(game_id, middle, None)
    assert review["game_over"] is True and review["seq"] == middle and review["last_seq"] == last
    assert review["view"]["my_hand"] is None
    assert {p: v["my_hand"] for p, v in review["views"].items()} == \
        {p: seen[middle][p]["view"]["my_hand"] for p in PLAYERS}
    final = await adjudicator.view_at(game_id, last, "ann")
    assert final["ended"] == record.ended and final["to_act"] == []


@pytest.mark.parametrize("seq", [0, 10_000])
async def test_a_position_the_game_does_not_have_is_refused(adjudicator, game_id, seq):
    await adjudicator.create_game(game_id, "testjack", PLAYERS, {})
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.view_at(game_id, seq, "ann")
    assert refused.value.code == "UNKNOWN_POSITION"


async def test_a_missing_game_is_not_found(adjudicator):
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.view_at("nothere", 1, None)
    assert refused.value.code == "GAME_NOT_FOUND"


async def test_to_act_names_who_owes_a_decision_and_nobody_once_over(adjudicator, game_id):
    await adjudicator.create_game(game_id, "testjack", PLAYERS, {})
    record = await adjudicator.record(game_id)
    assert await adjudicator.to_act(game_id) == {"game_id": game_id, "seq": record.last_seq,
                                                 "to_act": record.engine.to_act(record.state), "ended": False}
    await play_recording_views(adjudicator, game_id)
    over = await adjudicator.to_act(game_id)
    assert over["to_act"] == [] and over["ended"] is True


class CountingBucket(MemorySnapshotBucket):
    def __init__(self):
        super().__init__()
        self.gets = 0

    async def get(self, game_id):
        self.gets += 1
        return await super().get(game_id)


async def test_a_long_game_is_reviewed_from_its_snapshot_with_the_same_answer():
    store, vault, bucket = MemoryEventStore(), MemorySeedVault(), CountingBucket()
    writer = Adjudicator(store, vault, snapshots=Snapshots(bucket, b"k" * 32, get_game), snapshot_every=300)
    await writer.create_game("g1", "moon21", PLAYERS, {})
    bots = random.Random(4)
    while (record := await writer.record("g1")).last_seq < 420:
        actor = record.engine.to_act(record.state)[0]
        command = record.engine.bot_command(record.state, actor, bots)
        await writer.submit("g1", actor, command.model_dump(mode="json"), f"m{record.last_seq}")
    await writer.cache.settle()
    assert "g1" in bucket.saved
    target = (await writer.record("g1")).last_seq

    with_snapshot = Adjudicator(store, vault, snapshots=Snapshots(bucket, b"k" * 32, get_game))
    without = Adjudicator(store, vault)
    gets = bucket.gets
    assert await with_snapshot.view_at("g1", target, "ann") == await without.view_at("g1", target, "ann")
    assert bucket.gets > gets
