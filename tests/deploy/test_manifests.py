"""The Kubernetes manifests in deploy/kubernetes/, checked offline (no cluster).

Every resource is validated against the Kubernetes OpenAPI schemas bundled with `kubernetes-validate`,
strictly (an unknown or misspelt field is an error). Then the things operators rely on: probes that hit
what each service really serves, grace periods longer than the service's own, resources, Services and
selectors that find pods, settings that exist where they are read from, and a 3-node JetStream NATS.
"""
from __future__ import annotations

import base64
import re
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import kubernetes_validate
import pytest
import yaml

from starbase_cli.credentials import write_kubernetes
from tests.deploy import facts

MANIFEST_DIR = facts.ROOT / "deploy" / "kubernetes"
MANIFESTS = sorted(MANIFEST_DIR.glob("*.yaml"))
# A recent release and the newest schema the validator bundles: both must accept every resource.
K8S_VERSIONS = ["1.33.0", kubernetes_validate.latest_version()]
WORKLOAD_KINDS = {"Deployment", "StatefulSet"}


def _load() -> list[tuple[Path, dict]]:
    return [(path, doc) for path in MANIFESTS for doc in yaml.safe_load_all(path.read_text()) if doc]


def _generated() -> list[tuple[Path, dict]]:
    """The Secrets `starbase credentials kubernetes` makes (the manifests reference them), made afresh."""
    out = Path(tempfile.mkdtemp(prefix="starbase-k8s-secrets-"))
    path = write_kubernetes(out)
    return [(path, doc) for doc in yaml.safe_load_all(path.read_text()) if doc]


CHECKED_IN = _load()
GENERATED = _generated()
RESOURCES = CHECKED_IN + GENERATED


def _all(kind: str) -> list[dict]:
    return [doc for _, doc in RESOURCES if doc["kind"] == kind]


def _named(kind: str) -> dict[str, dict]:
    return {doc["metadata"]["name"]: doc for doc in _all(kind)}


WORKLOADS = [doc for _, doc in RESOURCES if doc["kind"] in WORKLOAD_KINDS]


def _containers(workload: dict) -> list[dict]:
    return workload["spec"]["template"]["spec"]["containers"]


def _starbase_containers() -> list[tuple[dict, dict, str]]:
    """(workload, container, service) for every container running `python -m <service>`."""
    found = []
    for workload in WORKLOADS:
        for container in _containers(workload):
            service = facts.python_module(container.get("command") or container.get("args"))
            if service is not None:
                found.append((workload, container, service))
    return found


STARBASE = _starbase_containers()


def _ids(items) -> list[str]:
    return [f"{w['metadata']['name']}/{c['name']}" for w, c, *_ in items]


def _container_env(container: dict) -> dict[str, str]:
    """The environment the process sees: envFrom ConfigMaps/Secrets first, then `env` overriding them.

    Values read through a key reference resolve to the referenced data, so they count too.
    """
    configmaps, secrets = _named("ConfigMap"), _named("Secret")
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        if "configMapRef" in source:
            env.update(configmaps[source["configMapRef"]["name"]].get("data", {}))
        if "secretRef" in source:
            if source["secretRef"].get("optional") and source["secretRef"]["name"] not in secrets:
                continue                # one the operator may create (the notifier's SMTP login)
            secret = secrets[source["secretRef"]["name"]]
            env.update(secret.get("stringData", {}))
            env.update({key: base64.b64decode(value).decode() for key, value in secret.get("data", {}).items()})
    for var in container.get("env", []):
        if "value" in var:
            env[var["name"]] = var["value"]
        elif "configMapKeyRef" in var.get("valueFrom", {}):
            ref = var["valueFrom"]["configMapKeyRef"]
            env[var["name"]] = configmaps[ref["name"]]["data"][ref["key"]]
        elif "secretKeyRef" in var.get("valueFrom", {}):
            ref = var["valueFrom"]["secretKeyRef"]
            secret = secrets[ref["name"]]
            env[var["name"]] = secret.get("stringData", {}).get(ref["key"]) or \
                base64.b64decode(secret.get("data", {})[ref["key"]]).decode()
    return env


def _port_number(container: dict, port) -> int:
    """A probe's or Service's port: a number, or the name of one of the container's ports."""
    if isinstance(port, int):
        return port
    named = {p.get("name"): p["containerPort"] for p in container.get("ports", [])}
    assert port in named, f"{container['name']}: no container port named {port!r}"
    return named[port]


def _serves(container: dict, target) -> bool:
    key = "containerPort" if isinstance(target, int) else "name"
    return any(p.get(key) == target for p in container.get("ports", []))


def _pods_selected_by(selector: dict) -> list[dict]:
    return [w for w in WORKLOADS
            if selector.items() <= w["spec"]["template"]["metadata"].get("labels", {}).items()]


def _prestop_sleep(container: dict) -> float:
    command = container.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
    return float(command[1]) if len(command) == 2 and command[0] == "sleep" else 0.0


# --- schema -----------------------------------------------------------------------------------------

def test_manifests_are_found():
    assert len(MANIFESTS) >= 9 and len(CHECKED_IN) >= 30 and len(GENERATED) >= 10


@pytest.mark.parametrize("version", K8S_VERSIONS)
@pytest.mark.parametrize("path,doc", RESOURCES,
                         ids=[f"{p.name}:{d['kind']}/{d['metadata']['name']}" for p, d in RESOURCES])
def test_resource_matches_the_kubernetes_schema_strictly(path, doc, version):
    try:
        kubernetes_validate.validate(doc, version, strict=True)
    except kubernetes_validate.ValidationError as error:
        pytest.fail(f"{path.name} {doc['kind']}/{doc['metadata']['name']}: {error.message} "
                    f"at {'/'.join(map(str, error.absolute_path))}")


def test_every_namespaced_resource_is_in_the_starbase_namespace():
    for _, doc in RESOURCES:
        if doc["kind"] != "Namespace":
            assert doc["metadata"].get("namespace") == "starbase", doc["metadata"]["name"]


def test_names_are_unique_per_kind():
    seen = [(doc["kind"], doc["metadata"]["name"]) for _, doc in RESOURCES]
    assert len(seen) == len(set(seen))


# --- workloads --------------------------------------------------------------------------------------

def test_every_runnable_service_has_a_workload():
    assert {service for _, _, service in STARBASE} == facts.runnable_services()
    assert facts.runnable_services() == set(facts.SERVICES), "tests/deploy/facts.py lacks a service"


@pytest.mark.parametrize("workload", WORKLOADS, ids=[w["metadata"]["name"] for w in WORKLOADS])
def test_every_container_has_probes_and_resources(workload):
    for container in _containers(workload):
        assert "livenessProbe" in container and "readinessProbe" in container, container["name"]
        resources = container.get("resources", {})
        assert {"cpu", "memory"} <= resources.get("requests", {}).keys(), container["name"]
        assert "memory" in resources.get("limits", {}), container["name"]


@pytest.mark.parametrize("workload,container,service", STARBASE, ids=_ids(STARBASE))
def test_probes_hit_the_health_endpoints_on_the_served_port(workload, container, service):
    env = _container_env(container)
    served = facts.health_port(service, env)
    expected_paths = {"livenessProbe": "/healthz", "readinessProbe": "/readyz", "startupProbe": "/healthz"}
    for probe_name, path in expected_paths.items():
        probe = container.get(probe_name)
        if probe is None:
            continue
        assert probe["httpGet"]["path"] == path, f"{probe_name} of {service}"
        assert _port_number(container, probe["httpGet"]["port"]) == served, f"{probe_name} of {service}"
    declared = {p["containerPort"] for p in container.get("ports", [])}
    assert facts.listening_ports(service, env) <= declared, f"{service} listens on undeclared ports"


@pytest.mark.parametrize("workload,container,service", STARBASE, ids=_ids(STARBASE))
def test_service_binds_an_address_reachable_from_outside_the_pod(workload, container, service):
    assert facts.binds_all_interfaces(service, _container_env(container)), \
        f"{service} listens on loopback only: probes and Services cannot reach it"


@pytest.mark.parametrize("workload,container,service", STARBASE, ids=_ids(STARBASE))
def test_termination_grace_outlasts_the_services_own_shutdown(workload, container, service):
    pod_grace = workload["spec"]["template"]["spec"].get("terminationGracePeriodSeconds", 30)
    needed = _prestop_sleep(container) + facts.grace_seconds(service, _container_env(container))
    assert pod_grace > needed, f"{service}: SIGKILL after {pod_grace}s, it needs {needed}s"


@pytest.mark.parametrize("workload,container,service", STARBASE, ids=_ids(STARBASE))
def test_settings_values_are_valid_for_the_service(workload, container, service):
    facts.effective(service, _container_env(container))   # pydantic refuses e.g. a non-numeric port


@pytest.mark.parametrize("workload,container,service", STARBASE, ids=_ids(STARBASE))
def test_lobby_secret_reaches_every_service_that_checks_tokens(workload, container, service):
    if facts.needs_lobby_secret(service):
        env = _container_env(container)
        assert env.get("LOBBY_SECRET"), f"{service} would draw its own secret and refuse other replicas' tokens"


def test_workload_selectors_match_their_pod_templates():
    for workload in WORKLOADS:
        selector = workload["spec"]["selector"]["matchLabels"]
        assert selector.items() <= workload["spec"]["template"]["metadata"]["labels"].items()


# --- references between resources ------------------------------------------------------------------

def test_every_service_selects_pods_and_targets_their_ports():
    for service in _all("Service"):
        pods = _pods_selected_by(service["spec"]["selector"])
        assert pods, f"Service {service['metadata']['name']} selects no pod"
        for port in service["spec"]["ports"]:
            target = port.get("targetPort", port["port"])
            assert any(_serves(c, target) for w in pods for c in _containers(w)), \
                f"Service {service['metadata']['name']} port {port['name']}: no pod serves {target}"


def test_disruption_budgets_select_pods():
    for budget in _all("PodDisruptionBudget"):
        assert _pods_selected_by(budget["spec"]["selector"]["matchLabels"]), budget["metadata"]["name"]


def test_autoscalers_target_existing_deployments():
    deployments = _named("Deployment")
    for hpa in _all("HorizontalPodAutoscaler"):
        target = hpa["spec"]["scaleTargetRef"]
        assert target["kind"] == "Deployment" and target["name"] in deployments


def test_ingress_backends_exist():
    services = _named("Service")
    for ingress in _all("Ingress"):
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                backend = path["backend"]["service"]
                assert backend["name"] in services, backend["name"]
                names = {p.get("name") for p in services[backend["name"]]["spec"]["ports"]}
                numbers = {p["port"] for p in services[backend["name"]]["spec"]["ports"]}
                assert backend["port"].get("name") in names or backend["port"].get("number") in numbers


def test_every_configmap_and_secret_reference_exists():
    configmaps, secrets = _named("ConfigMap"), _named("Secret")
    checked = 0
    for workload in WORKLOADS:
        pod = workload["spec"]["template"]["spec"]
        for volume in pod.get("volumes", []):
            if "configMap" in volume:
                assert volume["configMap"]["name"] in configmaps
                checked += 1
        for container in pod["containers"]:
            for source in container.get("envFrom", []):
                for ref, known in (("configMapRef", configmaps), ("secretRef", secrets)):
                    if ref in source and not source[ref].get("optional"):
                        assert source[ref]["name"] in known, source[ref]["name"]
                        checked += 1
            for var in container.get("env", []):
                value_from = var.get("valueFrom", {})
                for ref, known in (("configMapKeyRef", configmaps), ("secretKeyRef", secrets)):
                    if ref in value_from:
                        name, key = value_from[ref]["name"], value_from[ref]["key"]
                        data = {**known[name].get("data", {}), **known[name].get("stringData", {})}
                        assert key in data, f"{var['name']}: {name} has no key {key}"
                        checked += 1
    assert checked >= len(STARBASE)


def test_service_addresses_in_settings_name_resources_that_exist():
    services, statefulsets = _named("Service"), _named("StatefulSet")
    for _, container, service in STARBASE:
        env = _container_env(container)
        settings = facts.effective(service, env)
        for url in settings.nats_url.split(","):
            host = urlsplit(url).hostname
            pod, _, governing = host.partition(".")
            name, _, ordinal = pod.rpartition("-")
            assert governing in services and name in statefulsets, url
            assert statefulsets[name]["spec"]["serviceName"] == governing
            assert int(ordinal) < statefulsets[name]["spec"]["replicas"], url
        if service in facts.REDIS_USERS:
            assert urlsplit(settings.redis_url).hostname in services, settings.redis_url
        if facts.uses_adjudicator(service):
            target = re.sub(r"^dns:///", "", settings.adjudicator_target)
            host, port = target.rsplit(":", 1)
            name = host.split(".")[0]
            assert name in services, target
            assert int(port) in {p["port"] for p in services[name]["spec"]["ports"]}
        if service == "lobby":
            trucker_host = urlsplit(settings.trucker_public_url).hostname
            assert not facts.is_loopback(trucker_host), "players' browsers cannot reach the pod's loopback"
            routed = {rule.get("host"): path["backend"]["service"]["name"]
                      for ingress in _all("Ingress") for rule in ingress["spec"]["rules"]
                      for path in rule["http"]["paths"]}
            assert routed.get(trucker_host) == "trucker", f"no Ingress rule sends {trucker_host} to trucker"


# --- NATS -------------------------------------------------------------------------------------------

def _nats_config() -> str:
    return _named("ConfigMap")["nats-config"]["data"]["nats.conf"]


def test_nats_is_three_jetstream_nodes_on_persistent_volumes():
    nats = _named("StatefulSet")["nats"]
    assert nats["spec"]["replicas"] == 3
    config = _nats_config()
    store_dir = re.search(r"jetstream\s*\{[^}]*store_dir:\s*\"?([^\s\"]+)", config)
    assert store_dir, "JetStream is not enabled with a file store"
    assert re.search(r"sync_interval:\s*always", config), "messages must be fsynced before the ack"
    claims = {claim["metadata"]["name"] for claim in nats["spec"]["volumeClaimTemplates"]}
    mounts = {m["mountPath"]: m["name"] for m in _containers(nats)[0]["volumeMounts"]}
    assert mounts.get(store_dir.group(1)) in claims, "the JetStream store is not on a persistent volume"


def test_nats_cluster_routes_name_every_node():
    nats = _named("StatefulSet")["nats"]
    routes = set(re.findall(r"nats://([\w.-]+):6222", _nats_config()))
    expected = {f"nats-{i}.{nats['spec']['serviceName']}" for i in range(nats["spec"]["replicas"])}
    assert routes == expected


def test_nats_pods_spread_and_keep_a_quorum_through_disruptions():
    nats = _named("StatefulSet")["nats"]
    anti = nats["spec"]["template"]["spec"]["affinity"]["podAntiAffinity"]
    assert anti["requiredDuringSchedulingIgnoredDuringExecution"][0]["topologyKey"] == "kubernetes.io/hostname"
    budget = _named("PodDisruptionBudget")["nats"]
    assert budget["spec"].get("maxUnavailable") == 1


def test_store_replicas_fit_the_nats_cluster():
    replicas = int(_named("ConfigMap")["starbase-env"]["data"]["STORE_REPLICAS"])
    assert replicas == _named("StatefulSet")["nats"]["spec"]["replicas"] == 3


def test_nats_lame_duck_signal_uses_the_configured_pid_file():
    nats = _named("StatefulSet")["nats"]
    pid_file = re.search(r"pid_file:\s*(\S+)", _nats_config()).group(1)
    command = _containers(nats)[0]["lifecycle"]["preStop"]["exec"]["command"]
    assert command[-1] == f"ldm={pid_file}"
    mounts = {m["mountPath"] for m in _containers(nats)[0]["volumeMounts"]}
    assert str(Path(pid_file).parent) in mounts
