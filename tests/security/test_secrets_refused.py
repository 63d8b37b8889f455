"""Every service refuses to start with a missing, short or placeholder secret, says which setting and how
to make one, and never echoes the value; INSECURE_DEV_MODE=true (development only) lets it start."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from starbase_core.credentials import HOW_TO_MAKE, InsecureSetting, check_secret, problem_with_secret, problems, require
from starbase_core.provision import provision
from lobby.config import LobbySettings

pytestmark = pytest.mark.timeout(120)
SERVICES = ["adjudicator", "lobby", "scoring", "clock", "trucker", "bots", "notifier"]
# Nothing is listening on this port: a service that got past its checks would retry NATS, not exit 2.
UNREACHABLE = {"NATS_URL": "nats://127.0.0.1:9", "REDIS_URL": "redis://127.0.0.1:9/0"}
OWN_SETTINGS = ("LOBBY_SECRET", "NATS_NKEY_FILE", "REDIS_USERNAME", "REDIS_PASSWORD_FILE", "ADJUDICATOR_TOKEN_FILE",
                "ADJUDICATOR_CALLERS_FILE", "INSECURE_DEV_MODE", "TRUCKER_TRUST_PLAYER_PARAM", "LOBBY_PRODUCTION",
                "LOBBY_SCORES_REDIS_USERNAME", "LOBBY_SCORES_REDIS_PASSWORD_FILE", "LOBBY_LIMITS_EXEMPT")
GOOD = "Zq3-xY8_pLm2Nw7Rt5Kv1Hb9Jc4Gd6Fs0"


def start(service: str, env: dict, wait: float = 20) -> subprocess.CompletedProcess | None:
    """Run `python -m <service>`; its result if it exits within `wait` s, else None (it is running)."""
    base = {k: v for k, v in os.environ.items() if k not in OWN_SETTINGS}
    process = subprocess.Popen([sys.executable, "-m", service], env={**base, **UNREACHABLE, **env},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = process.communicate(timeout=wait)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return None
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


@pytest.mark.parametrize("service", SERVICES)
def test_a_service_without_credentials_refuses_to_start_and_names_what_is_missing(service):
    result = start(service, {"METRICS_PORT": "0"})
    assert result is not None and result.returncode == 2, result
    assert "refusing to start" in result.stderr and "NATS_NKEY_FILE" in result.stderr


@pytest.mark.parametrize("production", [False, True], ids=["", "production"])
@pytest.mark.parametrize("placeholder", ["replace-me", "short-one"])
def test_a_placeholder_or_short_lobby_secret_is_refused_without_echoing_it(tmp_path, placeholder, production):
    env = {**provision(tmp_path / "creds").env("lobby"), "LOBBY_SECRET": placeholder, "METRICS_PORT": "0",
           "LOBBY_PRODUCTION": str(production).lower()}
    result = start("lobby", env)
    assert result is not None and result.returncode == 2, result
    assert "LOBBY_SECRET" in result.stderr and HOW_TO_MAKE in result.stderr
    assert placeholder not in result.stderr.replace(HOW_TO_MAKE, "")
    assert "Traceback" not in result.stderr


def test_a_production_lobby_refuses_insecure_dev_mode_and_never_draws_its_secret(tmp_path):
    env = {**provision(tmp_path / "creds").env("lobby"), "METRICS_PORT": "0", "LOBBY_PRODUCTION": "true"}
    result = start("lobby", {**env, "INSECURE_DEV_MODE": "true"})
    assert result is not None and result.returncode == 2, result
    assert "INSECURE_DEV_MODE" in result.stderr and env["LOBBY_SECRET"] not in result.stderr
    env.pop("LOBBY_SECRET")
    result = start("lobby", env)
    assert result is not None and result.returncode == 2 and "LOBBY_SECRET is not set" in result.stderr, result
    with pytest.raises(ValueError, match="INSECURE_DEV_MODE"):
        LobbySettings(lobby_production=True, lobby_secret=GOOD, insecure_dev_mode=True)
    assert LobbySettings(lobby_production=True, lobby_secret=GOOD).signing_secret() == GOOD


def test_the_trucker_service_refuses_to_take_a_player_at_their_word(tmp_path):
    env = {**provision(tmp_path / "creds").env("trucker"), "TRUCKER_TRUST_PLAYER_PARAM": "true", "METRICS_PORT": "0"}
    result = start("trucker", env)
    assert result is not None and result.returncode == 2
    assert "TRUCKER_TRUST_PLAYER_PARAM" in result.stderr


@pytest.mark.parametrize("service", SERVICES)
def test_with_its_own_generated_credentials_a_service_gets_past_the_checks(tmp_path, service):
    env = {**provision(tmp_path / "creds").env(service), "METRICS_PORT": "0"}
    assert start(service, env, wait=4) is None       # still running (waiting for NATS): not refused


def test_insecure_dev_mode_starts_with_a_warning():
    result = start("lobby", {"INSECURE_DEV_MODE": "true", "LOBBY_SECRET": "replace-me", "METRICS_PORT": "0"}, wait=4)
    assert result is None


def test_the_checks_name_the_problem():
    assert problem_with_secret("X", None).startswith("X is not set")
    assert "placeholder" in problem_with_secret("X", "  Replace-Me  ")
    assert "placeholder" in problem_with_secret("X", "please-change-me-before-going-live-123")
    assert "too short" in problem_with_secret("X", "abcdefghij")
    assert "repeats" in problem_with_secret("X", "a" * 40)
    assert problem_with_secret("X", "Zq3-xY8_pLm2Nw7Rt5Kv1Hb9Jc4Gd6Fs0") is None
    with pytest.raises(InsecureSetting):
        check_secret("X", "changeme")


def test_a_lobby_secret_drawn_for_a_test_is_not_taken_as_configured():
    # A LobbySettings built without LOBBY_SECRET signs with a random one drawn for the process, but the
    # entry point's check knows it was not set: the replicas would not share it.
    settings = LobbySettings()
    assert settings.signing_secret() and settings.signing_secret() == settings.signing_secret()
    with pytest.raises(SystemExit):
        require(settings, ["lobby_secret"], "lobby")
    require(LobbySettings(lobby_secret=GOOD), ["lobby_secret"], "lobby")


def test_a_placeholder_in_a_secret_file_is_refused_naming_the_setting(tmp_path):
    weak = tmp_path / "redis.password"
    weak.write_text("changeme\n")
    settings = LobbySettings(redis_username="lobby", redis_password_file=str(weak))
    found = problems(settings, ["redis"])
    assert len(found) == 1 and "REDIS_PASSWORD_FILE" in found[0] and "changeme" not in found[0]
    missing = LobbySettings(redis_username="lobby", redis_password_file=str(tmp_path / "nowhere"))
    assert "cannot read" in problems(missing, ["redis"])[0]
    # The lobby's second Redis user, the one that reads the boards, is checked the same way.
    assert "LOBBY_SCORES_REDIS_USERNAME is not set" in problems(LobbySettings(), ["scores_redis"])[0]
    scores = LobbySettings(lobby_scores_redis_username="lobby-scores", lobby_scores_redis_password_file=str(weak))
    assert "LOBBY_SCORES_REDIS_PASSWORD_FILE" in problems(scores, ["scores_redis"])[0]
