"""A NATS JetStream cluster on loopback, from the same `nats-server` binary as `servers.NatsServer`.

    with NatsCluster(3) as cluster:                  # three nodes, JetStream replicated across them
        store = await JetStreamEventStore.connect(cluster.url, replicas=3)
        cluster.kill(cluster.node("n2"))             # SIGKILL one node; cluster.start_node(...) brings it back

Each node is a `NatsServer` (same config: JetStream on a file store that fsyncs before acknowledging)
with a server name (`n1`, `n2`, …), its own store directory and a `cluster {}` block routing to every
other node. `url` is the comma-separated list of the nodes' client URLs, which is what `NATS_URL`
takes (`starbase_core.bus.nats_servers`). A stream created with `replicas=3` keeps each message on all
three nodes; the cluster acknowledges a publish once a majority has it, so it goes on with two nodes
and refuses writes (clients see timeouts) with one (see `docs/chaos.md`).

`nats_for(size, ...)` gives a single `NatsServer` or a cluster: what `make run CLUSTER=3` and the
chaos harness start.

Locked down like a single server: `authorization` and `tls` apply to every node's client port, and the
routes between nodes authenticate too, so nothing that merely reaches a route port can join the
cluster (and so read or write every stream): with `route_password`, each node accepts routes only
from the user `route` with that password, and dials its peers with it; with `tls`, routes also speak
mutual TLS with the same certificates (as the Kubernetes manifests do). The password is only in the
nodes' config files (mode 0600).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
import time
import urllib.request
from pathlib import Path

from starbase_core.servers import NatsServer, ServerError, free_port
from starbase_core.tls import TlsFiles

ROUTE_USER = "route"


class ClusterNode(NatsServer):
    """One node: a `NatsServer` whose config also names it and routes it to its peers."""

    def __init__(self, server_name: str, cluster_name: str, route_port: int, peer_route_ports: list[int],
                 workdir: Path, port: int | None = None, *, authorization: str = "", tls: TlsFiles | None = None,
                 route_password: str = ""):
        super().__init__(port, workdir, authorization=authorization, tls=tls)
        self.server_name, self.cluster_name = server_name, cluster_name
        self.route_port, self.peer_route_ports = route_port, peer_route_ports
        self.route_password = route_password

    def _command(self) -> list[str]:
        command = super()._command()            # writes nats.conf (0600): listen, monitor, JetStream, auth, TLS
        with open(self.workdir / "nats.conf", "a") as config:
            config.write(f"server_name: {self.server_name}\n" + self._cluster_block())
        return command

    def _cluster_block(self) -> str:
        credentials = f"{ROUTE_USER}:{self.route_password}@" if self.route_password else ""
        routes = ", ".join(f"nats-route://{credentials}127.0.0.1:{port}" for port in self.peer_route_ports)
        block = f"cluster {{\n  name: {self.cluster_name}\n  listen: 127.0.0.1:{self.route_port}\n"
        if self.route_password:
            block += f'  authorization {{ user: {ROUTE_USER}, password: "{self.route_password}", timeout: 2 }}\n'
        if self.tls is not None:
            block += (f'  tls {{ cert_file: "{self.tls.cert_file}", key_file: "{self.tls.key_file}", '
                      f'ca_file: "{self.tls.ca_file}", verify: true, timeout: 2 }}\n')
        return block + f"  routes: [{routes}]\n}}\n"

    def kill(self) -> None:
        """SIGKILL, as a crash would: no flush, no goodbye to the peers. Its files stay."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()

    def healthy(self) -> bool:
        """The node's own health endpoint: 200 once its JetStream is current with the cluster."""
        try:
            with urllib.request.urlopen(f"{self.monitor_url}/healthz", timeout=1) as reply:
                return reply.status == 200
        except OSError:
            return False

    def jetstream_info(self) -> dict:
        with urllib.request.urlopen(f"{self.monitor_url}/jsz", timeout=2) as reply:
            return json.loads(reply.read())


class NatsCluster:
    startup_timeout = 30.0

    def __init__(self, size: int = 3, workdir: str | os.PathLike | None = None, *,
                 first_port: int | None = None, name: str = "starbase", authorization: str = "",
                 tls: TlsFiles | None = None, route_password: str = ""):
        if size < 1:
            raise ValueError("a cluster has at least one node")
        self._own_workdir = workdir is None
        self.workdir = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="starbase-nats-cluster-"))
        route_ports = [free_port() for _ in range(size)]
        self.nodes = [
            ClusterNode(f"n{index + 1}", name, route_ports[index],
                        [port for peer, port in enumerate(route_ports) if peer != index],
                        self.workdir / f"n{index + 1}", port=first_port if index == 0 else None,
                        authorization=authorization, tls=tls, route_password=route_password)
            for index in range(size)
        ]

    @property
    def url(self) -> str:
        return ",".join(node.url for node in self.nodes)

    @property
    def monitor_url(self) -> str:
        return self.nodes[0].monitor_url

    def node(self, server_name: str) -> ClusterNode:
        for node in self.nodes:
            if node.server_name == server_name:
                return node
        raise KeyError(f"no node named {server_name!r} in this cluster")

    def start(self) -> "NatsCluster":
        for node in self.nodes:
            node.start()
        self.wait_healthy()
        return self

    def start_node(self, node: ClusterNode) -> None:
        node.start()
        self.wait_healthy([node])

    def kill(self, node: ClusterNode) -> None:
        node.kill()

    def wait_healthy(self, nodes: list[ClusterNode] | None = None, timeout: float | None = None) -> None:
        """Until every given node (default: all) says its JetStream is current with the cluster."""
        waiting = list(nodes or self.nodes)
        deadline = time.monotonic() + (timeout or self.startup_timeout)
        while waiting:
            waiting = [node for node in waiting if not node.healthy()]
            if waiting and time.monotonic() > deadline:
                raise ServerError(f"NATS cluster nodes not healthy within {timeout or self.startup_timeout}s: "
                                  f"{', '.join(node.server_name for node in waiting)}")
            time.sleep(0.1)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> "NatsCluster":
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()


def nats_for(size: int, port: int | None = None, workdir: str | os.PathLike | None = None, *,
             authorization: str = "", tls: TlsFiles | None = None,
             route_password: str = "") -> NatsServer | NatsCluster:
    """One NATS server (`size` 1) or a cluster of `size` nodes, the first on `port`; `authorization`
    and `tls` for the clients (`servers.nats_config`), `route_password` for the routes (a cluster)."""
    if size <= 1:
        return NatsServer(port=port, workdir=workdir, authorization=authorization, tls=tls)
    return NatsCluster(size, workdir, first_port=port, authorization=authorization, tls=tls,
                       route_password=route_password)
