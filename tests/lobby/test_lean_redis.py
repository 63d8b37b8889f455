"""The lean connection the command path's Lua scripts use (`lobby.leanredis`), against a real Redis:
the same replies as redis-py's scripts, in order under concurrency, through a flushed script cache, a
killed connection, a refusal and a timeout, as an ACL user in another database."""
from __future__ import annotations

import asyncio
import secrets

import pytest
from redis.asyncio import Redis
from redis.exceptions import AuthenticationError, ResponseError, TimeoutError as RedisTimeout

from lobby.leanredis import LeanRedis, LeanScript
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
    lean = LeanRedis.like(redis)
    assert lean is not None
    yield redis, lean
    await lean.close()
    await redis.aclose()


async def test_a_script_answers_as_redis_pys_own(clients, new_name):
    redis, lean = clients
    key = f"limits:lean:{new_name}"
    expected = await redis.register_script(SHAPES)(keys=[key], args=["é1", "two", 3])
    assert await LeanScript(lean, SHAPES)(keys=[key], args=["é1", "two", 3]) == expected \
        == [None, 1, "é1", ["two", 7], 3]


async def test_concurrent_calls_each_get_their_own_reply(clients):
    _, lean = clients
    echo = LeanScript(lean, ECHO)
    replies = await asyncio.gather(*(echo(args=[f"call {i}"]) for i in range(200)))
    assert replies == [f"call {i}" for i in range(200)]


async def test_a_flushed_script_cache_and_a_killed_connection_are_recovered(clients):
    redis, lean = clients
    echo = LeanScript(lean, ECHO)
    assert await echo(args=["first"]) == "first"
    await redis.script_flush()                  # as after a Redis restart: EVALSHA answers NOSCRIPT
    assert await echo(args=["loaded again"]) == "loaded again"
    mine = [c for c in await redis.client_list() if c["cmd"] in ("evalsha", "script|load", "script")]
    assert mine
    for client in mine:
        await redis.client_kill_filter(_id=client["id"])
    assert await echo(args=["reconnected"]) == "reconnected"


async def test_a_refusal_raises_and_the_calls_after_it_still_match(clients):
    _, lean = clients
    broken = LeanScript(lean, "return redis.call('NO_SUCH_COMMAND')")
    echo = LeanScript(lean, ECHO)
    results = await asyncio.gather(echo(args=["before"]), broken(), echo(args=["after"]), return_exceptions=True)
    assert results[0] == "before" and results[2] == "after"
    assert isinstance(results[1], ResponseError)


async def test_no_reply_in_time_drops_the_connection_and_the_next_call_opens_another(clients):
    _, lean = clients
    lean.timeout = 0.2
    busy = LeanScript(lean, "local t = redis.call('TIME') local stop = t[1] + 1 "
                            "while tonumber(redis.call('TIME')[1]) <= stop do end return 1")
    with pytest.raises(RedisTimeout):
        await busy()
    lean.timeout = 30.0
    assert await LeanScript(lean, ECHO)(args=["later"]) == "later"


async def test_an_acl_user_in_another_database(tmp_path):
    password = secrets.token_hex(16)
    with RedisServer(workdir=tmp_path / "redis", acl=acl_file({"lobby": password})) as server:
        url = server.url.rsplit("/", 1)[0] + "/3"
        redis = Redis.from_url(url, decode_responses=True, username="lobby", password=password)
        lean = LeanRedis.like(redis)
        try:
            set_it = LeanScript(lean, "redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])")
            assert await set_it(keys=["limits:acl"], args=["in db 3"]) == "in db 3"
            assert await redis.get("limits:acl") == "in db 3"
            with pytest.raises(ResponseError, match="(?i)permission|noperm|acl"):
                await set_it(keys=["scoring:not-mine"], args=["x"])
        finally:
            await lean.close()
            await redis.aclose()
        wrong = LeanRedis.like(Redis.from_url(url, decode_responses=True, username="lobby", password="wrong" * 8))
        with pytest.raises(AuthenticationError):
            await LeanScript(wrong, ECHO)(args=["never"])
        await wrong.close()


def test_a_setup_it_does_not_speak_goes_through_redis_py(redis_url):
    raw = Redis.from_url(redis_url)                       # bytes replies: not what the lean client gives
    assert LeanRedis.like(raw) is None
    assert not isinstance(LeanRedis.script(raw, None, ECHO), LeanScript)
