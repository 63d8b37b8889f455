"""Quick play: everyone racing on two lobby replicas ends up seated at full tables that start by
themselves; a table's seats are quick play's alone; rating bands keep apart, then merge, what waits."""
import asyncio
import collections
import time

import httpx
import pytest

from tests.support.loop import eventually
from tests.support.stack import ApiPlayer, another_lobby

pytestmark = pytest.mark.integration

PLAYERS, SEATS = 20, 4


async def quickplay(player, body: dict) -> dict:
    """A client that retries a busy answer, as any client of a crowded lobby does."""
    for _ in range(10):
        reply = await player.post("/quickplay", body)
        if reply.status_code != 409 or reply.json()["error"]["code"] not in ("TABLE_BUSY", "QUICKPLAY_BUSY"):
            break
        await asyncio.sleep(0.1)
    assert reply.status_code == 200, reply.text
    return reply.json()


async def test_twenty_players_racing_on_two_replicas_all_sit_at_full_tables_that_start(stack, http):
    async with another_lobby(stack) as other, httpx.AsyncClient(base_url=f"http://{other}", timeout=30) as http_b:
        players = [await ApiPlayer.register(http if n % 2 else http_b, f"q{n}") for n in range(PLAYERS)]
        body = {"game": "testjack", "seats": SEATS, "rated": True}
        answers = await asyncio.gather(*[quickplay(p, body) for p in players])

        for player, table in zip(players, answers):          # each answer seats the caller
            assert player.player_id in [s["player_id"] for s in table["seats"]]
            assert table["quickplay"] is True and table["game"] == "testjack"
        table_ids = sorted({t["table_id"] for t in answers})
        assert len(table_ids) == PLAYERS // SEATS

        async def all_playing():
            tables = [await players[0].ok(players[0].get(f"/tables/{t}")) for t in table_ids]
            return tables if all(t["status"] == "playing" for t in tables) else None

        tables = await eventually(all_playing, "every table to start by itself")
        seated = [s["player_id"] for t in tables for s in t["seats"]]
        assert sorted(seated) == sorted(p.player_id for p in players)        # everyone once, no empty seat
        assert all(len(t["seats"]) == SEATS and t["free_seats"] == 0 for t in tables)
        for table_id in table_ids:                                            # and each game runs
            view = await players[0].ok(players[0].get(f"/games/{table_id}/view"))
            assert sorted(view["players"]) == sorted(s["player_id"] for t in tables if t["table_id"] == table_id
                                                     for s in t["seats"])
        redis, base = stack.runtime.redis, stack.runtime.loop.quickplay.base
        assert await redis.keys(f"{base}*") == []                             # nobody is left waiting


async def test_asking_again_answers_the_same_table_and_its_seats_are_not_joinable(stack, register):
    ann, bob, cy = await register("ann"), await register("bob"), await register("cy")
    body = {"game": "testjack", "seats": 3, "rated": False}
    first = await quickplay(ann, body)
    assert (await quickplay(ann, body))["table_id"] == first["table_id"]
    refused = await bob.post(f"/tables/{first['table_id']}/join")
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "QUICKPLAY_TABLE")
    other = await ann.post("/quickplay", {"game": "testjack", "seats": 2})
    assert (other.status_code, other.json()["error"]["code"]) == (409, "ALREADY_QUEUED")
    assert (await quickplay(bob, body))["table_id"] == first["table_id"]

    await ann.ok(ann.post(f"/tables/{first['table_id']}/leave"))        # she stands up: a seat is free again
    async def bob_alone():
        table = await bob.ok(bob.get(f"/tables/{first['table_id']}"))
        return [s["player_id"] for s in table["seats"] if s["player_id"]] == [bob.player_id]
    await eventually(bob_alone, "ann to leave")
    await eventually(lambda: _waiting(stack, first["table_id"], 1), "quick play to count her out")
    assert (await quickplay(cy, body))["table_id"] == first["table_id"]
    again = await quickplay(ann, body)
    assert again["table_id"] == first["table_id"]
    started = await eventually(lambda: _status(bob, first["table_id"], "playing"), "the table to start")
    assert started["rated"] is False and started["free_seats"] == 0


async def _waiting(stack, table_id: str, count: int):
    quick = stack.runtime.loop.quickplay
    return await stack.runtime.redis.hget(f"{quick.base}table:{table_id}", "count") == str(count)


async def _status(player, table_id: str, status: str):
    table = await player.ok(player.get(f"/tables/{table_id}"))
    return table if table["status"] == status else None


async def test_guests_are_never_rated_and_bad_requests_change_nothing(stack, http, register):
    guest = await ApiPlayer.guest(http)
    refused = await guest.post("/quickplay", {"game": "testjack", "seats": 2})
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "GUEST_UNRATED")
    assert (await quickplay(guest, {"game": "testjack", "seats": 2, "rated": False}))["rated"] is False
    ann = await register("ann")
    for body, code in (({"game": "testjack", "seats": 9}, "BAD_SEAT_COUNT"),
                       ({"game": "nosuchgame", "seats": 2}, "UNKNOWN_GAME"),
                       ({"game": "testjack", "seats": 2, "rated": "yes"}, "VALIDATION_FAILED"),
                       ({"game": "testjack", "seats": 2, "table": "x"}, "VALIDATION_FAILED")):
        reply = await ann.post("/quickplay", body)
        assert (reply.status_code, reply.json()["error"]["code"]) == (422, code), body
    assert (await ann.ok(ann.get("/players/me/tables")))["items"] == []


async def test_rating_bands_keep_far_players_apart_until_they_have_waited_then_merge(stack):
    """The matching scripts themselves, on real Redis: ratings 10 and 40 do not share a table at once;
    a 12 joins the 10; once the 40's table has waited long enough, the sweep merges it in."""
    quick = stack.runtime.loop.quickplay
    now = int(time.time() * 1000)

    async def match(player, rating, at):
        return await quick._run("match", player, "testjack", 4, "1", rating, at, f"t{player}", 5.0, 0.5, 600)

    assert await match("low", 10, now) == ["tlow", "created"]
    assert await match("high", 40, now + 1000) == ["thigh", "created"]      # 30 apart: band 5 + 0.5/s
    assert await match("near", 12, now + 2000) == ["tlow", "joined"]
    assert await quick._run("merge", "testjack:4:1", now + 10_000, 5.0, 0.5, 600) == []   # not yet
    assert await quick._run("merge", "testjack:4:1", now + 60_000, 5.0, 0.5, 600) == ["tlow", "thigh"]
    members = await stack.runtime.redis.zrange(f"{quick.base}members:tlow", 0, -1)
    assert members == ["low", "near", "high"]
    assert await stack.runtime.redis.hget(f"{quick.base}table:thigh", "dissolved") == "1"
    assert await match("high", 40, now + 61_000) == ["tlow", "waiting"]
    counted = collections.Counter(await stack.runtime.redis.zrange(f"{quick.base}pool:testjack:4:1", 0, -1))
    assert counted == {"tlow": 1}
