"""Seats through the API on real NATS and Redis: bot seats, resign, leave, substitutes, undo."""
from __future__ import annotations

import pytest

from starbase_core.audit import PASS, UNFINISHED, audit_game
from starbase_rules.registry import get_game
from tests.support import sockets, tally
from tests.support.botworker import bot_worker, eventually

tally.register()


async def refused(reply, status: int, code: str) -> dict:
    reply = await reply
    assert reply.status_code == status, reply.text
    assert reply.json()["error"]["code"] == code, reply.text
    return reply.json()


async def started(players, options=None, bots=None) -> str:
    host, *others = players
    table = await host.ok(host.post("/tables", {"game": "tally", "seats": len(players) + len(bots or []),
                                                "options": options or {}, "bots": bots or []}))
    for player in others:
        await player.ok(player.post(f"/tables/{table['table_id']}/join"))
    for player in players:
        await player.ok(player.post(f"/tables/{table['table_id']}/ready"))
    return (await host.ok(host.post(f"/tables/{table['table_id']}/start")))["game_id"]


async def play(player, game_id, command, seat=None):
    body = {"command": command} if seat is None else {"command": command, "seat": seat}
    return await player.ok(player.post(f"/games/{game_id}/commands", body))


async def test_a_table_with_one_bot_seat_is_played_to_its_end(stack, register):
    ann = await register("ann")
    table = await ann.ok(ann.post("/tables", {"game": "tally", "seats": 2, "options": {"rounds": 3},
                                              "bots": [{"seat": 1, "level": "easy"}]}))
    bot_seat = table["seats"][1]
    assert bot_seat["bot"] == "easy" and bot_seat["ready"] and bot_seat["name"] == "bot (easy)"
    assert table["free_seats"] == 0
    await ann.ok(ann.post(f"/tables/{table['table_id']}/ready"))
    game_id = (await ann.ok(ann.post(f"/tables/{table['table_id']}/start")))["game_id"]
    settings = stack.settings

    async with bot_worker(settings.nats_url, settings.event_stream, settings.event_subject_prefix,
                          settings.adjudicator_target):
        async def finished():
            found = await ann.ok(ann.get(f"/tables/{table['table_id']}"))
            if found["status"] == "finished":
                return found
            view = await ann.ok(ann.get(f"/games/{game_id}/view"))
            if view["view"]["to_act"] == ann.player_id:
                await ann.ok(ann.post(f"/games/{game_id}/commands", {"command": {"type": "EndTurn"}}))
            return None

        done = await eventually(finished, timeout=60)
    assert {s["player"] for s in done["standings"]} == {ann.player_id, bot_seat["player_id"]}
    stream = await stack.store.read(f"game.{game_id}")
    assert any(e.meta.get("played_by") == "bot:easy" for e in stream)
    assert audit_game(game_id, stream, get_game).verdict == PASS


async def test_bad_bot_seats_are_refused(stack, register):
    ann = await register("ann")
    body = {"game": "tally", "seats": 2}
    await refused(ann.post("/tables", {**body, "bots": [{"seat": 0}]}), 422, "VALIDATION_FAILED")
    await refused(ann.post("/tables", {**body, "bots": [{"seat": 1, "level": "godlike"}]}), 422, "VALIDATION_FAILED")
    await refused(ann.post("/tables", {**body, "bots": [{"seat": 2}]}), 422, "NO_SUCH_SEAT")
    await refused(ann.post("/tables", {**body, "seats": 3, "bots": [{"seat": 1}, {"seat": 1}]}), 422, "BAD_BOT_SEATS")
    await refused(ann.post("/tables", {**body, "options": {"bots": {"x": "easy"}}}), 422, "UNKNOWN_OPTION")
    await refused(ann.post("/tables", {**body, "options": {"rated": "yes"}}), 422, "BAD_OPTION")


async def test_in_two_players_the_resigner_loses_at_once(stack, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await started([ann, bob])
    table = await ann.ok(ann.post(f"/games/{game_id}/resign"))
    assert table["seats"][0]["abandoned"] is True

    async def finished():
        found = await bob.ok(bob.get(f"/tables/{game_id}"))
        return found if found["status"] == "finished" else None

    done = await eventually(finished)
    assert [(s["player"], s["rank"]) for s in done["standings"]] == [(bob.player_id, 1), (ann.player_id, 2)]
    await refused(bob.post(f"/games/{game_id}/commands", {"command": {"type": "EndTurn"}}), 422, "GAME_OVER")


def without_turns(seats: list[dict]) -> list[dict]:
    return [{k: v for k, v in seat.items() if k not in ("to_act", "due_at")} for seat in seats]


async def test_in_three_players_a_leaver_is_replaced_by_a_bot_then_by_a_substitute(stack, register):
    ann, bob, cyd, dan = [await register(name) for name in ("ann", "bob", "cyd", "dan")]
    game_id = await started([ann, bob, cyd])
    left = await ann.ok(ann.post(f"/tables/{game_id}/leave"))          # leaving a running game resigns
    assert left["status"] == "playing"
    assert left["seats"][0]["abandoned"] is True and left["seats"][0]["bot"] == "normal"
    await refused(ann.post(f"/games/{game_id}/commands", {"command": {"type": "EndTurn"}}), 422, "NOT_IN_CONTROL")
    again = await ann.ok(ann.post(f"/games/{game_id}/resign"))     # a retry: the same answer, once
    # to_act/due_at come from the loop's turn index, which follows the stream a moment behind: not compared
    assert without_turns(again["seats"]) == without_turns(left["seats"]) and again["seq"] == left["seq"]

    await refused(bob.post(f"/games/{game_id}/seats/0/take"), 409, "ALREADY_IN_GAME")
    await refused(ann.post(f"/games/{game_id}/seats/0/take"), 409, "ALREADY_IN_GAME")
    await refused(dan.post(f"/games/{game_id}/seats/1/take"), 409, "SEAT_NOT_OFFERED")
    taken = await dan.ok(dan.post(f"/games/{game_id}/seats/0/take"))
    assert taken["seats"][0]["substitute"] == dan.player_id and taken["seats"][0]["abandoned"] is False
    assert taken["seats"][0]["substitute_name"] == "dan" and taken["seats"][0]["name"] == "ann"
    assert taken["seats"][0]["bot"] is None
    await refused(cyd.post(f"/games/{game_id}/seats/0/take"), 409, "ALREADY_IN_GAME")

    view = await dan.ok(dan.get(f"/games/{game_id}/view"))
    assert view["view"]["my_card"] is not None                # the substitute sees the seat's own card
    async with await dan.connect(f"{stack.ws}/games/{game_id}/ws") as socket:     # and the socket says so
        assert (await sockets.welcome(socket))["you"] == ann.player_id
    assert {"type": "EndTurn"} in await dan.ok(dan.get(f"/games/{game_id}/actions"))
    await play(dan, game_id, {"type": "EndTurn"})
    stream = await stack.store.read(f"game.{game_id}")
    assert [e.type for e in stream if e.type in ("PlayerResigned", "SeatTaken")] == ["PlayerResigned", "SeatTaken"]
    assert stream[-1].actor == ann.player_id and stream[-1].meta["played_by"] == dan.player_id
    report = audit_game(game_id, stream, get_game)           # running: the chain and the commands so far
    assert report.verdict == UNFINISHED and report.problems == []


async def test_undo_in_an_unrated_game_and_its_refusals(stack, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await started([ann, bob], options={"rated": False})
    await refused(ann.post(f"/games/{game_id}/undo"), 422, "UNDO_NOTHING")
    await play(ann, game_id, {"type": "Add", "points": 3})
    undone = await ann.ok(ann.post(f"/games/{game_id}/undo", {"count": 1}))
    assert [e["type"] for e in undone["events"]] == ["CommandsUndone"]
    assert (await ann.ok(ann.get(f"/games/{game_id}/view")))["view"]["scores"][ann.player_id] == 0

    await play(ann, game_id, {"type": "Roll"})
    await refused(ann.post(f"/games/{game_id}/undo"), 422, "UNDO_AFTER_DRAW")
    await play(ann, game_id, {"type": "Peek"})
    await refused(ann.post(f"/games/{game_id}/undo"), 422, "UNDO_REVEALED")
    await play(ann, game_id, {"type": "EndTurn"})
    await play(bob, game_id, {"type": "Add", "points": 1})
    await refused(ann.post(f"/games/{game_id}/undo"), 422, "UNDO_OTHERS_ACTED")
    await refused(ann.post(f"/games/{game_id}/undo", {"count": 0}), 422, "VALIDATION_FAILED")


async def test_undo_in_a_rated_game_waits_for_the_others(stack, register):
    ann, bob, cyd = [await register(name) for name in ("ann", "bob", "cyd")]
    game_id = await started([ann, bob, cyd])
    await play(ann, game_id, {"type": "Add", "points": 2})
    asked = await ann.ok(ann.post(f"/games/{game_id}/undo"))
    assert [e["type"] for e in asked["events"]] == ["UndoRequested"]
    await refused(ann.post(f"/games/{game_id}/undo/agree"), 422, "NOT_ASKED")
    await ann.ok(bob.post(f"/games/{game_id}/undo/agree"))
    done = await cyd.ok(cyd.post(f"/games/{game_id}/undo/agree"))
    assert [e["type"] for e in done["events"]] == ["UndoAgreed", "CommandsUndone"]
    assert (await ann.ok(ann.get(f"/games/{game_id}/view")))["view"]["scores"][ann.player_id] == 0

    await play(ann, game_id, {"type": "Add", "points": 1})
    await ann.ok(ann.post(f"/games/{game_id}/undo"))
    await ann.ok(bob.post(f"/games/{game_id}/undo/refuse"))
    await refused(ann.post(f"/games/{game_id}/undo"), 422, "UNDO_NOT_AGREED")
    await refused(cyd.post(f"/games/{game_id}/undo/agree"), 422, "NO_UNDO_REQUEST")


@pytest.mark.parametrize("path", ["resign", "undo", "seats/0/take"])
async def test_strangers_and_spectators_cannot_use_seats_of_an_open_or_unknown_game(stack, register, path):
    ann = await register("ann")
    await refused(ann.post(f"/games/nosuchgame/{path}"), 404, "GAME_NOT_FOUND")


async def test_a_resign_sent_as_a_command_is_recorded_on_the_table_too(stack, register):
    ann, bob, cyd = [await register(name) for name in ("ann", "bob", "cyd")]
    game_id = await started([ann, bob, cyd])
    await play(bob, game_id, {"type": "Resign"})

    async def offered():
        table = await cyd.ok(cyd.get(f"/tables/{game_id}"))
        return table if table["seats"][1]["abandoned"] else None

    table = await eventually(offered)
    assert table["seats"][1]["bot"] == "normal" and table["status"] == "playing"
    await refused(bob.post(f"/games/{game_id}/commands", {"command": {"type": "EndTurn"}}), 422, "NOT_IN_CONTROL")
