"""The clock through the lobby's API on real NATS and Redis: pausing by agreement (and its limit), the
`lose` and `bot` time-out policies, and the clock in listings, in my games and on the sockets.

Time-outs are applied by a decision clock (`services/clock`) on the stack's store and adjudicator,
ticked by the test with a `now` past the deadline: nothing waits for a real deadline, and every
expected time is computed from the stream's own server times."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import jsonschema
import pytest
import yaml

from adjudicator.client import AdjudicatorClient
from clock.service import DecisionClock
from clock.tracker import Tracker
from starbase_core.audit import audit_game
from starbase_core.decisions import parse_time
from starbase_core.gamestream import ends_game
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_rules.registry import get_game
from tests.support.botworker import bot_worker
from tests.support.lobby_stack import http, register, stack, stack_options  # noqa: F401  (fixtures)
from tests.support.loop import Inbox
from tests.support.loop import eventually as eventually_within
from tests.support.stack import seat_and_start

pytestmark = pytest.mark.integration
FAR = datetime(9000, 1, 1, tzinfo=timezone.utc)
DOC = yaml.safe_load((Path(__file__).resolve().parents[2] / "docs" / "asyncapi.yaml").read_text())


def documented(message: dict) -> dict:
    """A `clock` push checked against docs/asyncapi.yaml's Clock message."""
    schema = {**DOC["components"]["messages"]["Clock"]["payload"], "$defs": DOC["components"]["schemas"]}
    text = yaml.safe_dump(schema).replace("#/components/schemas/", "#/$defs/")
    jsonschema.validate(message, yaml.safe_load(text), format_checker=jsonschema.FormatChecker())
    return message


async def refused(reply, status: int, code: str) -> None:
    reply = await reply
    assert reply.status_code == status, reply.text
    assert reply.json()["error"]["code"] == code, reply.text


async def eventually(check, what: str):
    """Wait for what the lobby learns asynchronously, generously: the suite may run on a loaded machine."""
    return await eventually_within(check, what, timeout=90)


def at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def listed_clock(player, game_id: str, path: str = "/tables", **params) -> dict | None:
    page = await player.ok(player.get(path, **params))
    return next((t["clock"] for t in page["items"] if t["table_id"] == game_id), None)


async def test_a_pause_by_agreement_stops_the_clock_everywhere_and_a_resume_moves_the_deadline_on(
        stack, register):  # noqa: F811
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    game_id = await seat_and_start([ann, bob], "testjack", {"bank_seconds": 600, "increment_seconds": 5})
    stream = f"game.{game_id}"
    watching = Inbox(await eve.connect(f"{stack.ws}/tables/{game_id}/ws?notify=true"))
    plain = Inbox(await eve.connect(f"{stack.ws}/tables/{game_id}/ws"))
    try:
        first = await eventually(lambda: _clocks(watching, lambda c: c["seats"][ann.player_id]["due_at"]),
                                 "the table socket's first clock")
        assert first["game_id"] == game_id and first["clock"]["control"]["bank_seconds"] == 600
        due_before = at(first["clock"]["seats"][ann.player_id]["due_at"])

        await refused(bob.post(f"/games/{game_id}/pause/agree"), 422, "NO_PAUSE_REQUEST")
        await refused(eve.post(f"/games/{game_id}/pause"), 403, "NOT_SEATED")
        asked = await ann.ok(ann.post(f"/games/{game_id}/pause"))
        assert [e["type"] for e in asked["events"]] == ["PauseRequested"]
        await refused(ann.post(f"/games/{game_id}/pause"), 422, "PAUSE_PENDING")
        requested = await eventually(lambda: _clocks(watching, lambda c: c["awaiting"] == [bob.player_id]),
                                     "the request pushed")
        assert requested["clock"]["requested_by"] == ann.player_id and requested["clock"]["paused"] is False

        agreed = await bob.ok(bob.post(f"/games/{game_id}/pause/agree"))
        assert [e["type"] for e in agreed["events"]] == ["PauseAgreed", "ClockPaused"]
        paused = await eventually(lambda: _clocks(watching, lambda c: c["paused"]), "the pause pushed")
        assert paused["clock"]["seats"][ann.player_id]["due_at"] is None
        for clock in (await listed_clock(eve, game_id, status="playing"),
                      await listed_clock(ann, game_id, "/players/me/tables"),
                      (await eve.ok(eve.get(f"/tables/{game_id}")))["clock"],
                      (await eve.ok(eve.get(f"/games/{game_id}/view")))["clock"]):
            assert clock["paused"] is True and clock["seats"][ann.player_id]["due_at"] is None
        table = await eve.ok(eve.get(f"/tables/{game_id}"))
        assert [s["due_at"] for s in table["seats"]] == [None, None]          # nothing is due while paused
        view = await ann.ok(ann.get(f"/games/{game_id}/view"))
        assert view["due_at"] == {ann.player_id: None}

        resumed = await bob.ok(bob.post(f"/games/{game_id}/resume"))           # one person is enough
        assert [e["type"] for e in resumed["events"]] == ["ClockResumed"]
        await refused(ann.post(f"/games/{game_id}/resume"), 422, "NOT_PAUSED")
        running = await eventually(lambda: _clocks(watching, lambda c: not c["paused"] and c["paused_at"] is None
                                                   and c["seats"][ann.player_id]["due_at"]), "the resumption pushed")
        envelopes = await stack.store.read(stream)
        paused_at = parse_time(next(e for e in envelopes if e.type == "ClockPaused").time)
        resumed_at = parse_time(next(e for e in envelopes if e.type == "ClockResumed").time)
        assert at(running["clock"]["seats"][ann.player_id]["due_at"]) == due_before + (resumed_at - paused_at)
        listed = await listed_clock(eve, game_id, status="playing")
        assert at(listed["seats"][ann.player_id]["due_at"]) == due_before + (resumed_at - paused_at)

        assert all(e.meta.get("platform") for e in envelopes if "Pause" in e.type or "Clock" in e.type)
        assert audit_game(game_id, envelopes, get_game).problems == []
        assert plain.kind("clock") == []                                       # pushes are opt-in
        assert all(documented(m) for m in watching.kind("clock"))
    finally:
        await watching.close()
        await plain.close()


async def _clocks(inbox: Inbox, wanted):
    found = [m for m in inbox.kind("clock") if wanted(m["clock"])]
    return found[-1] if found else None


@pytest.mark.parametrize("stack_options", [{"settings": {"lobby_limit_pauses": "3/minute"}}])
async def test_pause_requests_are_limited_and_a_refused_one_appends_nothing(stack, register):  # noqa: F811
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack", {"decision_seconds": 600})
    for _ in range(3):
        await ann.ok(ann.post(f"/games/{game_id}/pause"))
        await bob.ok(bob.post(f"/games/{game_id}/pause/refuse"))
    before = await stack.store.last_seq(f"game.{game_id}")
    reply = await ann.post(f"/games/{game_id}/pause")
    assert reply.status_code == 429 and reply.json()["error"]["code"] == "RATE_LIMITED"
    assert int(reply.headers["Retry-After"]) >= 1
    assert await stack.store.last_seq(f"game.{game_id}") == before


async def _clock_of(stack) -> tuple[DecisionClock, JetStreamEventStore, AdjudicatorClient]:
    settings = stack.settings
    store = await JetStreamEventStore.connect(settings.nats_url, name=settings.event_stream,
                                              subject_prefix=settings.event_subject_prefix)
    client = AdjudicatorClient(settings.adjudicator_target)
    return DecisionClock(store, client.submit, Tracker(0.0), now=lambda: FAR), store, client


async def time_out_first_decision(stack, game_id: str) -> list:
    """Tick a clock once with `now` past every deadline: the seat owing the first decision times out."""
    clock, store, client = await _clock_of(stack)
    try:
        for envelope in await store.read(f"game.{game_id}"):
            clock.tracker.observe(envelope)
        assert await clock.tick() == 1
    finally:
        await client.close()
        await store.close()
    return await stack.store.read(f"game.{game_id}")


async def test_lose_on_time_ends_the_game_as_a_resignation_and_only_the_late_players_rating_moves(
        stack, register):  # noqa: F811
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack", {"decision_seconds": 60, "timeout_policy": "lose"})
    envelopes = await time_out_first_decision(stack, game_id)
    timed_out = next(e for e in envelopes if e.type == "PlayerResigned")
    assert timed_out.actor == ann.player_id and timed_out.meta["played_by"] == "clock"
    assert timed_out.data["timeout"] == "lose" and ends_game(envelopes[-1])

    async def finished():
        table = await bob.ok(bob.get(f"/tables/{game_id}"))
        return table if table["status"] == "finished" else None
    table = await eventually(finished, "the table to finish")
    assert [(s["player"], s["rank"]) for s in table["standings"]] == [(bob.player_id, 1), (ann.player_id, 2)]
    assert table["clock"] is None

    async def rated():
        return (await stack.ledger.rating(ann.player_id)) and await stack.ledger.result(game_id)
    await eventually(rated, "scoring to record the game")
    stayer = await stack.ledger.rating(bob.player_id)
    assert stayer is None or stayer["mu"] == pytest.approx(25.0)                       # the stayer: unchanged
    assert (await stack.ledger.rating(ann.player_id))["mu"] < 25.0                      # lost on time


async def test_bot_on_time_hands_the_seat_to_the_bot_worker_and_a_substitute_may_take_it(
        stack, register):  # noqa: F811
    ann, bob, cyd = await register("ann"), await register("bob"), await register("cyd")
    game_id = await seat_and_start([ann, bob], "testjack", {"decision_seconds": 3600, "timeout_policy": "bot"})
    envelopes = await time_out_first_decision(stack, game_id)
    timed_out = next(e for e in envelopes if e.type == "PlayerResigned")
    assert timed_out.data == {"player": ann.player_id, "by": ann.player_id, "level": "normal", "timeout": "bot"}
    assert not any(map(ends_game, envelopes))

    async def abandoned():
        seat = (await bob.ok(bob.get(f"/tables/{game_id}")))["seats"][0]
        return seat if seat["abandoned"] else None
    seat = await eventually(abandoned, "the table to record the seat given up")
    assert seat["bot"] == "normal"
    await refused(ann.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}}), 422, "NOT_IN_CONTROL")

    settings = stack.settings
    async with bot_worker(settings.nats_url, settings.event_stream, settings.event_subject_prefix,
                          settings.adjudicator_target):
        async def bot_moved():
            return [e for e in await stack.store.read(f"game.{game_id}")
                    if e.actor == ann.player_id and e.meta.get("played_by") == "bot:normal"]
        await eventually(bot_moved, "the bot to play ann's seat")
    table = await cyd.ok(cyd.post(f"/games/{game_id}/seats/0/take"))
    assert table["seats"][0]["substitute"] == cyd.player_id and not table["seats"][0]["abandoned"]
    assert audit_game(game_id, await stack.store.read(f"game.{game_id}"), get_game).problems == []


@pytest.mark.parametrize("stack_options", [{"settings": {"clock_default_seconds": 120}}])
async def test_tables_on_the_servers_default_clock_show_it_in_lists_views_and_pushes(stack, register):  # noqa: F811
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")                       # no time controls
    off = await seat_and_start([bob, ann], "testjack", {"decision_seconds": 0})  # the clock switched off
    setup = await stack.store.read(f"game.{game_id}")
    expected = (parse_time(setup[-1].time) + timedelta(seconds=120))

    listed = await listed_clock(bob, game_id, status="playing")
    assert listed["control"]["decision_seconds"] == 120
    assert at(listed["seats"][ann.player_id]["due_at"]) == expected
    assert (await listed_clock(ann, game_id, "/players/me/tables"))["control"]["decision_seconds"] == 120
    assert await listed_clock(bob, off, status="playing") is None

    async def ann_seat_due():
        seats = (await bob.ok(bob.get(f"/tables/{game_id}")))["seats"]
        return seats[0]["due_at"] if seats[0]["to_act"] else None
    assert at(await eventually(ann_seat_due, "ann's seat to owe")) == expected

    socket = Inbox(await ann.connect(f"{stack.ws}/games/{game_id}/ws?notify=true"))
    try:
        pushed = await eventually(lambda: _clocks(socket, lambda c: True), "the game socket's clock")
        assert at(pushed["clock"]["seats"][ann.player_id]["due_at"]) == expected
        stood = await ann.ok(ann.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}}))
        stood_time = parse_time((await stack.store.read(f"game.{game_id}"))[stood["events"][-1]["seq"] - 1].time)
        moved = await eventually(lambda: _clocks(socket, lambda c: c["seats"][bob.player_id]["due_at"]),
                                 "bob's decision pushed")
        assert at(moved["clock"]["seats"][bob.player_id]["due_at"]) == stood_time + timedelta(seconds=120)
        assert moved["clock"]["seats"][ann.player_id]["due_at"] is None and moved["seq"] >= stood["events"][-1]["seq"]
        assert all(documented(m) for m in socket.kind("clock"))
    finally:
        await socket.close()
