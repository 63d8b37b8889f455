"""Shared fixtures: real NATS (JetStream) and Redis servers for integration tests, and fresh names.

Servers come, in order, from: the `NATS_URL` / `REDIS_URL` environment variables; testcontainers
when a Docker engine answers; else the pip-installed `nats-server` and `redis-server` binaries on free
loopback ports (see `starbase_core.servers`). Each server is started once per test session, on first use.

Tests share those servers, so each test isolates itself with `namespace` (a fresh token usable as a
JetStream stream name suffix, a subject prefix or a Redis key prefix).
"""
from __future__ import annotations

import os
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from starbase_core.cluster import NatsCluster
from starbase_core.servers import NatsServer, RedisServer, nats_config


def _docker_answers() -> bool:
    if os.environ.get("STARBASE_NO_DOCKER"):
        return False
    try:
        import docker  # installed with testcontainers

        client = docker.from_env(timeout=2)
        client.ping()
        client.close()
        return True
    except Exception:  # no engine, no socket, no permission: fall back to the binaries
        return False


@contextmanager
def _container(image: str, port: int, scheme: str, command: str | None = None,
               files: dict[str, str] | None = None) -> Iterator[str]:
    from testcontainers.core.container import DockerContainer
    from testcontainers.core.waiting_utils import wait_for_logs

    container = DockerContainer(image).with_exposed_ports(port)
    if command:
        container = container.with_command(command)
    workdir = Path(tempfile.mkdtemp(prefix="starbase-container-"))
    for inside, text in (files or {}).items():
        (workdir / Path(inside).name).write_text(text)
        container = container.with_volume_mapping(str(workdir / Path(inside).name), inside, "ro")
    with container:
        wait_for_logs(container, "Server is ready" if scheme == "nats" else "Ready to accept connections")
        host = container.get_container_host_ip()
        yield f"{scheme}://{host}:{container.get_exposed_port(port)}"


@pytest.fixture(scope="session")
def nats_url() -> Iterator[str]:
    if url := os.environ.get("NATS_URL"):
        yield url
    elif _docker_answers():
        config = nats_config("0.0.0.0:4222", "0.0.0.0:8222", "/data/jetstream")
        with _container("nats:2.11", 4222, "nats", "-c /etc/nats/starbase.conf",
                        {"/etc/nats/starbase.conf": config}) as url:
            yield url
    else:
        with NatsServer() as server:
            yield server.url


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    if url := os.environ.get("REDIS_URL"):
        yield url
    elif _docker_answers():
        with _container("redis:7", 6379, "redis") as url:
            yield url
    else:
        with RedisServer() as server:
            yield server.url


@pytest.fixture
async def redis(redis_url):
    """A client of the session's Redis (replies decoded), closed after the test."""
    from redis.asyncio import Redis

    client = Redis.from_url(redis_url, decode_responses=True)
    yield client
    await client.aclose()


@pytest.fixture
def nats_cluster() -> Iterator[NatsCluster]:
    """A 3-node NATS JetStream cluster of the test's own on loopback (`.url` is what NATS_URL takes);
    the test may kill and restart its nodes (`starbase_core.cluster`)."""
    with NatsCluster(3) as cluster:
        yield cluster


def fresh_name(prefix: str = "t") -> str:
    """A short unique token: letters and digits only, valid in stream names, subjects and keys."""
    return f"{prefix}{uuid.uuid4().hex[:12]}"


@pytest.fixture
def new_name():
    """A factory of fresh tokens, for tests that need several (`new_name("game")`)."""
    return fresh_name


@pytest.fixture
def namespace() -> str:
    """A fresh per-test token for JetStream stream names, subject prefixes and Redis key prefixes."""
    return fresh_name()


@pytest.fixture
async def jetstream_store(nats_url, namespace):
    """A JetStreamEventStore on its own JetStream stream and subject prefix, removed afterwards."""
    from starbase_core.store_jetstream import JetStreamEventStore

    store = await JetStreamEventStore.connect(nats_url, name=f"T_{namespace}", subject_prefix=namespace)
    try:
        yield store
    finally:
        js = store._nc.jetstream()
        for stream in (store.name, f"KV_{store.name}_commands"):
            try:
                await js.delete_stream(stream)
            except Exception:  # already gone: nothing to clean
                pass
        await store.close()
