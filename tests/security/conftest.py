"""Fixtures for the security tests: NATS and Redis started *with* authentication (and TLS), from
`starbase_core.servers`, with credentials made by `starbase_core.provision` exactly as `make run` makes
them. The rest of the suite keeps its open servers (tests/conftest.py).

`secured` (one per test module): NATS with every service's NKey user and permissions, Redis with every
service's ACL user, for the names of one namespace (the stream, subjects, seed bucket and key prefix
`tests.support.stack.local_stack` uses), so a whole stack can run on it as the services do.
"""
from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import nats
import pytest
from redis.asyncio import Redis

from starbase_core.bus import NatsAuth, connect_nats
from starbase_core.nats_permissions import Names, inbox_prefix
from starbase_core.pki import CertificateAuthority
from starbase_core.provision import Credentials, provision
from starbase_core.servers import NatsServer, RedisServer
from starbase_core.tls import TlsFiles
from tests.support import testjack
from tests.support.stack import stack_names

testjack.register()


@dataclass
class Secured:
    namespace: str
    names: Names
    creds: Credentials
    nats: NatsServer
    redis: RedisServer
    _opened: list = field(default_factory=list)

    def auth(self, role: str) -> NatsAuth:
        seed = self.creds.nats_seed_file(role).read_text().strip()
        return NatsAuth(nkey_seed=seed, inbox_prefix=inbox_prefix(role))

    async def connect(self, role: str) -> "Watched":
        """A NATS connection as `role`, recording the permission violations the server reports."""
        watched = Watched()
        connection = await nats.connect(self.nats.url, error_cb=watched.record, max_reconnect_attempts=0,
                                        **self.auth(role).options())
        watched.nc = connection
        self._opened.append(connection)
        return watched

    def redis_as(self, role: str) -> Redis:
        client = Redis.from_url(self.redis.url, decode_responses=True, username=role,
                                password=self.creds.redis_password_file(role).read_text().strip())
        self._opened.append(client)
        return client

    def violations(self) -> list[str]:
        """Every permission violation the NATS server logged so far."""
        log = Path(self.nats.workdir) / "nats.log"
        return [line for line in log.read_text().splitlines() if "Violation" in line]

    async def close_all(self) -> None:
        for item in self._opened:
            try:
                await (item.aclose() if isinstance(item, Redis) else item.close())
            except Exception:
                pass
        self._opened.clear()


@dataclass
class Watched:
    nc: nats.NATS | None = None
    errors: list[str] = field(default_factory=list)

    async def record(self, error: Exception) -> None:
        self.errors.append(str(error))

    def refused(self, subject_part: str) -> bool:
        return any("permissions violation" in e.lower() and subject_part.lower() in e.lower() for e in self.errors)

    async def wait_refused(self, subject_part: str, timeout: float = 5.0) -> bool:
        deadline = asyncio.get_running_loop().time() + timeout
        while not self.refused(subject_part):
            if asyncio.get_running_loop().time() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True


@pytest.fixture(scope="module")
def secured_servers(tmp_path_factory):
    namespace = f"s{uuid.uuid4().hex[:10]}"
    names = stack_names(namespace)
    creds = provision(tmp_path_factory.mktemp("credentials") / "creds", names=names)
    with NatsServer(authorization=creds.nats_authorization()) as nats_server, \
            RedisServer(acl=creds.redis_acl()) as redis_server:
        yield Secured(namespace, names, creds, nats_server, redis_server)


@pytest.fixture
async def secured(secured_servers):
    yield secured_servers
    await secured_servers.close_all()


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    """A CA made in the test, and certificates for a server (127.0.0.1) and a client."""
    directory = tmp_path_factory.mktemp("pki")
    ca = CertificateAuthority.create("test CA")
    ca.issued.write(directory, "ca")
    ca.issue("server", ["localhost", "127.0.0.1"]).write(directory, "server")
    ca.issue("client", ["client"]).write(directory, "client")
    other = CertificateAuthority.create("someone else's CA")
    other.issue("stranger", ["stranger"]).write(directory, "stranger")

    def files(name: str, ca_file: str = "ca.crt") -> TlsFiles:
        return TlsFiles(str(directory / ca_file), str(directory / f"{name}.crt"), str(directory / f"{name}.key"))

    return files


async def cannot_connect(url: str, **options) -> bool:
    try:
        await connect_nats(url, name="stranger", attempts=1, attempt_timeout=5, **options)
    except ConnectionError:
        return True
    return False
