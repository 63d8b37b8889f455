"""The lobby's lean Redis connection (`lobby.leanredis`, its command path's scripts) over mutual TLS as
its ACL user, made `like` the redis-py client the lobby builds from its settings: it gets through with
the CA and the lobby's certificate, and not without a certificate of that CA."""
from __future__ import annotations

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from lobby.leanredis import LeanRedis, LeanScript
from starbase_core.config import CoreSettings
from starbase_core.connections import redis_options
from starbase_core.provision import new_secret
from starbase_core.redis_acl import acl_file
from starbase_core.servers import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]
COUNT = "redis.call('INCR', KEYS[1]) return redis.call('GET', KEYS[1])"


async def test_the_lean_connection_speaks_mutual_tls_as_the_lobby_user(pki, tmp_path):
    password = new_secret()
    password_file = tmp_path / "lobby.password"
    password_file.write_text(password)
    with RedisServer(workdir=tmp_path / "redis", acl=acl_file({"lobby": password}), tls=pki("server")) as server:
        files = pki("client")
        settings = CoreSettings(tls_ca_file=files.ca_file, tls_cert_file=files.cert_file, tls_key_file=files.key_file,
                                redis_url=server.url, redis_username="lobby", redis_password_file=str(password_file))
        client = Redis.from_url(server.url, decode_responses=True, **redis_options(settings))
        lean = LeanRedis.like(client)
        assert lean is not None and lean.tls is not None
        try:
            count = LeanScript(lean, COUNT)
            assert [await count(keys=["limits:tls"]) for _ in range(2)] == ["1", "2"]
            assert await client.get("limits:tls") == "2"
        finally:
            await lean.close()
            await client.aclose()
        stranger_files = pki("stranger")
        stranger = LeanRedis.like(Redis.from_url(server.url, decode_responses=True, username="lobby", password=password,
                                                 ssl_ca_certs=files.ca_file, ssl_certfile=stranger_files.cert_file,
                                                 ssl_keyfile=stranger_files.key_file))
        try:
            with pytest.raises(RedisConnectionError):
                await LeanScript(stranger, COUNT)(keys=["limits:tls"])
        finally:
            await stranger.close()
