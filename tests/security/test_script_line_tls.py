"""A script line (`starbase_core.script_line`, the lobby's command path and the Trucker moves) over mutual
TLS as the lobby's ACL user, made from the redis-py client the lobby builds from its settings: it gets
through with the CA and the lobby's certificate, and not with a certificate of another CA."""
from __future__ import annotations

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from starbase_core.script_line import LineScript, ScriptLine
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
        line = ScriptLine(client)
        try:
            count = LineScript(line, COUNT)
            assert [await count(keys=["limits:tls"]) for _ in range(2)] == ["1", "2"]
            assert await client.get("limits:tls") == "2"
        finally:
            await line.aclose()
            await client.aclose()
        stranger_files = pki("stranger")
        stranger = ScriptLine(Redis.from_url(server.url, decode_responses=True, username="lobby", password=password,
                                                 ssl_ca_certs=files.ca_file, ssl_certfile=stranger_files.cert_file,
                                                 ssl_keyfile=stranger_files.key_file))
        try:
            with pytest.raises(RedisConnectionError):
                await LineScript(stranger, COUNT)(keys=["limits:tls"])
        finally:
            await stranger.aclose()
