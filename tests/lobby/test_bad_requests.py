"""Every bad request gets a 4xx with a stable code in `{"error": {"code", "message"}}`, and changes nothing."""
import pytest

from tests.support.stack import seat_and_start

pytestmark = pytest.mark.integration


async def snapshot(stack, table_id: str) -> tuple[int, int]:
    return (await stack.store.last_seq(f"table.{table_id}"), await stack.store.last_seq(f"game.{table_id}"))


def assert_refused(reply, status: int, code: str):
    assert reply.status_code == status, reply.text
    body = reply.json()
    assert body["error"]["code"] == code and body["error"]["message"], body


@pytest.fixture
async def game(stack, register):
    ann, bob = await register("ann"), await register("bob")
    game_id = await seat_and_start([ann, bob], "testjack")
    view = await ann.ok(ann.get(f"/games/{game_id}/view"))
    to_act = view["view"]["to_act"]
    mover, waiter = (ann, bob) if to_act == ann.player_id else (bob, ann)
    return game_id, mover, waiter


async def test_each_bad_request_is_refused_with_its_code_and_changes_nothing(stack, http, register, game):
    game_id, mover, waiter = game
    table = await mover.ok(mover.get(f"/tables/{game_id}"))
    waiter_seat = next(s["seat"] for s in table["seats"] if s["player_id"] == waiter.player_id)
    before = await snapshot(stack, game_id)
    stranger = await register("eve")
    auth = mover.auth
    cases = [
        # (what, request, status, code)
        ("malformed JSON", http.post(f"/games/{game_id}/commands", content=b"{not json",
                                     headers={**auth, "content-type": "application/json"}), 400, "MALFORMED_JSON"),
        ("no token", http.post(f"/games/{game_id}/commands", json={"command": {"type": "Draw"}}),
         401, "NOT_AUTHENTICATED"),
        ("forged token", http.post(f"/games/{game_id}/commands", json={"command": {"type": "Draw"}},
                                   headers={"Authorization": "Bearer forged.token.here"}), 401, "INVALID_TOKEN"),
        ("unknown game", mover.post("/games/nosuchgame/commands", {"command": {"type": "Draw"}}),
         404, "GAME_NOT_FOUND"),
        ("game id that is no stream token", mover.post("/games/a.b/commands", {"command": {"type": "Draw"}}),
         404, "GAME_NOT_FOUND"),
        ("unknown table", mover.post("/tables/nosuchtable/join"), 404, "TABLE_NOT_FOUND"),
        ("unknown game name", mover.post("/tables", {"game": "chess", "seats": 2}), 422, "UNKNOWN_GAME"),
        ("another player's seat", mover.post(f"/games/{game_id}/commands",
                                             {"command": {"type": "Draw"}, "seat": waiter_seat}), 403, "NOT_YOUR_SEAT"),
        ("out of turn", waiter.post(f"/games/{game_id}/commands", {"command": {"type": "Draw"}}),
         422, "NOT_YOUR_TURN"),
        ("not a command of this game", mover.post(f"/games/{game_id}/commands", {"command": {"type": "Fly"}}),
         422, "MALFORMED_COMMAND"),
        ("command missing", mover.post(f"/games/{game_id}/commands", {}), 422, "VALIDATION_FAILED"),
        ("unknown field", mover.post(f"/games/{game_id}/commands", {"command": {"type": "Draw"}, "as": "x"}),
         422, "VALIDATION_FAILED"),
        ("oversized body", mover.post(f"/games/{game_id}/commands",
                                      {"command": {"type": "Draw", "pad": "x" * 70_000}}), 413, "BODY_TOO_LARGE"),
        ("spectator acts", stranger.post(f"/games/{game_id}/commands", {"command": {"type": "Draw"}}),
         403, "NOT_SEATED"),
        ("join a running table", stranger.post(f"/tables/{game_id}/join"), 409, "TABLE_NOT_OPEN"),
        ("bad seat count", mover.post("/tables", {"game": "testjack", "seats": 9}), 422, "BAD_SEAT_COUNT"),
        ("unknown route", http.get("/nowhere"), 404, "NOT_FOUND"),
        ("wrong method", http.delete("/players"), 405, "METHOD_NOT_ALLOWED"),
    ]
    for what, request, status, code in cases:
        reply = await request   # one at a time, in order: each must find the game as the last one left it
        assert reply.status_code == status, f"{what}: {reply.status_code} {reply.text}"
        assert reply.json()["error"]["code"] == code, f"{what}: {reply.text}"
        assert reply.json()["error"]["message"], what
    assert await snapshot(stack, game_id) == before


async def test_a_chunked_body_over_the_limit_is_refused_before_it_is_read(http, register):
    ann = await register("ann")

    async def chunks():
        for _ in range(100):
            yield b"x" * 1024

    reply = await http.post("/tables", content=chunks(), headers={**ann.auth, "content-type": "application/json"})
    assert_refused(reply, 413, "BODY_TOO_LARGE")


async def test_a_retried_command_id_is_applied_once(stack, game):
    game_id, mover, _ = game
    before = await stack.store.last_seq(f"game.{game_id}")
    first = await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}, "command_id": "c1"}))
    again = await mover.ok(mover.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}, "command_id": "c1"}))
    assert first == again
    assert await stack.store.last_seq(f"game.{game_id}") == before + len(first["events"])


async def test_the_winning_move_retried_after_the_end_gets_its_events_back_and_a_new_move_is_refused(stack, register):
    solo = await register("solo")
    table = await solo.ok(solo.post("/tables", {"game": "testjack", "seats": 1}))
    await solo.ok(solo.post(f"/tables/{table['table_id']}/ready"))
    game_id = (await solo.ok(solo.post(f"/tables/{table['table_id']}/start")))["game_id"]
    last = await solo.ok(solo.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}, "command_id": "end"}))
    assert last["events"][-1]["type"] == "GameEnded"

    retried = await solo.ok(solo.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}, "command_id": "end"}))
    late = await solo.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}})

    assert retried == last
    assert (late.status_code, late.json()["error"]["code"]) == (422, "GAME_OVER")
