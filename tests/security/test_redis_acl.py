"""Redis with an ACL user per service (the lobby has two: its own keys, and the boards it only reads):
each reaches its own keys only, nobody the dangerous commands, and a connection without a password
nothing at all."""
from __future__ import annotations

import pytest
from redis.asyncio import Redis
from redis.exceptions import AuthenticationError, NoPermissionError, ResponseError

from starbase_core import tickets
from scoring.ledger import Ledger

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]
REFUSED = (NoPermissionError, ResponseError)


def scoring_key(secured, *parts: str) -> str:
    return ":".join([f"{{{secured.names.scoring_prefix}}}", *parts])


def limits_key(secured, *parts: str) -> str:
    return ":".join([secured.names.limits_prefix, *parts])


async def test_a_connection_without_a_user_or_with_a_wrong_password_can_do_nothing(secured):
    anonymous = Redis.from_url(secured.redis.url, decode_responses=True)
    try:
        with pytest.raises((AuthenticationError, ResponseError), match="(?i)auth"):
            await anonymous.get(scoring_key(secured, "position"))
    finally:
        await anonymous.aclose()
    wrong = Redis.from_url(secured.redis.url, username="lobby", password="not-the-password-at-all-000000")
    try:
        with pytest.raises(AuthenticationError):
            await wrong.ping()
    finally:
        await wrong.aclose()


async def test_scoring_writes_its_boards_and_the_lobby_reads_them_but_cannot_write(secured):
    scoring = secured.redis_as("scoring")
    await scoring.set(scoring_key(secured, "position"), "41")
    await scoring.zadd(scoring_key(secured, "board", "moon21"), {"ann": 1500.0})
    boards, lobby = secured.redis_as("lobby-scores"), secured.redis_as("lobby")
    assert await boards.zrevrange(scoring_key(secured, "board", "moon21"), 0, 10) == ["ann"]
    with pytest.raises(REFUSED, match="(?i)permission|noperm"):
        await lobby.zrevrange(scoring_key(secured, "board", "moon21"), 0, 10)
    for client in (boards, lobby):      # the user that writes the lobby's own keys cannot write boards either
        for write in (client.set(scoring_key(secured, "position"), "0"),
                      client.zadd(scoring_key(secured, "board", "moon21"), {"mallory": 9999.0}),
                      client.delete(scoring_key(secured, "position")),
                      client.eval("return redis.call('SET', KEYS[1], '0')", 1, scoring_key(secured, "position"))):
            with pytest.raises(REFUSED, match="(?i)permission|noperm|acl"):
                await write
    assert await scoring.get(scoring_key(secured, "position")) == "41"


async def test_the_lobby_keeps_its_limits_and_tickets_and_the_trucker_service_redeems_tickets(secured):
    lobby, trucker = secured.redis_as("lobby"), secured.redis_as("trucker")
    counter = lobby.register_script("redis.call('ZADD', KEYS[1], 1, 'a') return redis.call('ZCARD', KEYS[1])")
    assert await counter(keys=[limits_key(secured, "sockets", "player", "ann")]) == 1
    ticket = await tickets.issue(lobby, tickets.Grant(player="ann"), 30)
    assert await tickets.redeem(trucker, ticket) == tickets.Grant(player="ann")
    assert await tickets.redeem(lobby, ticket) is None                       # once only, on any side
    for client in (trucker, secured.redis_as("lobby-scores"), secured.redis_as("scoring")):
        with pytest.raises(REFUSED, match="(?i)permission|noperm"):
            await client.get(limits_key(secured, "sockets", "player", "ann"))
    for client in (secured.redis_as("lobby-scores"), secured.redis_as("scoring")):
        with pytest.raises(REFUSED, match="(?i)permission|noperm"):
            await tickets.issue(client, tickets.Grant(player="mallory"), 30)


async def test_scoring_rebuilds_only_its_own_keys(secured):
    trucker = secured.redis_as("trucker")
    await trucker.hset("trucker:{g1}:meta", "status", "building")
    scoring = secured.redis_as("scoring")
    await scoring.set(scoring_key(secured, "done"), "x")
    await Ledger(scoring, secured.names.scoring_prefix).reset()
    assert await scoring.exists(scoring_key(secured, "done")) == 0
    assert await trucker.hget("trucker:{g1}:meta", "status") == "building"


@pytest.mark.parametrize("role,foreign", [("lobby", "trucker:{g1}:meta"), ("scoring", "trucker:{g1}:meta"),
                                          ("trucker", "{scoring}:position"), ("lobby-scores", "trucker:{g1}:meta"),
                                          ("lobby", "{scoring}:position"), ("scoring", tickets.KEY.format("x"))])
async def test_no_service_reads_or_writes_another_services_keys(secured, role, foreign):
    client = secured.redis_as(role)
    for call in (client.get(foreign), client.hget(foreign, "status"), client.set(foreign, "x")):
        with pytest.raises(REFUSED, match="(?i)permission|noperm"):
            await call
    # Not through a script either: ACLs hold inside Lua.
    if role != "lobby-scores":          # (it may not run scripts at all)
        with pytest.raises(REFUSED, match="(?i)permission|noperm|acl"):
            await client.eval("return redis.call('GET', KEYS[1])", 1, foreign)


async def test_trucker_runs_its_scripts_on_its_own_keys(secured):
    trucker = secured.redis_as("trucker")
    script = trucker.register_script("redis.call('HSET', KEYS[1], 'seq', ARGV[1]) return redis.call('TIME')[1]")
    assert int(await script(keys=["trucker:{g2}:meta"], args=["7"])) > 0
    assert await trucker.hget("trucker:{g2}:meta", "seq") == "7"


@pytest.mark.parametrize("role", ["lobby", "lobby-scores", "scoring", "trucker"])
async def test_nobody_may_run_dangerous_commands(secured, role):
    client = secured.redis_as(role)
    for call in (client.flushall(), client.keys("*"), client.config_get("*"), client.execute_command("ACL", "LIST")):
        with pytest.raises(REFUSED, match="(?i)permission|noperm"):
            await call


async def test_only_scoring_may_list_key_names(secured):
    """SCAN ignores key patterns: it would show every service's key names (player ids, addresses)."""
    lobby = secured.redis_as("lobby")
    await lobby.zadd(limits_key(secured, "sockets", "address", "10.1.2.3"), {"s": 1.0})
    for role in ("lobby", "lobby-scores", "trucker"):
        with pytest.raises(REFUSED, match="(?i)permission|noperm"):
            await secured.redis_as(role).scan(0, match="*")
    scoring = secured.redis_as("scoring")                # it drops its projection by listing it
    await scoring.set(scoring_key(secured, "listed"), "1")
    assert scoring_key(secured, "listed") in [key async for key in scoring.scan_iter(match=scoring_key(secured, "*"))]
