"""Real mutual-TLS connections to NATS and Redis, with a CA and certificates made in the test (gRPC's
is in test_adjudicator_auth.py): the services' own connection code gets through with the CA and its
certificate; a plain-text client, or one without a certificate of the CA, does not."""
from __future__ import annotations

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from starbase_core.config import CoreSettings
from starbase_core.connections import nats_auth, redis_options
from starbase_core.envelope import NewEvent
from starbase_core.provision import new_secret
from starbase_core.redis_acl import acl_file
from starbase_core.servers import NatsServer, RedisServer
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_core.tls import TlsFiles, client_context
from starbase_core.bus import NatsAuth
from tests.security.conftest import cannot_connect

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]


def settings_with(files: TlsFiles, **values) -> CoreSettings:
    return CoreSettings(tls_ca_file=files.ca_file, tls_cert_file=files.cert_file, tls_key_file=files.key_file,
                        **values)


async def test_nats_over_mutual_tls_carries_the_event_store(pki, tmp_path):
    with NatsServer(workdir=tmp_path / "nats", tls=pki("server")) as server:
        assert server.url.startswith("tls://")
        settings = settings_with(pki("client"), nats_url=server.url)
        store = await JetStreamEventStore.connect(server.url, auth=nats_auth(settings, "lobby"), name="TLS",
                                                  subject_prefix="tls", attempts=3)
        try:
            stored = await store.append("table.t1", [NewEvent(type="TableOpened", data={})], expected_seq=0)
            assert [e.hash for e in await store.read("table.t1")] == [stored[0].hash]
        finally:
            await store.close()
        plain = server.url.replace("tls://", "nats://")
        assert await cannot_connect(plain)
        assert await cannot_connect(server.url, auth=NatsAuth(tls=client_context(TlsFiles(pki("client").ca_file))))
        assert await cannot_connect(server.url, auth=NatsAuth(tls=client_context(pki("stranger"))))


async def test_redis_over_mutual_tls_with_its_acl_user(pki, tmp_path):
    password = new_secret()
    password_file = tmp_path / "scoring.password"
    password_file.write_text(password)
    with RedisServer(workdir=tmp_path / "redis", acl=acl_file({"scoring": password}), tls=pki("server")) as server:
        assert server.url.startswith("rediss://")
        settings = settings_with(pki("client"), redis_url=server.url, redis_username="scoring",
                                 redis_password_file=str(password_file))
        client = Redis.from_url(server.url, decode_responses=True, **redis_options(settings))
        try:
            await client.set("{scoring}:position", "3")
            assert await client.get("{scoring}:position") == "3"
        finally:
            await client.aclose()
        for url, options in ((server.url.replace("rediss://", "redis://"), {"username": "scoring", "password": password}),
                             (server.url, {"username": "scoring", "password": password,
                                           "ssl_ca_certs": pki("client").ca_file})):
            stranger = Redis.from_url(url, socket_timeout=3, **options)
            try:
                with pytest.raises((RedisConnectionError, OSError)):
                    await stranger.ping()
            finally:
                await stranger.aclose()


def test_a_tls_address_without_a_ca_is_a_clear_error():
    with pytest.raises(ValueError, match="TLS_CA_FILE"):
        nats_auth(CoreSettings(nats_url="tls://127.0.0.1:4222"), "lobby")
    with pytest.raises(ValueError, match="TLS_CA_FILE"):
        redis_options(CoreSettings(redis_url="rediss://127.0.0.1:6379/0"))
