"""Table options are checked when a table is opened, and one table's stored clock limit, however absurd,
never stops the decision clock for the others (`1e300` seconds overflowed it on every tick before)."""
import asyncio

import pytest

from adjudicator.client import AdjudicatorClient
from clock.__main__ import ClockSettings, serve
from clock.decision import MAX_LIMIT_SECONDS, decision_limit, due_at, parse_time
from starbase_core.gamestream import ends_game

pytestmark = pytest.mark.integration
WAIT_SECONDS = 20.0       # a bound on a hang, not a timing assertion


@pytest.mark.parametrize("options, code", [
    ({"decision_seconds": 1e300}, "BAD_OPTION"), ({"decision_seconds": 1}, "BAD_OPTION"),
    ({"decision_seconds": -5}, "BAD_OPTION"), ({"decision_seconds": "60"}, "BAD_OPTION"),
    ({"decision_seconds": True}, "BAD_OPTION"), ({"private": True}, "UNKNOWN_OPTION"),
    ({"guests": []}, "UNKNOWN_OPTION"), ({"refuse": True}, "BAD_OPTION"),
])
async def test_bad_table_options_are_refused_when_the_table_is_opened(stack, register, options, code):
    ann = await register("ann")
    reply = await ann.post("/tables", {"game": "testjack", "seats": 2, "options": options})
    assert reply.status_code == 422 and reply.json()["error"]["code"] == code, reply.text
    assert stack.runtime.projection.open_tables_of(ann.player_id) == 0


@pytest.mark.parametrize("game, options, code", [
    ("stellar", {"no_such_option": 1}, "UNKNOWN_OPTION"), ("stellar", {"difficulty": "nope"}, "BAD_OPTION"),
    ("trucker", {"round3_board": "IV"}, "BAD_OPTION"), ("trucker", {"nonsense": 1}, "UNKNOWN_OPTION"),
])
async def test_each_engines_own_option_check_runs_at_creation(register, game, options, code):
    ann = await register("ann")
    reply = await ann.post("/tables", {"game": game, "seats": 3, "options": options})
    assert reply.status_code == 422 and reply.json()["error"]["code"] == code, reply.text


async def test_good_options_open_a_table(register):
    ann = await register("ann")
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2,
                                              "options": {"decision_seconds": 30 * 24 * 3600}}))
    assert table["options"] == {"decision_seconds": 30 * 24 * 3600}


def test_the_clock_reads_any_stored_limit_without_overflowing():
    since = parse_time("2026-01-01T00:00:00Z")
    for stored in (1e300, float("inf"), 10**400, "1e999", 2**64):
        limit = decision_limit({"decision_seconds": stored}, 0)
        assert limit == MAX_LIMIT_SECONDS
        assert due_at(since, limit) is not None
    assert decision_limit({"decision_seconds": float("nan")}, 0) is None


async def test_a_game_stored_with_a_1e300_clock_does_not_stop_the_clock_for_another(stack, nats_url, new_name):
    # Given a game whose stream holds decision_seconds = 1e300 (written before the lobby checked options),
    # and another game with a short clock, started after it, where nobody acts
    absurd, quick = new_name("absurd"), new_name("quick")
    settings = ClockSettings(nats_url=nats_url, event_stream=stack.settings.event_stream,
                             event_subject_prefix=stack.settings.event_subject_prefix,
                             adjudicator_target=stack.settings.adjudicator_target, clock_tick_seconds=0.1,
                             clock_health_port=0, clock_health_host="127.0.0.1", log_level="warning",
                             log_json=False)
    async with AdjudicatorClient(stack.settings.adjudicator_target) as client:
        await client.create_game(absurd, "testjack", ["ann", "bob"], {"decision_seconds": 1e300})
        stop = asyncio.Event()
        clock = asyncio.create_task(serve(settings, stop))
        try:
            await client.create_game(quick, "testjack", ["cy", "dee"], {"decision_seconds": 0.3})

            # When the clock runs, then the quick game is played out by its defaults
            async def ended() -> list:
                while not (envelopes := await stack.store.read(f"game.{quick}")) or not ends_game(envelopes[-1]):
                    await asyncio.sleep(0.1)
                return envelopes
            envelopes = await asyncio.wait_for(ended(), WAIT_SECONDS)
        finally:
            stop.set()
            await asyncio.wait_for(clock, WAIT_SECONDS)
    assert any((e.command_id or "").startswith("clock:") for e in envelopes)
    # and the absurd one is still waiting, untouched
    assert not any((e.command_id or "").startswith("clock:") for e in await stack.store.read(f"game.{absurd}"))
