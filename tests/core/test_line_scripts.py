"""Scripts on a line (`starbase_core.script_line.LineScript`, the lobby's command path), against a real
Redis: the same replies as redis-py's scripts, in order under concurrency, through a flushed script
cache, a killed connection (made again when it may run twice), a refusal and a timeout, as an ACL user
in another database, and a wrong password refused."""
from __future__ import annotations

import asyncio
import secrets

import pytest
from redis.asyncio import Redis
from redis.exceptions import AuthenticationError, ConnectionError as RedisConnectionError, ResponseError

from starbase_core.script_line import LineScript, ScriptLine
from starbase_core.redis_acl import acl_file
from starbase_core.servers import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]

SHAPES = """
redis.call('SET', KEYS[1], ARGV[1])
return {false, 1, redis.call('GET', KEYS[1]), {ARGV[2], 7}, tonumber(ARGV[3])}
"""
ECHO = "return ARGV[1]"


@pytest.fixture
async def clients(redis_url):
    redis = Redis.from_url(redis_url, decode_responses=True)
    line = ScriptLine(redis)
    yield redis, line
    await line.aclose()
    await redis.aclose()


async def test_a_script_answers_as_redis_pys_own(clients, new_name):
    redis, line = clients
    key = f"limits:line:{new_name}"
    expected = await redis.register_script(SHAPES)(keys=[key], args=["é1", "two", 3])
    assert await LineScript(line, SHAPES)(keys=[key], args=["é1", "two", 3]) == expected \
        == [None, 1, "é1", ["two", 7], 3]


async def test_concurrent_calls_each_get_their_own_reply(clients):
    _, line = clients
    echo = LineScript(line, ECHO)
    replies = await asyncio.gather(*(echo(args=[f"call {i}"]) for i in range(200)))
    assert replies == [f"call {i}" for i in range(200)]


async def test_a_flushed_script_cache_and_a_killed_connection_are_recovered(clients):
    redis, line = clients
    echo = LineScript(line, ECHO, attempts=3)
    assert await echo(args=["first"]) == "first"
    await redis.script_flush()                  # as after a Redis restart: EVALSHA answers NOSCRIPT
    assert await echo(args=["loaded again"]) == "loaded again"
    mine = [c for c in await redis.client_list() if c["cmd"] in ("evalsha", "eval")]
    assert mine
    for client in mine:
        await redis.client_kill_filter(_id=client["id"])
    assert await echo(args=["reconnected"]) == "reconnected"


async def test_a_call_the_connection_is_lost_under_is_made_again_only_when_it_may_run_twice(clients, new_name):
    redis, line = clients
    key = f"limits:line:{new_name}"
    count = "redis.call('INCR', KEYS[1]) return redis.call('GET', KEYS[1])"
    for attempts, expected in ((1, None), (3, "1")):
        await redis.delete(key)
        # A BLPOP holds the line's later commands in Redis, unrun, until the connection is killed.
        blocked = asyncio.ensure_future(line.call("BLPOP", f"{key}:never", 5))
        await asyncio.sleep(0.05)
        call = asyncio.ensure_future(LineScript(line, count, attempts=attempts)(keys=[key]))
        await asyncio.sleep(0.05)
        for client in await redis.client_list():
            if client["cmd"] == "blpop":
                await redis.client_kill_filter(_id=client["id"])
        with pytest.raises(RedisConnectionError):
            await blocked
        if expected is None:
            with pytest.raises(RedisConnectionError):
                await call
            assert await redis.get(key) is None         # never ran: its caller is told the connection broke
        else:
            assert await call == expected               # made again on a new connection, and ran once


async def test_a_refusal_raises_and_the_calls_after_it_still_match(clients):
    _, line = clients
    broken = LineScript(line, "return redis.call('NO_SUCH_COMMAND')")
    echo = LineScript(line, ECHO)
    results = await asyncio.gather(echo(args=["before"]), broken(), echo(args=["after"]), return_exceptions=True)
    assert results[0] == "before" and results[2] == "after"
    assert isinstance(results[1], ResponseError)


async def test_no_reply_in_time_drops_the_connection_and_the_next_call_opens_another(redis_url):
    redis = Redis.from_url(redis_url, decode_responses=True, socket_timeout=0.3)
    line = ScriptLine(redis)
    try:
        busy = LineScript(line, "local t = redis.call('TIME') local stop = t[1] + 1 "
                                "while tonumber(redis.call('TIME')[1]) <= stop do end return 1")
        with pytest.raises(RedisConnectionError, match="did not answer"):
            await busy()
        await asyncio.sleep(1.5)                # the busy script over: Redis answers again
        assert await LineScript(line, ECHO)(args=["later"]) == "later"
    finally:
        await line.aclose()
        await redis.aclose()


async def test_an_acl_user_in_another_database(tmp_path):
    password = secrets.token_hex(16)
    with RedisServer(workdir=tmp_path / "redis", acl=acl_file({"lobby": password})) as server:
        url = server.url.rsplit("/", 1)[0] + "/3"
        redis = Redis.from_url(url, decode_responses=True, username="lobby", password=password)
        line = ScriptLine(redis)
        try:
            set_it = LineScript(line, "redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])")
            assert await set_it(keys=["limits:acl"], args=["in db 3"]) == "in db 3"
            assert await redis.get("limits:acl") == "in db 3"
            with pytest.raises(ResponseError, match="(?i)permission|noperm|acl"):
                await set_it(keys=["scoring:not-mine"], args=["x"])
        finally:
            await line.aclose()
            await redis.aclose()
        wrong = ScriptLine(Redis.from_url(url, decode_responses=True, username="lobby", password="wrong" * 8))
        with pytest.raises(AuthenticationError):
            await LineScript(wrong, ECHO, attempts=3)(args=["never"])
        await wrong.aclose()

