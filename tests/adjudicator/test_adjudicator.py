"""The adjudicator over the in-memory store: creating games, deciding commands, fair chance, views."""
from __future__ import annotations

import json

import pytest

from adjudicator.service import Adjudicator
from starbase_core.envelope import chain_problems
from starbase_core.gamestream import GAME_CREATED, NO_EFFECT, ends_game, is_platform, redact
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.contract import RuleViolation
from starbase_rules.fair import FairRng, commitment
from tests.support.play import play_to_end
from tests.support.testjack import GAME as TESTJACK

PLAYERS = ["ann", "bob", "cyd"]


@pytest.fixture
def store():
    return MemoryEventStore()


@pytest.fixture
def vault():
    return MemorySeedVault()


@pytest.fixture
def adjudicator(store, vault):
    return Adjudicator(store, vault)


async def started(adjudicator, game_id):
    await adjudicator.create_game(game_id, "testjack", PLAYERS, {})
    return game_id


async def test_a_new_game_starts_with_its_commitment_then_the_setup_draws(adjudicator, vault, game_id):
    created = await adjudicator.create_game(game_id, "testjack", PLAYERS, {"speed": "slow"})
    seed = await vault.get(game_id)
    first = created[0]
    assert first.type == GAME_CREATED and is_platform(first) and first.seq == 1
    assert first.data == {"game": "testjack", "players": PLAYERS, "options": {"speed": "slow"},
                          "commitment": commitment(seed)}
    rng = FairRng(seed)
    dealt = [e.data["card"] for e in created if e.type == "CardDealt"]
    assert dealt == [rng.randint(1, 10) for _ in PLAYERS]
    assert {e.meta["draw_end"] for e in created} == {rng.used}
    assert chain_problems(created, stream=f"game.{game_id}") == []


async def test_a_game_id_is_created_once_and_a_retried_create_returns_the_same_events(adjudicator, game_id):
    first = await adjudicator.create_game(game_id, "testjack", PLAYERS, {}, command_id="create-1")
    assert await adjudicator.create_game(game_id, "testjack", PLAYERS, {}, command_id="create-1") == first
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.create_game(game_id, "testjack", ["x"], {}, command_id="create-2")
    assert refused.value.code == "GAME_EXISTS"


@pytest.mark.parametrize("game, players, options, code", [
    ("nosuchgame", PLAYERS, {}, "UNKNOWN_GAME"),
    ("testjack", [], {}, "BAD_PLAYER_COUNT"),
    ("testjack", ["a", "b", "c", "d", "e"], {}, "BAD_PLAYER_COUNT"),
    ("testjack", ["a", "a"], {}, "BAD_PLAYERS"),
    ("testjack", PLAYERS, {"refuse": True}, "BAD_OPTIONS"),
])
async def test_a_refused_creation_stores_nothing(adjudicator, store, game_id, game, players, options, code):
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.create_game(game_id, game, players, options)
    assert refused.value.code == code
    assert await store.read(f"game.{game_id}") == []


async def test_a_command_appends_the_engines_events_with_the_command_and_the_draw_counter(
        adjudicator, vault, game_id):
    created = await adjudicator.create_game(game_id, "testjack", PLAYERS, {})
    drawn = await adjudicator.submit(game_id, "ann", {"type": "Draw"}, "c1")
    assert drawn[0].type == "CardDrawn" and drawn[0].actor == "ann" and drawn[0].command_id == "c1"
    assert drawn[0].meta["command"] == {"type": "Draw", "v": 1}
    rng = FairRng(await vault.get(game_id), start=created[-1].meta["draw_end"])
    assert drawn[0].data["card"] == rng.randint(1, 10)
    assert drawn[-1].meta["draw_end"] == rng.used
    stood = await adjudicator.submit(game_id, "ann", {"type": "Stand"}, "c2")
    assert [e.type for e in stood] == ["Stood"] and stood[0].meta["draw_end"] == rng.used


async def test_a_refused_command_appends_nothing(adjudicator, store, game_id):
    await started(adjudicator, game_id)
    before = await store.read(f"game.{game_id}")
    for actor, command, code in [
        ("bob", {"type": "Draw"}, "NOT_YOUR_TURN"),
        ("zed", {"type": "Draw"}, "NOT_A_PLAYER"),
        ("ann", {"type": "Fly"}, "MALFORMED_COMMAND"),
    ]:
        with pytest.raises(RuleViolation) as refused:
            await adjudicator.submit(game_id, actor, command, f"c-{code}")
        assert refused.value.code == code
    assert await store.read(f"game.{game_id}") == before
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.submit("nosuch", "ann", {"type": "Draw"}, "c9")
    assert refused.value.code == "GAME_NOT_FOUND"


async def test_a_command_without_events_is_still_recorded_for_the_audit(adjudicator, game_id):
    await started(adjudicator, game_id)
    recorded = await adjudicator.submit(game_id, "ann", {"type": "Think"}, "c1")
    assert [(e.type, e.meta["command"]) for e in recorded] == [(NO_EFFECT, {"type": "Think", "v": 1})]


async def test_a_retried_command_id_returns_the_first_events_and_appends_nothing(adjudicator, store, game_id):
    await started(adjudicator, game_id)
    first = await adjudicator.submit(game_id, "ann", {"type": "Draw"}, "c1")
    await adjudicator.submit(game_id, "ann", {"type": "Stand"}, "c2")
    length = await store.last_seq(f"game.{game_id}")
    assert await adjudicator.submit(game_id, "ann", {"type": "Draw"}, "c1") == first
    assert await store.last_seq(f"game.{game_id}") == length


async def test_a_finished_game_ends_with_the_standings_and_the_seed_that_matches_the_commitment(
        adjudicator, store, game_id):
    await started(adjudicator, game_id)
    await play_to_end(adjudicator, store, game_id, seed=3)
    stream = await store.read(f"game.{game_id}")
    ended = stream[-1]
    assert ends_game(ended) and sum(map(ends_game, stream)) == 1
    seed = bytes.fromhex(ended.data["seed"])
    assert commitment(seed) == stream[0].data["commitment"]
    assert sorted(s["player"] for s in ended.data["standings"]) == sorted(PLAYERS)
    assert ended.command_id == stream[-2].command_id   # appended with the command that ended the game
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.submit(game_id, "ann", {"type": "Draw"}, "late")
    assert refused.value.code == "GAME_OVER"
    assert await adjudicator.legal_actions(game_id, "ann") == []


async def test_a_replica_with_an_empty_cache_rebuilds_the_same_game(adjudicator, store, vault, game_id):
    await started(adjudicator, game_id)
    await adjudicator.submit(game_id, "ann", {"type": "Draw"}, "c1")
    await adjudicator.submit(game_id, "ann", {"type": "Stand"}, "c2")
    other = Adjudicator(store, vault)
    for viewer in PLAYERS + [None]:
        assert await other.view(game_id, viewer) == await adjudicator.view(game_id, viewer)
    assert await other.legal_actions(game_id, "bob") == await adjudicator.legal_actions(game_id, "bob")
    # The replica that did not see a move catches up before deciding the next one.
    await other.submit(game_id, "bob", {"type": "Stand"}, "c3")
    assert (await adjudicator.view(game_id, None))["view"]["to_act"] == "cyd"


class SealedVault(MemorySeedVault):
    """A vault that fails the test if a seed is read while `sealed`: views must not need it."""

    sealed = False

    async def get(self, game_id):
        assert not self.sealed, "a view read the secret seed"
        return await super().get(game_id)


async def test_views_and_pushed_events_never_carry_the_seed_a_future_draw_or_anothers_card(store, game_id):
    vault = SealedVault()
    adjudicator = Adjudicator(store, vault)
    await started(adjudicator, game_id)
    await adjudicator.submit(game_id, "ann", {"type": "Draw"}, "c1")
    seed_hex = (await vault.get(game_id)).hex()
    vault.sealed = True   # views are computed without the seed, so they cannot reveal it or a future draw
    stream = await store.read(f"game.{game_id}")
    assert seed_hex not in json.dumps([e.model_dump() for e in stream])
    def hand(player):
        return [e.data["card"] for e in stream if e.data.get("player") == player and "card" in e.data]

    ann_cards = hand("ann")
    for viewer in ["bob", "cyd", None]:
        view = await adjudicator.view(game_id, viewer)
        assert seed_hex not in json.dumps(view)
        assert view["view"]["cards"]["ann"] == len(ann_cards)
        assert view["view"]["my_hand"] == (hand(viewer) if viewer else None)
        for envelope in stream:
            shown = redact(TESTJACK, envelope, viewer)
            assert "hash" not in shown and "meta" not in shown
            if envelope.data.get("player") == "ann" and "card" in envelope.data:
                assert "card" not in shown["data"]
    assert (await adjudicator.view(game_id, "ann"))["view"]["my_hand"] == ann_cards
