"""The stack as separate processes, as `make run` starts it, and the faults a trial injects into it.

The services are `starbase_cli.run`'s own children (`services(env, creds)`: the same modules,
environment and readiness probes), on free loopback ports, over a NATS server or a
`starbase_core.cluster` cluster and a Redis with an append-only file, all under one work directory
(logs in `logs/`). Locked down as `make run` is, because chaos should test what runs in production:
credentials are provisioned under `credentials/` (`starbase_core.provision`), NATS runs with every
service's NKey user and permissions (a cluster's routes with their password), Redis with the ACL users,
the adjudicator checks its callers, and no service runs with INSECURE_DEV_MODE. The harness itself reads
as a console tool would: the store as the `audit` user, the boards as `lobby-scores` (read-only).
A restarted NATS node or a wiped Redis comes back with the same users.
`twin=True` adds a second adjudicator (caching one game: like a replica that never saw the game) and
a second lobby that talks only to it, so one command can reach two adjudicator replicas at once.

Faults: `kill` (SIGKILL a service) then `restart` it, as an orchestrator would; `kill_nats` /
`restart_nats` (a node of a cluster by name); `pause_nats` (SIGSTOP … SIGCONT); `wipe_redis`
(SIGKILL, its files deleted, started again empty).
"""
from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import shutil
import signal
import time
from pathlib import Path
from typing import Iterator

from redis.asyncio import Redis

from starbase_core.cluster import NatsCluster, nats_for
from starbase_core.provision import provision
from starbase_core.servers import NatsServer, RedisServer, free_port
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_cli.run import Child, base_env, services, wait_ready

PORT_VARIABLES = ("ADJUDICATOR_PORT", "LOBBY_PORT", "TRUCKER_PORT")
STREAM, PREFIX, SCORING_PREFIX = "STARBASE", "sb", "scoring"     # the services' defaults


@contextlib.contextmanager
def _free_ports_in_environ() -> Iterator[None]:
    """`services()` picks its ports from the environment: free ones, never `make run`'s defaults."""
    saved = {name: os.environ.get(name) for name in PORT_VARIABLES}
    os.environ.update({name: str(free_port()) for name in PORT_VARIABLES})
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _sigkill(server) -> None:
    process, server.process = server.process, None
    if process is not None and process.poll() is None:
        process.kill()
        process.wait()


class ChaosStack:
    def __init__(self, workdir: str | os.PathLike, *, nats_nodes: int = 1, twin: bool = False,
                 clock_default_seconds: float = 0.0):
        self.workdir = Path(workdir)
        self.logs = self.workdir / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self.creds = provision(self.workdir / "credentials")
        self.nats: NatsServer | NatsCluster = nats_for(
            nats_nodes, workdir=self.workdir / "nats", authorization=self.creds.nats_authorization(),
            route_password=self.creds.route_password)
        self.redis = RedisServer(workdir=self.workdir / "redis", persist=True, acl=self.creds.redis_acl())
        self.twin, self.clock_default_seconds = twin, clock_default_seconds
        self.children: dict[str, Child] = {}
        self.env: dict[str, str] = {}

    # ---- up and down --------------------------------------------------------------------------------

    def start(self) -> "ChaosStack":
        self.nats.start()
        self.redis.start()
        nodes = len(self.nats.nodes) if isinstance(self.nats, NatsCluster) else 1
        self.env = {**base_env(self.nats.url, self.redis.url, nodes),
                    "CLOCK_DEFAULT_SECONDS": str(self.clock_default_seconds),
                    # The load comes from this machine: the lobby's rate limits would refuse it, as they
                    # would refuse any flood. The exemption is the only development setting used here.
                    "LOBBY_LIMITS_EXEMPT": "127.0.0.1/32,::1/128"}
        with _free_ports_in_environ():
            children = services(self.env, self.creds)
        if self.twin:
            children += self._twins(children)
        self.children = {child.name: child for child in children}
        for child in children:
            child.start(self.env, self.logs)
        wait_ready(children)
        return self

    def stop(self) -> None:
        for child in reversed(list(self.children.values())):
            if child.process is not None and child.process.poll() is None:
                with contextlib.suppress(OSError):
                    os.kill(child.process.pid, signal.SIGCONT)     # a paused one must hear its SIGTERM
            child.stop()
        self.redis.stop()
        self.nats.stop()

    def __enter__(self) -> "ChaosStack":
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def _twins(self, children: list[Child]) -> list[Child]:
        """A second adjudicator, and a second lobby that talks only to it."""
        by_name = {child.name: child for child in children}
        grpc_port, health, lobby_port = free_port(), free_port(), free_port()
        # Each twin its own metrics port too: a copied one would be taken, and the twin would not start.
        adjudicator = dataclasses.replace(
            by_name["adjudicator"], name="adjudicator-2", ready_url=f"http://127.0.0.1:{health}/readyz",
            env={**by_name["adjudicator"].env, "ADJUDICATOR_PORT": str(grpc_port),
                 "ADJUDICATOR_HEALTH_PORT": str(health), "METRICS_PORT": str(free_port()),
                 # One game cached: the twin tables take turns evicting each other, so it mostly
                 # reads a game afresh, as a replica that never saw it would.
                 "CACHE_GAMES": "1"}, process=None)
        lobby = dataclasses.replace(
            by_name["lobby"], name="lobby-2", ready_url=f"http://127.0.0.1:{lobby_port}/readyz",
            env={**by_name["lobby"].env, "LOBBY_PORT": str(lobby_port), "METRICS_PORT": str(free_port()),
                 "ADJUDICATOR_TARGET": f"127.0.0.1:{grpc_port}"}, process=None)
        return [adjudicator, lobby]

    # ---- where things are ---------------------------------------------------------------------------

    def lobby_url(self, name: str = "lobby") -> str:
        return self.children[name].ready_url.rsplit("/", 1)[0]

    async def store(self) -> JetStreamEventStore:
        """A connection of the harness's own to the event store, as the read-only `audit` user."""
        return await JetStreamEventStore.connect(self.nats.url, name=STREAM, subject_prefix=PREFIX, ensure=False,
                                                 auth=self.creds.nats_auth("audit"))

    def boards(self) -> Redis:
        """Scoring's keys, read as the lobby's read-only `lobby-scores` user."""
        login = self.creds.redis_login("lobby-scores")
        return Redis.from_url(self.redis.url, decode_responses=True, username=login["username"],
                              password=login["password"])

    def all_ready(self) -> bool:
        return all(child.ready() for child in self.children.values())

    async def wait_ready(self, timeout: float = 90.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if await asyncio.to_thread(self.all_ready):
                return True
            await asyncio.sleep(0.1)
        return False

    # ---- faults -------------------------------------------------------------------------------------

    def kill(self, name: str) -> None:
        _sigkill(self.children[name])

    def restart(self, name: str) -> None:
        self.children[name].start(self.env, self.logs)

    def kill_nats(self, node: str | None = None) -> None:
        if isinstance(self.nats, NatsCluster):
            self.nats.kill(self.nats.node(node or "n1"))
        else:
            _sigkill(self.nats)

    def restart_nats(self, node: str | None = None) -> None:
        if isinstance(self.nats, NatsCluster):
            self.nats.start_node(self.nats.node(node or "n1"))
        else:
            self.nats.start()

    def pause_nats(self, seconds: float) -> None:
        """SIGSTOP the NATS server (every node of a cluster) for `seconds`, then SIGCONT."""
        servers = self.nats.nodes if isinstance(self.nats, NatsCluster) else [self.nats]
        pids = [server.process.pid for server in servers if server.process is not None]
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        try:
            time.sleep(seconds)
        finally:
            for pid in pids:
                os.kill(pid, signal.SIGCONT)

    def wipe_redis(self) -> None:
        """SIGKILL Redis, delete its files, start it again empty on the same port."""
        _sigkill(self.redis)
        for entry in self.redis.workdir.iterdir():
            if entry.name != "redis.log":
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        self.redis.start()

    async def stream_leader(self) -> tuple[str, list[str]]:
        """The event stream's leader node and its followers (a cluster's server names)."""
        store = await self.store()
        try:
            cluster = (await store._js.stream_info(STREAM)).cluster
            if cluster is None or cluster.leader is None:
                raise RuntimeError(f"stream {STREAM} has no leader (is NATS a cluster?)")
            return cluster.leader, [replica.name for replica in cluster.replicas or [] if replica.name]
        finally:
            await store.close()
