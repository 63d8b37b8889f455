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


async def test_redis_with_an_acl_starts_from_a_relative_workdir(tmp_path, monkeypatch):
    """`make run` keeps Redis in `.run/redis`, a relative path; Redis runs in its `--dir`, so the ACL
    file must be named absolutely or Redis refuses to start (it did, on a fresh checkout)."""
    from starbase_core.servers import RedisServer

    monkeypatch.chdir(tmp_path)
    server = RedisServer(workdir="relative/redis", acl="user default off\nuser ann on >ann-secret ~* +@all\n")
    server.start()
    try:
        client = aioredis.from_url(server.url, username="ann", password="ann-secret")
        try:
            assert await client.ping() is True
        finally:
            await client.aclose()
    finally:
        server.stop()


def test_a_free_port_lies_below_the_ephemeral_range_and_is_never_handed_out_twice():
    """Outgoing connections take ports from the ephemeral range at any moment; a server's port chosen
    there could be taken between the choice and the bind (it stopped a fault trial)."""
    from pathlib import Path

    from starbase_core.servers import free_port

    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    ports = [free_port() for _ in range(50)]
    assert all(1024 <= port < low for port in ports)
    assert len(set(ports)) == len(ports)
