"""The routes between the nodes of a NATS cluster (`make run CLUSTER=3`, the chaos harness) authenticate:
a server that reaches a route port without the route password is refused and never joins, so it can
neither read nor write any stream; one with the password joins (so the refusal is the password's)."""
from __future__ import annotations

import json
import secrets
import time
import urllib.request

import pytest

from starbase_core.cluster import ClusterNode, NatsCluster
from starbase_core.servers import free_port

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]
WAIT = 30.0     # a bound on a hang, not a timing assertion


def peers(node: ClusterNode) -> set[str]:
    with urllib.request.urlopen(f"{node.monitor_url}/routez", timeout=2) as reply:
        return {route.get("remote_name", "") for route in json.loads(reply.read()).get("routes") or []}


def wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {WAIT}s: {what}")
        time.sleep(0.1)


def refused_routes(node: ClusterNode) -> int:
    return sum("authentication error" in line for line in (node.workdir / "nats.log").read_text().splitlines())


def test_a_node_without_the_route_password_never_joins_and_one_with_it_does(tmp_path):
    password = secrets.token_hex(16)
    with NatsCluster(2, tmp_path / "cluster", route_password=password) as cluster:
        route_ports = [node.route_port for node in cluster.nodes]
        stranger = ClusterNode("stranger", "starbase", free_port(), route_ports, tmp_path / "stranger")
        member = ClusterNode("n3", "starbase", free_port(), route_ports, tmp_path / "n3", route_password=password)
        try:
            stranger.start()
            member.start()
            wait_for(lambda: {"n1", "n2"} <= peers(member), "the node with the password joins")
            wait_for(lambda: all(refused_routes(node) > 0 for node in cluster.nodes),
                     "the cluster refuses the stranger's routes")
            assert peers(stranger) == set()
            assert all("stranger" not in peers(node) for node in [*cluster.nodes, member])
        finally:
            stranger.stop()
            member.stop()
