"""The chaos stack's processes never share a port: a twin (second adjudicator and lobby) copied from
the first must not inherit its gRPC, health, lobby or metrics port, or it would fail to start."""
from __future__ import annotations

from starbase_chaos.stack import ChaosStack, _free_ports_in_environ
from starbase_cli.run import services


def test_every_child_of_a_twin_stack_has_ports_of_its_own(tmp_path):
    stack = ChaosStack(tmp_path, twin=True)
    with _free_ports_in_environ():
        children = services({}, stack.creds)
    children += stack._twins(children)
    assert {c.name for c in children} >= {"adjudicator", "adjudicator-2", "lobby", "lobby-2"}
    metrics = [c.env["METRICS_PORT"] for c in children]
    assert len(set(metrics)) == len(metrics), metrics
    ports = [c.env[k] for c in children for k in c.env if k.endswith("_PORT") and k != "METRICS_PORT"]
    assert len(set(ports)) == len(ports), ports
