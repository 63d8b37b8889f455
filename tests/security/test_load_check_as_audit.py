"""The load tool's store check (`python -m starbase_load.check`, run by `starbase load` at the end)
reads an authenticated stack as the console tools do: the store as the read-only `audit` NATS user and
the boards as Redis user `lobby-scores`, from the environment; without them the store stays shut."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from starbase_core.store_jetstream import JetStreamEventStore

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


def run_check(secured, env: dict) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "starbase_load.check", "--nats", secured.nats.url, "--stream",
               secured.names.stream, "--prefix", secured.names.prefix, "--redis", secured.redis.url,
               "--scoring-prefix", secured.names.scoring_prefix]
    inherited = {k: v for k, v in os.environ.items() if k not in ("NATS_NKEY_FILE", "REDIS_USERNAME",
                                                                    "REDIS_PASSWORD_FILE")}
    return subprocess.run(command, capture_output=True, text=True, env={**inherited, **env}, timeout=60)


async def test_the_load_check_reads_as_audit_and_lobby_scores_and_nothing_is_refused(secured):
    store = await JetStreamEventStore.connect(secured.nats.url, auth=secured.auth("adjudicator"),
                                              name=secured.names.stream, subject_prefix=secured.names.prefix)
    await store.close()                                      # the stream exists, as on a running stack
    creds = secured.creds
    own = {"NATS_NKEY_FILE": str(creds.nats_seed_file("audit")), "REDIS_USERNAME": "lobby-scores",
           "REDIS_PASSWORD_FILE": str(creds.redis_password_file("lobby-scores"))}
    checked = run_check(secured, own)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    verdict = json.loads(checked.stdout.splitlines()[-1])      # the last line, as the load run reads it
    assert verdict["failures"] == [] and verdict["journals"] == 0, verdict
    assert verdict["scoring_checked"] is True
    assert secured.violations() == []

    anonymous = run_check(secured, {})
    assert anonymous.returncode == 2 and "error" in json.loads(anonymous.stdout.splitlines()[-1])
