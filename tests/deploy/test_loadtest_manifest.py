"""deploy/kubernetes/loadtest/locust.yaml, checked offline: valid resources, and workers that find their master."""
from __future__ import annotations

import kubernetes_validate
import yaml

from starbase_load.options import add_options
from tests.deploy import facts

PATH = facts.ROOT / "deploy" / "kubernetes" / "loadtest" / "locust.yaml"
DOCS = [doc for doc in yaml.safe_load_all(PATH.read_text()) if doc]


def named(kind: str) -> dict[str, dict]:
    return {doc["metadata"]["name"]: doc for doc in DOCS if doc["kind"] == kind}


def container(name: str) -> dict:
    return named("Deployment")[name]["spec"]["template"]["spec"]["containers"][0]


def flag(args: list[str], name: str) -> str:
    return args[args.index(name) + 1]


def test_every_resource_is_valid_kubernetes():
    for doc in DOCS:
        kubernetes_validate.validate(doc, kubernetes_validate.latest_version(), strict=True)


def test_workers_reach_the_master_service_on_the_port_it_binds():
    master, worker = container("locust-master"), container("locust-worker")
    service = named("Service")["locust-master"]
    assert flag(worker["args"], "--master-host") == service["metadata"]["name"]
    ports = {p["name"]: p for p in service["spec"]["ports"]}
    assert int(flag(worker["args"], "--master-port")) == ports["workers"]["port"]
    assert int(flag(master["args"], "--master-bind-port")) == ports["workers"]["targetPort"]
    assert int(flag(master["args"], "--web-port")) == ports["web"]["targetPort"]
    master_labels = named("Deployment")["locust-master"]["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= master_labels.items()
    for name in ("locust-master", "locust-worker"):
        assert container(name)["command"] == ["python", "-m", "starbase_load"]
        assert named("Deployment")[name]["metadata"]["namespace"] == "starbase-load"


def test_the_master_targets_the_lobby_service_with_options_the_scenario_knows():
    import argparse

    parser = argparse.ArgumentParser()
    add_options(parser)
    known = {option for action in parser._actions for option in action.option_strings}
    args = container("locust-master")["args"]
    assert flag(args, "-H").startswith("http://lobby.starbase.svc")
    assert "--starbase-allow-remote" in args           # a cluster address is not this machine
    assert {a for a in args if a.startswith("--starbase-")} <= known
    assert {a for a in container("locust-worker")["args"] if a.startswith("--starbase-")} <= known
