"""The Kubernetes manifests keep everything internal shut (docs/security.md), checked offline:
default-deny NetworkPolicies with one policy per workload, only the lobby and Trucker reachable from
the Ingress controller and only on their public ports, metrics on their own port and never routed,
TLS on the Ingress and on every internal address, and credentials that each service would accept at
startup (its own generated Secret, mounted where its settings say; no placeholder anywhere)."""
from __future__ import annotations

import base64
import os
import re
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from cryptography import x509

from starbase_core.credentials import problems
from starbase_core.servers import find_binary
from tests.deploy import facts
from tests.deploy.test_manifests import (
    CHECKED_IN, GENERATED, STARBASE, WORKLOADS, _all, _container_env, _containers, _ids, _named, _pods_selected_by,
    _port_number,
)

POLICIES = _all("NetworkPolicy")
INGRESS_CONTROLLER = {"kubernetes.io/metadata.name": "ingress-nginx"}


def _selects(policy: dict, workload: dict) -> bool:
    selector = policy["spec"]["podSelector"]
    labels = workload["spec"]["template"]["metadata"]["labels"]
    if not selector:
        return True
    if not selector.get("matchLabels", {}).items() <= labels.items():
        return False
    return all(labels.get(e["key"]) in e["values"] for e in selector.get("matchExpressions", [])
               if e["operator"] == "In")


def _specific_policies(workload: dict) -> list[dict]:
    return [p for p in POLICIES if p["spec"]["podSelector"] and _selects(p, workload)]


def _ingress_from_controller(policy: dict) -> list[int]:
    ports = []
    for rule in policy["spec"].get("ingress", []):
        if any(peer.get("namespaceSelector", {}).get("matchLabels") == INGRESS_CONTROLLER for peer in rule["from"]):
            ports += [port["port"] for port in rule.get("ports", [])]
    return ports


def _secret_data(name: str) -> dict[str, bytes]:
    secret = _named("Secret")[name]
    return {k: base64.b64decode(v) for k, v in secret.get("data", {}).items()}


# --- network policies -------------------------------------------------------------------------------

def test_everything_is_denied_both_ways_unless_a_policy_allows_it():
    deny = [p for p in POLICIES if p["spec"]["podSelector"] == {}
            and set(p["spec"]["policyTypes"]) == {"Ingress", "Egress"}
            and not p["spec"].get("ingress") and not p["spec"].get("egress")]
    assert deny, "no default-deny NetworkPolicy"
    dns = [p for p in POLICIES if p["spec"]["podSelector"] == {} and p["spec"].get("egress")]
    assert dns and all(port["port"] == 53 for p in dns for rule in p["spec"]["egress"] for port in rule["ports"])


@pytest.mark.parametrize("workload", WORKLOADS, ids=[w["metadata"]["name"] for w in WORKLOADS])
def test_every_workload_has_a_network_policy_of_its_own(workload):
    assert _specific_policies(workload), f"{workload['metadata']['name']} has no NetworkPolicy selecting it"


def test_only_the_lobby_and_trucker_public_ports_face_the_ingress_controller():
    reachable = {}
    for workload, container, service in STARBASE:
        ports = [port for p in _specific_policies(workload) for port in _ingress_from_controller(p)]
        if ports:
            reachable[service] = {_port_number(container, port) for port in ports}
    public = {service: {facts.health_port(service, _container_env(container))}
              for _, container, service in STARBASE if service in facts.PUBLIC}
    assert reachable == public
    for workload in _all("StatefulSet"):         # NATS and Redis: never from outside the namespace
        for policy in _specific_policies(workload):
            for rule in policy["spec"].get("ingress", []):
                assert all("namespaceSelector" not in peer for peer in rule["from"]), workload["metadata"]["name"]


@pytest.mark.parametrize("server,port", [("nats", 4222), ("redis", 6379)])
def test_the_servers_accept_only_their_clients(server, port):
    policy = _named("NetworkPolicy")[server]
    allowed = set()
    for rule in policy["spec"]["ingress"]:
        if any(p["port"] == port for p in rule["ports"]):
            for peer in rule["from"]:
                for expression in peer["podSelector"].get("matchExpressions", []):
                    allowed |= set(expression["values"])
                allowed |= set(peer["podSelector"].get("matchLabels", {}).values())
    clients = {service for _, _, service in STARBASE if server == "nats" or service in facts.REDIS_USERS}
    assert clients <= allowed and allowed - clients <= {"starbase-audit", "starbase-admin"}, allowed


# --- metrics ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("workload,container,service", STARBASE, ids=_ids(STARBASE))
def test_metrics_have_their_own_port_and_the_scrape_annotation_points_there(workload, container, service):
    env = _container_env(container)
    metrics = facts.metrics_port(service, env)
    assert metrics != facts.health_port(service, env)
    assert metrics in {p["containerPort"] for p in container["ports"]}
    annotations = workload["spec"]["template"]["metadata"].get("annotations", {})
    assert annotations.get("prometheus.io/port") == str(metrics)
    assert facts.effective(service, env).metrics_host in ("0.0.0.0", "::"), "Prometheus could not reach it"


def test_no_ingress_path_reaches_a_metrics_port():
    services = _named("Service")
    for ingress in _all("Ingress"):
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                backend = path["backend"]["service"]
                service = services[backend["name"]]
                for port in service["spec"]["ports"]:
                    target = port.get("targetPort", port["port"])
                    for workload in _pods_selected_by(service["spec"]["selector"]):
                        for container in _containers(workload):
                            name = facts.python_module(container.get("command"))
                            number = _port_number(container, target)
                            assert number != facts.metrics_port(name, _container_env(container)), backend


# --- TLS -------------------------------------------------------------------------------------------

def test_the_ingress_serves_tls_for_every_host():
    for ingress in _all("Ingress"):
        hosts = {rule["host"] for rule in ingress["spec"]["rules"]}
        covered = {host for entry in ingress["spec"].get("tls", []) for host in entry["hosts"]}
        assert hosts <= covered and all(entry.get("secretName") for entry in ingress["spec"]["tls"])


@pytest.mark.parametrize("workload,container,service", STARBASE, ids=_ids(STARBASE))
def test_every_internal_address_is_tls_with_a_certificate_for_its_name(workload, container, service):
    settings = facts.effective(service, _container_env(container))
    names = {"nats": [urlsplit(url).hostname for url in settings.nats_url.split(",")]}
    assert all(url.startswith("tls://") for url in settings.nats_url.split(","))
    if service in facts.REDIS_USERS:
        assert settings.redis_url.startswith("rediss://")
        names["redis"] = [urlsplit(settings.redis_url).hostname]
    if facts.uses_adjudicator(service):
        assert settings.adjudicator_tls
        names["adjudicator"] = [re.sub(r"^dns:///", "", settings.adjudicator_target).rsplit(":", 1)[0]]
    certificates = {"nats": _secret_data("nats-tls"), "redis": _secret_data("redis-tls"),
                    "adjudicator": _secret_data("starbase-adjudicator")}
    for server, hosts in names.items():
        certificate = x509.load_pem_x509_certificate(certificates[server]["tls.crt"])
        sans = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        assert set(hosts) <= set(sans.get_values_for_type(x509.DNSName)), (server, hosts)


# --- credentials -----------------------------------------------------------------------------------

@pytest.mark.parametrize("workload,container,service", STARBASE, ids=_ids(STARBASE))
def test_each_service_would_accept_its_mounted_credentials_at_startup(workload, container, service):
    """Its own Secret, mounted where its *_FILE settings point, passes the same checks as `main`."""
    env = _container_env(container)
    mounts = {m["mountPath"]: m["name"] for m in container.get("volumeMounts", [])}
    volumes = {v["name"]: v for v in workload["spec"]["template"]["spec"]["volumes"]}
    root = Path(tempfile.mkdtemp(prefix="starbase-mounted-"))
    for path, volume in mounts.items():
        secret = volumes[volume].get("secret")
        if secret:
            assert secret["secretName"] in (f"starbase-{service}",), f"{service} mounts someone else's Secret"
            for key, value in _secret_data(secret["secretName"]).items():
                (root / path.strip("/") / key).parent.mkdir(parents=True, exist_ok=True)
                (root / path.strip("/") / key).write_bytes(value)
    relocated = {k: (str(root / v.strip("/")) if k.endswith("_FILE") else v) for k, v in env.items()}
    settings = facts.effective(service, relocated)
    assert problems(settings, facts.SERVICES[service].needs) == []
    for name, value in env.items():
        if name.endswith("_FILE") and value:
            assert (root / value.strip("/")).is_file(), f"{service}: {name} names {value}, which is not mounted"


def test_no_credential_is_written_in_the_manifests():
    for _, doc in CHECKED_IN:
        assert doc["kind"] != "Secret", f"Secret {doc['metadata']['name']} is checked in: generate it"
    for _, container, _ in STARBASE:
        for var in container.get("env", []):
            if re.search("SECRET|PASSWORD|TOKEN", var["name"]) and "value" in var:
                assert var["name"].endswith("_FILE"), f"{var['name']} has a literal value"


def test_generated_secrets_hold_no_placeholder():
    for _, doc in GENERATED:
        for key, value in doc.get("data", {}).items():
            assert not facts.is_placeholder(base64.b64decode(value).decode(errors="replace")), key
    lobby_secret = _secret_data("starbase-lobby-secret")["LOBBY_SECRET"].decode()
    assert len(lobby_secret) >= 32


def test_the_nats_config_with_its_generated_auth_and_tls_is_valid(tmp_path):
    """`nats-server -t` on the manifest's config, laid out as the pod mounts it."""
    config = _named("ConfigMap")["nats-config"]["data"]["nats.conf"]
    etc = tmp_path / "etc" / "nats"
    (etc / "config").mkdir(parents=True)
    for directory, secret in (("auth", "nats-auth"), ("tls", "nats-tls")):
        (etc / directory).mkdir()
        for key, value in _secret_data(secret).items():
            (etc / directory / key).write_bytes(value)
    text = config.replace("/etc/nats/", f"{etc}/").replace("/data", str(tmp_path / "data"))
    text = text.replace("/var/run/nats/", f"{tmp_path}/")
    (etc / "config" / "nats.conf").write_text(text)
    checked = subprocess.run([find_binary("nats-server"), "-t", "-c", str(etc / "config" / "nats.conf")],
                             capture_output=True, text=True, env={**os.environ, "POD_NAME": "nats-0"}, timeout=30)
    assert checked.returncode == 0, checked.stdout + checked.stderr
