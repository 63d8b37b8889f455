"""docker-compose.yml keeps everything internal shut, checked without a Docker engine: only the lobby
and Trucker are published, on loopback by default; no secret is written in it; each service mounts only
its own credentials, made by `starbase credentials compose`, and would accept them at startup; NATS's
config with its generated users is valid."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from starbase_cli.credentials import write_compose
from starbase_core.credentials import problems
from starbase_core.servers import find_binary
from tests.deploy import facts
from tests.deploy.test_compose import COMPOSE, OURS, SERVICES, _bindings, _env, _service

GENERATED = "./deploy/compose/generated"


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    return write_compose(tmp_path_factory.mktemp("compose") / "generated")


def test_only_the_lobby_and_trucker_are_published_and_on_loopback_by_default():
    published = {name for name, spec in SERVICES.items() if spec.get("ports")}
    assert {_service(OURS[name]) for name in published} == facts.PUBLIC
    for name in published:
        for container, (address, _) in _bindings(SERVICES[name]).items():
            assert address == "127.0.0.1", f"{name} publishes {container} on {address}"
            assert container != facts.metrics_port(_service(SERVICES[name]), _env(SERVICES[name]))


def test_no_secret_is_written_in_the_compose_file():
    for name, spec in OURS.items():
        for variable, value in spec.get("environment", {}).items():
            if re.search("SECRET|PASSWORD|TOKEN", variable) and not variable.endswith("_FILE"):
                assert re.fullmatch(r"\$\{\w+:\?[^}]+\}", str(value)), f"{name}: {variable} has a value or a default"


@pytest.mark.parametrize("name", sorted(OURS))
def test_each_service_mounts_only_its_own_credentials_and_would_accept_them(name, generated):
    spec, service = OURS[name], _service(OURS[name])
    mounts = [volume.split(":") for volume in spec.get("volumes", [])]
    credential_mounts = [(source, target) for source, target, *_ in mounts if source.startswith(GENERATED)]
    assert credential_mounts == [(f"{GENERATED}/{service}", "/run/starbase")], credential_mounts
    env = _env(spec)
    relocated = {k: v.replace("/run/starbase", str(generated / service)) if k.endswith("_FILE") else v
                 for k, v in env.items()}
    relocated["LOBBY_SECRET"] = (generated / "compose.env").read_text().split("LOBBY_SECRET=")[1].split()[0]
    assert problems(facts.effective(service, relocated), facts.SERVICES[service].needs) == []
    assert re.match(r"\$\{STARBASE_UID:\?", spec["user"]), "the container must run as the credentials' owner"


def test_the_servers_mount_their_generated_users(generated):
    nats_mounts = {target: source for source, target, *_ in (v.split(":") for v in SERVICES["nats"]["volumes"])}
    assert nats_mounts["/etc/nats/auth.conf"] == f"{GENERATED}/nats/auth.conf"
    redis = SERVICES["redis"]
    acl = redis["command"][redis["command"].index("--aclfile") + 1]
    redis_mounts = {target: source for source, target, *_ in (v.split(":") for v in redis["volumes"])}
    assert redis_mounts[acl] == f"{GENERATED}/redis/users.acl"
    assert "user default off" in (generated / "redis" / "users.acl").read_text()


def test_the_nats_config_with_its_generated_users_is_valid(generated, tmp_path):
    config = (facts.ROOT / "deploy" / "compose" / "nats.conf").read_text().replace('"/data"', f'"{tmp_path}/data"')
    (tmp_path / "nats.conf").write_text(config)
    (tmp_path / "auth.conf").write_text((generated / "nats" / "auth.conf").read_text())
    checked = subprocess.run([find_binary("nats-server"), "-t", "-c", str(tmp_path / "nats.conf")],
                             capture_output=True, text=True, timeout=30, env=dict(os.environ))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert COMPOSE["volumes"].keys() >= {"nats-data", "redis-data"}
