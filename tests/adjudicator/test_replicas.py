"""Several adjudicator replicas on one JetStream store: the store orders a game's commands, and a
replica that died between its append and its reply loses nothing."""
from __future__ import annotations

import asyncio
import uuid
from collections import Counter

import pytest

from adjudicator.service import Adjudicator
from starbase_core.envelope import chain_problems
from starbase_core.gamestream import ends_game, replay
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_rules.contract import RuleViolation
from starbase_rules.registry import get_game

pytestmark = pytest.mark.integration

PLAYERS = ["ann", "bob", "cyd"]


@pytest.fixture
async def replicas(jetstream_store, nats_url, namespace):
    """Two adjudicators, each with its own NATS connection, sharing one JetStream stream and vault."""
    second = await JetStreamEventStore.connect(nats_url, name=jetstream_store.name,
                                               subject_prefix=jetstream_store.prefix)
    vaults = [await JetStreamSeedVault(s._nc, f"seeds_{namespace}").ensure() for s in (jetstream_store, second)]
    yield Adjudicator(jetstream_store, vaults[0]), Adjudicator(second, vaults[1])
    await second.close()
    await jetstream_store._js.delete_key_value(f"seeds_{namespace}")


async def attempt(replica, game_id, actor, command):
    command_id = uuid.uuid4().hex
    try:
        return command_id, await replica.submit(game_id, actor, command, command_id)
    except RuleViolation as refusal:
        return command_id, refusal


async def test_two_replicas_under_concurrent_commands_lose_duplicate_and_reorder_nothing(replicas, game_id):
    first, second = replicas
    await first.create_game(game_id, "testjack", PLAYERS, {})
    results = []
    for _ in range(60):
        record = await first.record(game_id)
        if record.ended is not None:
            break
        actor = record.engine.to_act(record.state)[0]
        other = next(p for p in PLAYERS if p != actor)
        # A double click reaching both replicas, a third command racing them, and a player out of turn.
        results += await asyncio.gather(
            attempt(first, game_id, actor, {"type": "Draw"}),
            attempt(second, game_id, actor, {"type": "Draw"}),
            attempt(second, game_id, actor, {"type": "Think"}),
            attempt(first, game_id, other, {"type": "Stand"}),
        )
    stream = await first.store.read(f"game.{game_id}")
    assert chain_problems(stream, stream=f"game.{game_id}") == []
    accepted = {cid: envelopes for cid, envelopes in results if not isinstance(envelopes, RuleViolation)}
    refused = {cid for cid, result in results if isinstance(result, RuleViolation)}
    per_command = Counter(e.command_id for e in stream if e.seq > 1 and e.command_id)
    # Every accepted command is in the stream exactly as its caller was told, once; no refused one is.
    for command_id, envelopes in accepted.items():
        assert [e for e in stream if e.command_id == command_id] == envelopes
    assert refused.isdisjoint(per_command)
    assert set(per_command) - {f"create-{game_id}"} == set(accepted)
    # And the stream is a game the rules accept: its state folds, and it ended exactly once.
    record = replay(game_id, stream, get_game)
    assert record.ended is not None and sum(map(ends_game, stream)) == 1
    assert not record.engine.invariants(record.state)


class DiesAfterAppend:
    """The real store, but the process 'dies' right after an append succeeds, before anyone hears back."""

    def __init__(self, store):
        self._store = store

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def append(self, *args, **kwargs):
        await self._store.append(*args, **kwargs)
        raise SystemExit("killed between the append and the reply")


async def test_a_replica_killed_between_append_and_reply_loses_no_accepted_move(replicas, game_id):
    first, second = replicas
    await first.create_game(game_id, "testjack", PLAYERS, {})
    doomed = Adjudicator(DiesAfterAppend(first.store), first.vault)
    with pytest.raises(SystemExit):
        await doomed.submit(game_id, "ann", {"type": "Draw"}, "the-move")
    # The caller never got a reply, so it retries the same command id on another replica.
    retried = await second.submit(game_id, "ann", {"type": "Draw"}, "the-move")
    stream = await second.store.read(f"game.{game_id}")
    assert [e for e in stream if e.command_id == "the-move"] == retried
    assert retried[0].type == "CardDrawn" and retried[0].seq == stream[-len(retried)].seq
    assert await second.submit(game_id, "ann", {"type": "Draw"}, "the-move") == retried


async def test_a_command_on_a_game_in_the_cache_is_one_message_to_nats(replicas, game_id):
    first, _ = replicas
    await first.create_game(game_id, "testjack", ["ann"], {})
    await first.submit(game_id, "ann", {"type": "Think"}, "warm")           # the game is in the cache
    sent = first.store._nc.stats["out_msgs"]
    for number in range(5):
        await first.submit(game_id, "ann", {"type": "Think"}, f"think-{number}")
    assert first.store._nc.stats["out_msgs"] - sent == 5                    # one publish each
