"""The test servers: they answer, and NATS runs JetStream."""
import pytest
import nats
import redis.asyncio as aioredis

pytestmark = pytest.mark.integration


async def test_nats_server_answers_with_jetstream(nats_url):
    connection = await nats.connect(nats_url)
    try:
        info = await connection.jetstream().account_info()
        assert info.limits is not None
    finally:
        await connection.close()


async def test_redis_server_answers(redis_url, namespace):
    client = aioredis.from_url(redis_url)
    try:
        await client.set(f"{namespace}:k", "v")
        assert await client.get(f"{namespace}:k") == b"v"
        await client.delete(f"{namespace}:k")
    finally:
        await client.aclose()
