"""docker-compose.yml and the Dockerfile, checked without a Docker engine.

The compose file is loaded as Compose reads it (YAML with anchors and `<<` merge keys). Every Starbase
service must start a package that exists, say when it is healthy on the port it really serves, wait for
the servers it needs to be healthy first, and publish the ports it listens on. The Dockerfile must
install the project as `make install` does and carry everything the services read at run time.
"""
from __future__ import annotations

import re
import shlex
from urllib.parse import urlsplit

import pytest
import yaml

from tests.deploy import facts

COMPOSE = yaml.safe_load((facts.ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
DOCKERFILE = (facts.ROOT / "Dockerfile").read_text()
OURS = {name: spec for name, spec in SERVICES.items() if "build" in spec}


def _dockerfile_env() -> dict[str, str]:
    env = {}
    for instruction in re.findall(r"^ENV\s+((?:.*\\\n)*.*)$", DOCKERFILE, re.M):
        for pair in shlex.split(instruction.replace("\\\n", " ")):
            key, _, value = pair.partition("=")
            env[key] = value
    return env


def _env(spec: dict) -> dict[str, str]:
    """What the process sees: the image's ENV, overridden by the compose `environment` (${X:-d} → d)."""
    environment = spec.get("environment", {})
    values = {k: re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", str(v)) for k, v in environment.items()}
    return {**_dockerfile_env(), **values}


def _service(spec: dict) -> str:
    return facts.python_module(spec.get("command"))


def _healthcheck_url(spec: dict) -> str:
    test = " ".join(spec["healthcheck"]["test"])
    match = re.search(r"https?://[^'\" ]+", test)
    assert match, f"healthcheck {test!r} requests no URL"
    return match.group(0)


def _published(spec: dict) -> dict[int, str]:
    """container port → host port (with ${VAR:-default} resolved to its default)."""
    return {container: host for container, (_, host) in _bindings(spec).items()}


def _bindings(spec: dict) -> dict[int, tuple[str, str]]:
    """container port → (host address, host port); an address left out means every interface."""
    bindings = {}
    for mapping in spec.get("ports", []):
        resolved = re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", str(mapping))
        parts = resolved.split(":")
        address = parts[0] if len(parts) == 3 else "0.0.0.0"
        bindings[int(parts[-1])] = (address, parts[-2])
    return bindings


# --- compose ----------------------------------------------------------------------------------------

def test_every_runnable_service_is_composed():
    assert {_service(spec) for spec in OURS.values()} == facts.runnable_services()
    assert {"nats", "redis"} <= SERVICES.keys()


@pytest.mark.parametrize("name", sorted(OURS))
def test_command_runs_a_package_of_the_image(name):
    package = _service(OURS[name])
    assert package is not None, f"{name}: command is not `python -m <package>`"
    assert (facts.SERVICES_DIR / package / "__main__.py").is_file()


@pytest.mark.parametrize("name", sorted(SERVICES))
def test_every_service_has_a_healthcheck(name):
    check = SERVICES[name].get("healthcheck", {})
    assert check.get("test") and check["test"][0] in ("CMD", "CMD-SHELL"), name


@pytest.mark.parametrize("name", sorted(OURS))
def test_healthcheck_asks_readyz_on_the_served_port(name):
    spec = OURS[name]
    url = urlsplit(_healthcheck_url(spec))
    assert url.path == "/readyz"
    assert url.port == facts.health_port(_service(spec), _env(spec))


@pytest.mark.parametrize("name", sorted(OURS))
def test_settings_are_valid_and_bind_all_interfaces(name):
    spec = OURS[name]
    service, env = _service(spec), _env(spec)
    facts.effective(service, env)
    assert facts.binds_all_interfaces(service, env), f"{name} binds loopback: unreachable from the host"
    unknown = [k for k in spec.get("environment", {})
               if not any(k.lower() in s.settings.model_fields for s in facts.SERVICES.values())]
    assert not unknown, f"{name}: no service reads {unknown}"


@pytest.mark.parametrize("name", sorted(OURS))
def test_starts_after_the_servers_it_needs_are_healthy(name):
    spec, service = OURS[name], _service(OURS[name])
    needed = {"nats"}
    if service in facts.REDIS_USERS:
        needed.add("redis")
    if facts.uses_adjudicator(service):
        needed.add(next(n for n, s in OURS.items() if _service(s) == "adjudicator"))
    depends = spec.get("depends_on", {})
    assert needed <= depends.keys(), f"{name} lacks {needed - depends.keys()}"
    for dependency, condition in depends.items():
        assert condition == {"condition": "service_healthy"}, f"{name} → {dependency}"
        assert "healthcheck" in SERVICES[dependency], dependency


def test_start_order_has_no_cycle():
    remaining = {name: set(spec.get("depends_on", {})) for name, spec in SERVICES.items()}
    while remaining:
        ready = [name for name, deps in remaining.items() if not deps & remaining.keys()]
        assert ready, f"depends_on cycle among {sorted(remaining)}"
        for name in ready:
            del remaining[name]


@pytest.mark.parametrize("name", sorted(OURS))
def test_published_ports_are_the_ones_the_service_listens_on(name):
    spec = OURS[name]
    listening = facts.listening_ports(_service(spec), _env(spec))
    assert set(_published(spec)) <= listening, f"{name} publishes a port nothing listens on"


def test_players_reach_the_lobby_and_trucker_from_the_host():
    by_service = {_service(s): s for s in OURS.values()}
    for service in ("lobby", "trucker"):
        assert facts.health_port(service, _env(by_service[service])) in _published(by_service[service])
    lobby_env = _env(by_service["lobby"])
    trucker_url = urlsplit(facts.effective("lobby", lobby_env).trucker_public_url)
    assert _published(by_service["trucker"]).get(trucker_url.port) == str(trucker_url.port)


@pytest.mark.parametrize("name", sorted(OURS))
def test_stop_grace_outlasts_the_services_own_shutdown(name):
    spec = OURS[name]
    seconds = int(re.fullmatch(r"(\d+)s", spec["stop_grace_period"]).group(1))
    assert seconds > facts.grace_seconds(_service(spec), _env(spec))


def test_nats_runs_jetstream_from_the_mounted_config_with_a_volume():
    nats = SERVICES["nats"]
    config_path = nats["command"][nats["command"].index("-c") + 1]
    mounts = {target: source for source, target, *_ in (v.split(":") for v in nats["volumes"])}
    source = mounts[config_path]
    config = (facts.ROOT / source).read_text()
    store_dir = re.search(r"jetstream\s*\{[^}]*store_dir:\s*\"?([^\s\"]+)", config).group(1)
    assert re.search(r"sync_interval:\s*always", config)
    assert not mounts[store_dir].startswith("."), "the JetStream store must be a named volume"
    assert mounts[store_dir] in COMPOSE["volumes"]


def test_redis_keeps_an_append_only_file_on_a_volume():
    redis = SERVICES["redis"]
    assert "--appendonly" in redis["command"]
    assert any(v.split(":")[0] in COMPOSE["volumes"] and v.split(":")[1] == "/data" for v in redis["volumes"])


# --- Dockerfile -------------------------------------------------------------------------------------

def _instructions(keyword: str) -> list[str]:
    joined = DOCKERFILE.replace("\\\n", " ")
    return [m.group(1).strip() for m in re.finditer(rf"^{keyword}\s+(.*)$", joined, re.M)]


def test_image_installs_the_project_like_make_after_copying_its_sources():
    copies = [c.split() for c in _instructions("COPY")]
    copied = {src.rstrip("/") for *sources, _ in copies for src in sources}
    assert {"pyproject.toml", "proto", "libs", "services"} <= copied
    install = next(i for i, line in enumerate(DOCKERFILE.splitlines()) if re.search(r"pip install .*-e \.", line))
    last_copy = max(i for i, line in enumerate(DOCKERFILE.splitlines()) if line.startswith("COPY"))
    assert last_copy < install, "the editable install needs the sources in place"


def test_proto_lands_where_the_adjudicator_compiles_it_from():
    workdir = _instructions("WORKDIR")[-1]
    destination = next(dst for src, dst in (c.split() for c in _instructions("COPY")) if src.rstrip("/") == "proto")
    proto_dir = destination if destination.startswith("/") else f"{workdir}/{destination}"
    configured = _dockerfile_env().get("ADJUDICATOR_PROTO_DIR")
    # wire.py looks two directories above services/adjudicator/, i.e. in the WORKDIR, unless told.
    assert proto_dir.rstrip("/") == (configured or f"{workdir}/proto")


def test_every_service_listening_port_is_exposed():
    exposed = {int(p.split("/")[0]) for line in _instructions("EXPOSE") for p in line.split()}
    for name, spec in OURS.items():
        assert facts.listening_ports(_service(spec), _env(spec)) <= exposed, name


def test_header_comment_names_every_service_and_its_port():
    header = DOCKERFILE.split("FROM", 1)[0]
    for service in facts.runnable_services():
        port = facts.health_port(service, _dockerfile_env())
        assert re.search(rf"python -m {service}\b.*\b{port}\b", header), f"header lacks {service} ({port})"
