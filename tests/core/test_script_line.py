"""The moves' script calls pipelined on one Redis connection (`starbase_core.script_line`), on a real Redis:
every caller gets its own reply, whatever else is in flight, fails or is cancelled, and a lost
connection fails only the calls on it."""
from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError, ResponseError

from starbase_core.servers import RedisServer

from starbase_core.script_line import ScriptLine

pytestmark = pytest.mark.integration

# Answers its argument; fails when asked to; counts its runs per key (so a run twice would show).
ECHO = """
if ARGV[1] == 'fail' then return redis.error_reply('ASKED_TO_FAIL') end
redis.call('INCR', KEYS[1])
return {ARGV[1], tonumber(ARGV[2])}
"""


async def _echo(line: ScriptLine, redis: Redis, key: str, text: str, number: int):
    script = redis.register_script(ECHO)
    return await line.evalsha(script.sha, script.script, [key], [text, number])


@pytest.fixture
async def line(redis):
    """A line on the test's Redis, closed after the test."""
    opened = ScriptLine(redis)
    yield opened
    await opened.aclose()


@pytest.fixture
def key(new_name) -> str:
    return new_name("line")


async def test_hundreds_of_calls_in_flight_each_get_their_own_reply(redis, line, key):
    replies = await asyncio.gather(*(_echo(line, redis, key, f"move-{n}", n) for n in range(600)))
    assert replies == [[f"move-{n}", n] for n in range(600)]
    assert await redis.get(key) == "600"            # each run once


async def test_an_error_reply_goes_to_its_caller_only(redis, line, key):
    calls = [_echo(line, redis, key, "fail" if n % 3 == 0 else f"ok-{n}", n) for n in range(30)]
    results = await asyncio.gather(*calls, return_exceptions=True)
    for n, result in enumerate(results):
        if n % 3 == 0:
            assert isinstance(result, ResponseError) and "ASKED_TO_FAIL" in str(result)
        else:
            assert result == [f"ok-{n}", n]
    assert await redis.get(key) == "20"


async def test_a_cancelled_caller_does_not_shift_the_replies_of_the_others(redis, line, key):
    await _echo(line, redis, key, "warm", 0)
    tasks = [asyncio.ensure_future(_echo(line, redis, key, f"m{n}", n)) for n in range(50)]
    await asyncio.sleep(0)                          # written, replies not read yet
    for task in tasks[::5]:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for n, result in enumerate(results):
        if n % 5 == 0:
            assert isinstance(result, asyncio.CancelledError) or result == [f"m{n}", n]
        else:
            assert result == [f"m{n}", n]
    assert await _echo(line, redis, key, "after", 99) == ["after", 99]


async def test_a_script_redis_forgot_is_sent_again_whole(redis, line, key):
    assert await _echo(line, redis, key, "first", 1) == ["first", 1]
    await redis.script_flush()                      # as after a restart of Redis
    assert await _echo(line, redis, key, "second", 2) == ["second", 2]
    assert await redis.get(key) == "2"


async def test_a_killed_connection_is_replaced_by_the_next_call(redis, line, key):
    assert await _echo(line, redis, key, "before", 1) == ["before", 1]
    await redis.client_kill_filter(_type="normal", skipme=True)     # the line's connection too
    answers = []
    for n in range(2):      # the first may still be written to the dead connection
        try:
            answers.append(await _echo(line, redis, key, f"after-{n}", n))
        except ConnectionError:
            answers.append(None)
    assert answers[-1] == ["after-1", 1] and answers[0] in (None, ["after-0", 0])


async def test_calls_in_flight_when_redis_dies_fail_and_none_hangs():
    with RedisServer() as server:
        redis = Redis.from_url(server.url, decode_responses=True)
        line = ScriptLine(redis)
        try:
            assert await _echo(line, redis, "k", "before", 1) == ["before", 1]
            # A script that holds Redis for a moment, so calls are surely in flight when it dies.
            slow = redis.register_script(
                "local t = redis.call('TIME') local s = tonumber(t[1]) * 1e6 + t[2] repeat "
                "local n = redis.call('TIME') until tonumber(n[1]) * 1e6 + n[2] > s + 300000 return 1")
            in_flight = [asyncio.ensure_future(line.evalsha(slow.sha, slow.script, ["k"], [])) for _ in range(3)]
            await asyncio.sleep(0.1)
            server.process.kill()
            results = await asyncio.wait_for(asyncio.gather(*in_flight, return_exceptions=True), 10)
            assert all(isinstance(r, ConnectionError) for r in results)
            with pytest.raises(ConnectionError):
                await _echo(line, redis, "k", "no server", 2)
        finally:
            await line.aclose()
            await redis.aclose()


SLOW = ("local t = redis.call('TIME') local s = tonumber(t[1]) * 1e6 + t[2] repeat "
        "local n = redis.call('TIME') until tonumber(n[1]) * 1e6 + n[2] > s + tonumber(ARGV[1]) return 1")


async def test_an_idle_line_keeps_its_connection_past_the_socket_timeout(redis_url, new_name):
    redis = Redis.from_url(redis_url, decode_responses=True, socket_timeout=0.2)
    line = ScriptLine(redis)
    key = new_name("line")
    try:
        assert await _echo(line, redis, key, "one", 1) == ["one", 1]
        connection = line._connection
        await asyncio.sleep(0.5)                        # idle for longer than the socket timeout
        assert await _echo(line, redis, key, "two", 2) == ["two", 2]
        assert line._connection is connection
    finally:
        await line.aclose()
        await redis.aclose()


async def test_a_call_unanswered_past_the_socket_timeout_fails_and_the_line_recovers(redis_url, new_name):
    redis = Redis.from_url(redis_url, decode_responses=True, socket_timeout=0.2)
    line = ScriptLine(redis)
    slow = redis.register_script(SLOW)
    try:
        with pytest.raises(ConnectionError):
            await line.evalsha(slow.sha, slow.script, [new_name("line")], [600_000])     # 0.6 s
        assert await _echo(line, redis, new_name("line"), "after", 1) == ["after", 1]
    finally:
        await line.aclose()
        await redis.aclose()
