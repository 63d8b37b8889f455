"""A substitute builds the seat they took over, on the Trucker socket (`trucker.auth.seat_played`).

Given a Trucker game of three people whose seat `cy` was given up (a bot built it) and then taken over
between buildings (while ann repairs her flawed ship) by a substitute, `zed` (`TakeSeat`, stored through
the adjudicator as the lobby's `POST /games/{id}/seats/{seat}/take` does), when zed connects to the
Trucker service, then the socket acts for cy's seat: its welcome is cy's (`you` = cy, cy's view), zed's
moves build cy's ship (acked, stored with `meta.played_by` = zed), the bot no longer builds it, and cy's
own moves (and Resign) are refused NOT_IN_CONTROL, by the warehouse (its meta `controllers`, checked
against the stream). In the next round zed gives the seat up live (Resign on the socket): the seat goes
back to a bot, which builds it on, and zed's moves are refused from then on. The whole game passes the
platform's audit.
"""
from __future__ import annotations

import json

import pytest

from starbase_core.audit import PASS, audit_game
from starbase_core.seats import is_bot
from starbase_rules.registry import get_game
from trucker_rules.game import GAME
from trucker_rules.state import BUILDING, REPAIR

from trucker.state_doc import Folded

from tests.trucker_service.helpers import FoldedStream, check_invariants, flawed_spot, grab_and_place
from tests.trucker_service.live import Client
from tests.trucker_service.test_bot_seats import building_moves
from tests.trucker_service.test_resign_while_building import (  # noqa: F401 (fixtures)
    checker, new_trucker_game, play_to_the_end, service_settings)

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]


async def test_a_substitute_builds_the_seat_they_took_over_and_may_give_it_up_live(
        live, jetstream_store, vault, checker):
    players = ["ann", "bob", "cy"]
    game, adjudicator = await new_trucker_game(jetstream_store, vault, players)
    sockets = {p: await Client.connect(live, game, p) for p in players}    # a player arriving opens round 1
    cy = sockets["cy"]
    stream = FoldedStream(jetstream_store, game)
    seen: dict[str, object] = {}

    async def checks(state) -> None:
        if state.round == 1 and state.phase == BUILDING:
            assert (await cy.send("resign"))["kind"] == "ack"        # a bot builds cy's seat this round
            # ann's ship will fail the inspection: the round waits for ann's repair, a turn-based moment
            # between buildings (without it, a flight that asks nobody anything runs on to round 2).
            await grab_and_place(sockets["ann"], stream, "ann", flawed_spot)
        elif state.round == 1 and "zed" not in seen:                 # ann's repair: zed takes it over
            assert state.phase == REPAIR and "ann" in GAME.to_act(state), state.phase
            await adjudicator.submit(game, "cy", {"type": "TakeSeat"}, "take:cy:zed", played_by="zed")
            zed = seen["zed"] = sockets["cy"] = await Client.connect(live, game, "zed")
            await stream.catch_up()
            at = Folded(e for e in stream.envelopes if e.seq <= zed.welcome["seq"])
            assert zed.welcome["you"] == "cy"                        # the seat's view, as cy would see it
            assert zed.welcome["view"] == json.loads(json.dumps(GAME.view(at.state, "cy")))
            watcher = await Client.connect(live, game, "eve")        # not in the game: a spectator
            assert watcher.welcome["you"] is None
            await watcher.close()
        elif state.round == 2 and state.phase == BUILDING:
            await round_two_zed_builds()
        elif state.round == 3 and state.phase == BUILDING:
            await round_three_zed_resigns()

    async def round_two_zed_builds() -> None:
        zed = seen["zed"]
        # Nobody has moved yet: Redis still holds round 1's closed warehouse (cy's seat a bot's there);
        # zed's first move loads round 2's, starts building and is played for cy.
        answers = await grab_and_place(zed, stream, "cy")
        answers += await grab_and_place(zed, stream, "cy")
        refused = {"a move": (await cy.send("grab_face_down"))["error"]["code"],
                   "a resignation": (await cy.send("resign"))["error"]["code"]}
        assert refused == {"a move": "NOT_IN_CONTROL", "a resignation": "NOT_IN_CONTROL"}
        await check_invariants(checker, game)     # Redis's controllers == the stream's: {cy: zed}
        snapshot = await checker.warehouse.snapshot(game, secret=True)
        assert json.loads(snapshot["meta"]["controllers"]) == {"cy": "zed"}
        finished = await zed.send("finish")
        assert finished["kind"] == "ack", finished
        seen["zed_seqs"] = [a["first_seq"] for a in (*answers, finished)]

    async def round_three_zed_resigns() -> None:
        zed = seen["zed"]
        assert (await zed.send("grab_face_down"))["kind"] == "ack"   # starts round 3's building
        resigned = await zed.send("resign", message_id="over")
        assert resigned["kind"] == "ack", resigned
        assert [(e["type"], e["data"]) for e in resigned["events"]] == [
            ("PlayerResigned", {"player": "cy", "by": "zed", "level": "normal"})]
        seen["resigned_at"] = resigned["first_seq"]
        assert (await zed.send("return"))["error"]["code"] == "NOT_IN_CONTROL"
        folded = await stream.catch_up()
        assert is_bot(folded.record.seats.controllers["cy"])
        await check_invariants(checker, game)

    await play_to_the_end(stream, sockets, adjudicator, checks)

    envelopes = stream.envelopes
    by_seq = {e.seq: e for e in envelopes}
    # Round 2: cy's ship was built by zed alone, every move acked and stored as zed's; the bot left it.
    cy_round_two = building_moves(envelopes, "cy", 2)
    assert [e.seq for e in cy_round_two] == seen["zed_seqs"]
    assert all(e.meta.get("played_by") == "zed" for e in cy_round_two)
    assert any(e.type == "ComponentPlaced" for e in cy_round_two) and cy_round_two[-1].type == "ShipFinished"
    assert all(by_seq[seq].actor == "cy" and by_seq[seq].meta["request_id"].startswith("zed:")
               for seq in seen["zed_seqs"])
    # Round 3: zed's own grab, then the resignation (zed's), then the bot built the seat to its finish.
    resignation = by_seq[seen["resigned_at"]]
    assert (resignation.type, resignation.actor, resignation.meta["played_by"]) == ("PlayerResigned", "cy", "zed")
    cy_round_three = building_moves(envelopes, "cy", 3)
    assert [e.meta.get("played_by") for e in cy_round_three if e.seq < resignation.seq] == ["zed"]
    by_bot = [e for e in cy_round_three if e.seq > resignation.seq]
    assert by_bot and by_bot[-1].type == "ShipFinished"
    assert all(e.meta.get("played_by") == "bot:normal" for e in by_bot)
    assert envelopes[-1].type == "GameEnded" and envelopes[-1].data["reason"] != "resigned"
    report = audit_game(game, envelopes, get_game)
    assert report.verdict == PASS, report.render()
    for client in (*sockets.values(), cy):
        await client.close()


def test_a_caller_acts_for_their_own_seat_or_the_one_they_took_over_and_anyone_else_watches():
    from starbase_core.envelope import Envelope
    from starbase_core.gamestream import PRIVATE
    from trucker.auth import Authenticator, Caller, Seat, seat_played

    players = ["ann", "bob", "cy"]
    controllers = {"ann": "ann", "bob": "bot:normal", "cy": "zed"}    # bob gave up; zed took cy's over
    assert seat_played(Caller("ann"), players, controllers) == Seat("ann")
    assert seat_played(Caller("bob"), players, controllers) == Seat("bob")    # refused NOT_IN_CONTROL
    assert seat_played(Caller("cy"), players, controllers) == Seat("cy")
    assert seat_played(Caller("zed"), players, controllers) == Seat("cy", played_by="zed")
    assert seat_played(Caller("eve"), players, controllers) is None
    assert seat_played(Caller(None), players, controllers) is None

    created = Envelope(stream="game.p1", seq=1, type="GameCreated", time="", prev_hash="", hash="",
                       data={"game": "trucker", "options": {PRIVATE: True}})
    allowed = {who: Authenticator.may_watch(Caller(who), created, seat_played(Caller(who), players, controllers),
                                            "p1") for who in ("zed", "cy", "eve", None)}
    assert allowed == {"zed": True, "cy": True, "eve": False, None: False}
    assert Authenticator.may_watch(Caller("eve", granted_game="p1"), created, None, "p1")
