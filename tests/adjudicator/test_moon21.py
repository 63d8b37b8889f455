"""21Moon through the platform: a whole bot game adjudicated, rebuilt, redacted and audited."""
from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass

import pytest

from adjudicator.service import Adjudicator
from starbase_core.audit import FAIL, PASS, audit_game
from starbase_core.envelope import Envelope
from starbase_core.gamestream import ends_game, redact, replay
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.registry import get_game
from tests.support.play import play_to_end


PLAYERS = ["ann", "bob", "cyd"]


@dataclass
class Played:
    stream: list[Envelope]
    final_state: object
    seed_hex: str
    views: list           # views of every seat and a spectator, taken before the end


async def _play() -> Played:
    store, vault = MemoryEventStore(), MemorySeedVault()
    adjudicator = Adjudicator(store, vault)
    await adjudicator.create_game("m1", "moon21", PLAYERS, {})
    bots, views = random.Random(3), []
    for step in range(8):
        views.append([await adjudicator.view("m1", viewer) for viewer in PLAYERS + [None]])
        record = await adjudicator.record("m1")
        actor = record.engine.to_act(record.state)[0]
        command = record.engine.bot_command(record.state, actor, bots)
        await adjudicator.submit("m1", actor, command.model_dump(mode="json"), f"early-{step}")
    await play_to_end(adjudicator, store, "m1", seed=11)
    return Played(await store.read("game.m1"), (await adjudicator.record("m1")).state,
                  (await vault.get("m1")).hex(), views)


@pytest.fixture(scope="module")
def played() -> Played:
    return asyncio.run(_play())


def test_a_whole_moon21_game_through_the_adjudicator_passes_the_audit(played):
    assert ends_game(played.stream[-1]) and sum(map(ends_game, played.stream)) == 1
    report = audit_game("m1", played.stream, get_game)
    assert report.verdict == PASS, report.render()


def test_a_moon21_game_rebuilt_from_its_stream_equals_the_adjudicators_state(played):
    assert replay("m1", played.stream, get_game).state == played.final_state


def test_moon21_views_and_redacted_events_before_the_end_never_carry_the_seed(played):
    assert played.seed_hex not in json.dumps(played.views)
    engine = get_game("moon21")
    for envelope in played.stream[:-1]:
        for viewer in PLAYERS + [None]:
            assert played.seed_hex not in json.dumps(redact(engine, envelope, viewer))


def test_an_altered_moon21_event_fails_the_audit(played):
    stream = list(played.stream)
    index = len(stream) // 2
    stream[index] = stream[index].model_copy(update={"actor": "mallory"})
    assert audit_game("m1", stream, get_game).verdict == FAIL
