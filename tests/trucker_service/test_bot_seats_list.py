"""The bot seats' list of games (`trucker:botgames`) is read a page a tick, not whole.

Every replica ticks twice a second; reading the whole list each tick, and trying the lease of every
game on it, cost each replica the games of every replica together. A tick now reads one page (SSCAN)
and goes on from there at the next, so a pass over the list still reaches every game.
"""
from __future__ import annotations

import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
from redis.asyncio import Redis

from trucker.bot_seats import BOT_GAMES, SCAN_PAGE, BotSeats, lease_key


@pytest.fixture
async def own_db(redis_url):
    """A Redis database of this test's own: the list holds only the games listed here."""
    parts = urlsplit(redis_url)
    client = Redis.from_url(urlunsplit(parts._replace(path="/11")), decode_responses=True)
    await client.delete(BOT_GAMES)
    yield client
    await client.delete(BOT_GAMES)
    await client.aclose()


async def test_a_tick_takes_up_a_page_of_the_listed_games_and_a_pass_reaches_them_all(service, own_db):
    # Games with no stream: the replica that takes one finds no bot seat and takes it off the list,
    # so what a tick took up shows as what left the list.
    listed = 4 * SCAN_PAGE
    games = [f"gone{uuid.uuid4().hex[:8]}x{i}" for i in range(listed)]
    await own_db.sadd(BOT_GAMES, *games)
    bots = BotSeats(service, own_db, 0.01)

    await bots.tick()
    taken_up = listed - await own_db.scard(BOT_GAMES)
    assert 0 < taken_up <= 2 * SCAN_PAGE          # a page (SSCAN's count is a hint), not the whole list

    ticks = 1
    while await own_db.scard(BOT_GAMES) and ticks < 4 * listed // SCAN_PAGE:
        await bots.tick()
        ticks += 1
    assert await own_db.scard(BOT_GAMES) == 0     # every game was reached
    assert not bots.held and not any([await own_db.exists(lease_key(game)) for game in games])
