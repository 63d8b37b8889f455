"""The loop's routes as an attacker meets them: a private game's past, log and export do not exist for
strangers (or the anonymous), "my games" is only ever the caller's, and reviews and exports are limited
(429 RATE_LIMITED), per player, or per address for the anonymous."""
import pytest

from tests.support.stack import ApiPlayer

pytestmark = pytest.mark.integration


@pytest.fixture
def stack_options() -> dict:
    return {"settings": {"lobby_limit_reviews": "3/minute", "lobby_limit_exports": "2/minute",
                         "lobby_limit_quickplay": "2/minute"}}


async def private_game_played_out(ann, bob) -> str:
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2, "private": True}))
    table_id = table["table_id"]
    await bob.ok(bob.post(f"/tables/{table_id}/join", {"invite": table["invite"]}))
    for player in (ann, bob):
        await player.ok(player.post(f"/tables/{table_id}/ready"))
    await ann.ok(ann.post(f"/tables/{table_id}/start"))
    for player in (ann, bob):
        await player.ok(player.post(f"/games/{table_id}/commands", {"command": {"type": "Stand"}}))
    return table_id


async def test_a_private_games_past_log_and_export_do_not_exist_for_strangers(stack, http, register):
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    game_id = await private_game_played_out(ann, bob)
    for get in (eve.get, lambda path, **q: http.get(path, params=q)):
        for path, query in ((f"/games/{game_id}/view", {"at": 1}), (f"/games/{game_id}/log", {"format": "text"}),
                            (f"/games/{game_id}/export", {})):
            reply = await get(path, **query)
            assert (reply.status_code, reply.json()["error"]["code"]) == (404, "GAME_NOT_FOUND"), (path, reply.text)
    assert (await eve.ok(eve.get("/players/me/tables", status="finished")))["items"] == []
    assert (await http.get("/players/me/tables")).status_code == 401
    exported = await bob.get(f"/games/{game_id}/export")                 # its players may take it away
    assert exported.status_code == 200 and exported.text.count("\n") >= 4
    assert [t["table_id"] for t in (await bob.ok(bob.get("/players/me/tables", status="finished")))["items"]] \
        == [game_id]


async def test_reviews_and_exports_are_limited_per_player_or_per_address(stack, http, register):
    ann, bob = await register("ann"), await register("bob")
    table = await ann.ok(ann.post("/tables", {"game": "testjack", "seats": 2}))
    game_id = table["table_id"]
    await bob.ok(bob.post(f"/tables/{game_id}/join"))
    for player in (ann, bob):
        await player.ok(player.post(f"/tables/{game_id}/ready"))
    await ann.ok(ann.post(f"/tables/{game_id}/start"))
    for player in (ann, bob):
        await player.ok(player.post(f"/games/{game_id}/commands", {"command": {"type": "Stand"}}))

    for _ in range(3):
        await ann.ok(ann.get(f"/games/{game_id}/view", at=1))
    limited = await ann.get(f"/games/{game_id}/view", at=1)
    assert (limited.status_code, limited.json()["error"]["code"]) == (429, "RATE_LIMITED")
    assert "Retry-After" in limited.headers
    await bob.ok(bob.get(f"/games/{game_id}/view", at=1))               # another player has his own count
    assert (await ann.get(f"/games/{game_id}/view")).status_code == 200  # the live view is not a review

    anonymous = [await http.get(f"/games/{game_id}/export") for _ in range(3)]
    assert [r.status_code for r in anonymous] == [200, 200, 429]
    guest = await ApiPlayer.guest(http)                                  # a signed-in caller: counted as a player
    assert (await guest.get(f"/games/{game_id}/export")).status_code == 200


async def test_quick_play_is_limited_and_a_refused_call_changes_nothing(stack, register):
    ann = await register("ann")
    body = {"game": "testjack", "seats": 2, "rated": False}
    first = await ann.ok(ann.post("/quickplay", body))
    assert (await ann.ok(ann.post("/quickplay", body)))["table_id"] == first["table_id"]
    limited = await ann.post("/quickplay", {"game": "testjack", "seats": 3, "rated": False})
    assert (limited.status_code, limited.json()["error"]["code"]) == (429, "RATE_LIMITED")
    assert [t["table_id"] for t in (await ann.ok(ann.get("/players/me/tables")))["items"]] == [first["table_id"]]
