"""The example game on the base runs through the platform as a registered game: the adjudicator creates
it from the declaration's options, takes commands, refuses bad ones, shows each viewer only what it may
see, ends it with standings, and the audit re-runs the stream to the same events."""
from __future__ import annotations

import random
import uuid

import pytest

from starbase_core.audit import PASS, audit_game
from starbase_core.gamestream import redact
from starbase_rules.contract import RuleViolation
from starbase_rules.registry import ENGINES, get_game
from tests.engines import tiny_game
from tests.support.in_memory import adjudicator, store  # noqa: F401 (fixtures)

PLAYERS = ["ann", "bob", "cy"]


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(ENGINES, "tiny", tiny_game.ENGINE_PATH)


@pytest.mark.parametrize("options, code", [({"colour": "red"}, "UNKNOWN_OPTION"), ({"counters": 99}, "BAD_OPTION"),
                                           ({"last_counter": "wins"}, "BAD_OPTION")])
async def test_a_table_with_options_the_declaration_forbids_is_refused_and_stores_nothing(
        adjudicator, store, options, code):
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.create_game("g-bad", "tiny", PLAYERS, options)
    assert refused.value.code == code
    assert await store.read("game.g-bad") == []


async def test_the_example_plays_to_its_end_through_the_adjudicator_and_passes_the_audit(adjudicator, store):
    await adjudicator.create_game("g1", "tiny", PLAYERS, {"counters": 9, "decision_seconds": 30})
    record = await adjudicator.record("g1")
    mover = record.engine.to_act(record.state)[0]
    others = [p for p in PLAYERS if p != mover]
    with pytest.raises(RuleViolation) as refused:
        await adjudicator.submit("g1", others[0], {"type": "Take", "count": 1}, "c-early")
    assert refused.value.code == "NOT_YOUR_TURN"

    view = (await adjudicator.view("g1", mover))["view"]
    assert set(view["lucky"]) == {mover} and view["left"] == 9
    assert (await adjudicator.view("g1", None))["view"]["lucky"] == {}
    assert await adjudicator.legal_actions("g1", mover) == [{"type": "Take", "count": n} for n in (1, 2, 3)]

    bots = random.Random(5)
    while (record := await adjudicator.record("g1")).ended is None:
        player = record.engine.to_act(record.state)[0]
        command = record.engine.bot_command(record.state, player, bots)
        await adjudicator.submit("g1", player, command.model_dump(mode="json"), uuid.uuid4().hex)

    stream = await store.read("game.g1")
    assert stream[-1].type == "GameEnded" and len(stream[-1].data["standings"]) == 3
    setup = next(e for e in stream if e.type == "GameSetUp")
    for viewer in PLAYERS:
        assert {p for p, n in redact(get_game("tiny"), setup, viewer)["data"]["lucky"].items() if n is not None} == {viewer}
    assert all(n is None for n in redact(get_game("tiny"), setup, None)["data"]["lucky"].values())
    assert any(e.type == "LuckRevealed" for e in stream)

    report = audit_game("g1", stream, get_game)
    assert report.verdict == PASS, report.render()
