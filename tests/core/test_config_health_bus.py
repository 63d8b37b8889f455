"""Settings from the environment, the health server, and the NATS bus helpers."""
from __future__ import annotations

import asyncio

import httpx
import pytest
from pydantic import ValidationError

from starbase_core.bus import connect_nats, nats_servers, publish_json, subscribe_json
from starbase_core.config import CoreSettings, from_env
from starbase_core.health import HealthServer, serve_metrics


class ServiceSettings(CoreSettings):
    service_port: int = 8000
    debug: bool = False


def test_settings_have_safe_defaults_and_read_the_environment():
    assert from_env(ServiceSettings, {}).nats_url == "nats://127.0.0.1:4222"
    settings = from_env(ServiceSettings, {"SERVICE_PORT": "9100", "DEBUG": "true", "NATS_URL": "nats://n:1"})
    assert (settings.service_port, settings.debug, settings.nats_url) == (9100, True, "nats://n:1")


def test_a_bad_setting_stops_the_service_with_its_name():
    with pytest.raises(ValidationError, match="service_port"):
        from_env(ServiceSettings, {"SERVICE_PORT": "eighty"})


async def test_the_health_server_answers_liveness_and_readiness_and_metrics_have_their_own_port():
    ready = asyncio.Event()

    async def is_ready() -> bool:
        return ready.is_set()

    server = await HealthServer(0, is_ready, host="127.0.0.1").start()
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}") as client:
            assert (await client.get("/healthz")).status_code == 200
            assert (await client.get("/readyz")).status_code == 503
            ready.set()
            assert (await client.get("/readyz")).status_code == 200
            assert (await client.get("/metrics")).status_code == 404     # not beside the health checks
            assert (await client.get("/nothing")).status_code == 404
    finally:
        await server.stop()
    metrics_server = serve_metrics("127.0.0.1", 0)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{metrics_server.server_port}") as client:
            metrics = await client.get("/metrics")
            assert metrics.status_code == 200 and "python_info" in metrics.text
    finally:
        metrics_server.shutdown()
        metrics_server.server_close()


@pytest.mark.integration
async def test_bus_helpers_carry_json_between_connections(nats_url, namespace):
    publisher, subscriber = await connect_nats(nats_url), await connect_nats(nats_url)
    received: asyncio.Queue = asyncio.Queue()

    async def on_message(subject, payload):
        await received.put((subject, payload))

    subscription = await subscribe_json(subscriber, f"{namespace}.>", on_message)
    await subscriber.flush()
    # Core NATS is at most once: on this machine about 1 % of first messages to a brand-new
    # subscription on another connection never arrive (nats-server 2.15, even after a flush), so the
    # publisher repeats until one does. What must arrive goes through JetStream, never core NATS.
    for _ in range(50):
        await publish_json(publisher, f"{namespace}.hello", {"seq": 1, "ok": True})
        try:
            got = await asyncio.wait_for(received.get(), 0.2)
            break
        except asyncio.TimeoutError:
            continue
    assert got == (f"{namespace}.hello", {"seq": 1, "ok": True})
    await subscription.unsubscribe()
    await publisher.close()
    await subscriber.close()


async def test_connecting_to_nothing_gives_up_with_a_clear_error():
    from starbase_core.servers import free_port

    with pytest.raises(ConnectionError, match="could not reach NATS"):
        await connect_nats(f"nats://127.0.0.1:{free_port()}", attempts=2, first_delay=0.01)


def test_a_nats_url_may_list_a_cluster_separated_by_commas():
    assert nats_servers("nats://n1:4222") == ["nats://n1:4222"]
    assert nats_servers(" nats://n1:4222, nats://n2:4222 ,nats://n3:4222,") == \
        ["nats://n1:4222", "nats://n2:4222", "nats://n3:4222"]
    with pytest.raises(ValueError):
        nats_servers(" , ")


@pytest.mark.integration
async def test_a_cluster_url_connects_to_a_node_that_answers(nats_url):
    from starbase_core.servers import free_port

    dead = f"nats://127.0.0.1:{free_port()}"
    connection = await connect_nats(f"{dead}, {nats_url}", attempts=3, first_delay=0.01)
    try:
        assert connection.is_connected
        assert connection.connected_url.port == int(nats_url.rsplit(":", 1)[1])
        assert sorted(server.port for server in connection.servers) == \
            sorted([int(dead.rsplit(":", 1)[1]), int(nats_url.rsplit(":", 1)[1])])
    finally:
        await connection.close()


@pytest.mark.integration
async def test_a_cluster_url_fails_over_when_its_node_stops():
    from starbase_core.servers import NatsServer

    with NatsServer() as first, NatsServer() as second:
        connection = await connect_nats(f"{first.url},{second.url}")
        try:
            nodes = {int(node.url.rsplit(":", 1)[1]): node for node in (first, second)}
            was = connection.connected_url.port
            nodes.pop(was).stop()
            other = next(iter(nodes))
            for _ in range(200):        # gives up after ~10 s: a bound, not a timing assertion
                if connection.is_connected and connection.connected_url.port == other:
                    break
                await asyncio.sleep(0.05)
            assert connection.connected_url.port == other
            await connection.flush()      # and it carries traffic there
        finally:
            await connection.close()


def test_health_router_answers_readyz_by_the_check_not_422():
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from starbase_core.health import health_router

    state = {"ready": True}

    async def check() -> bool:
        return state["ready"]

    app = FastAPI()
    app.include_router(health_router(check))
    client = TestClient(app)
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 200
    state["ready"] = False
    answer = client.get("/readyz")
    assert answer.status_code == 503 and answer.json() == {"status": "not ready"}
    assert client.get("/metrics").status_code == 404       # metrics live on their own port (serve_metrics)
