"""Shared fixtures: real NATS (JetStream) and Redis servers for integration tests, and fresh names.

Servers come, in order, from: the `NATS_URL` / `REDIS_URL` environment variables; testcontainers
when a Docker engine answers; else the pip-installed `nats-server` and `redis-server` binaries on free
loopback ports (see `starbase_core.servers`). Each server is started once per test session, on first use.

Tests share those servers, so each test isolates itself with `namespace` (a fresh token usable as a
JetStream stream name suffix, a subject prefix or a Redis key prefix).
"""
from __future__ import annotations

import os
import uuid
from contextlib import contextmanager
from typing import Iterator

import pytest

from starbase_core.servers import NatsServer, RedisServer


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
def _container(image: str, port: int, scheme: str, command: str | None = None) -> Iterator[str]:
    from testcontainers.core.container import DockerContainer
    from testcontainers.core.waiting_utils import wait_for_logs

    container = DockerContainer(image).with_exposed_ports(port)
    if command:
        container = container.with_command(command)
    with container:
        wait_for_logs(container, "Server is ready" if scheme == "nats" else "Ready to accept connections")
        host = container.get_container_host_ip()
        yield f"{scheme}://{host}:{container.get_exposed_port(port)}"


@pytest.fixture(scope="session")
def nats_url() -> Iterator[str]:
    if url := os.environ.get("NATS_URL"):
        yield url
    elif _docker_answers():
        with _container("nats:2.10", 4222, "nats", "-js --sync_interval always") as url:
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


def fresh_name(prefix: str = "t") -> str:
    """A short unique token: letters and digits only, valid in stream names, subjects and keys."""
    return f"{prefix}{uuid.uuid4().hex[:12]}"


@pytest.fixture
def namespace() -> str:
    """A fresh per-test token for JetStream stream names, subject prefixes and Redis key prefixes."""
    return fresh_name()
