"""Each service does its whole job with its own, least-privileged user: a whole game through the lobby,
the adjudicator (behind its caller check) and scoring, on NATS and Redis that authenticate everyone,
then `starbase export` with the audit tool's read-only user, whose export passes the audit. The NATS server must not have refused a
single operation on the way: the permissions are complete for what the services really do."""
from __future__ import annotations

import os
import subprocess
import sys

import httpx
import pytest

from starbase_cli.audit import read_export
from starbase_core.audit import PASS, audit_game
from starbase_rules.registry import get_game
from tests.e2e.test_full_game import check_game
from tests.support.stack import local_stack

pytestmark = [pytest.mark.integration, pytest.mark.timeout(240)]


async def test_a_whole_game_runs_with_every_service_on_its_own_user_and_nothing_is_refused(secured, tmp_path):
    async with local_stack(secured.nats.url, secured.redis.url, secured.namespace,
                           credentials=secured.creds) as stack:
        async with httpx.AsyncClient(base_url=stack.http, timeout=30) as http:
            game_id, stored = await check_game(stack, http, "testjack", choose_by_state=False)
    assert secured.violations() == []

    env = {**os.environ, "NATS_NKEY_FILE": str(secured.creds.nats_seed_file("audit"))}
    source = [game_id, "--nats-url", secured.nats.url, "--event-stream", secured.names.stream,
              "--subject-prefix", secured.names.prefix]
    exported = tmp_path / "game.jsonl"
    export = subprocess.run([sys.executable, "-m", "starbase_cli.main", "export", *source, "-o", str(exported)],
                            capture_output=True, text=True, env=env, timeout=60)
    assert export.returncode == 0, export.stdout + export.stderr
    envelopes = read_export(exported.read_text().splitlines())
    assert [e.hash for e in envelopes] == [e.hash for e in stored]
    assert audit_game(game_id, envelopes, get_game).verdict == PASS
    assert secured.violations() == []

    env.pop("NATS_NKEY_FILE")                       # and without a user, the store stays shut
    anonymous = subprocess.run([sys.executable, "-m", "starbase_cli.main", "export", *source],
                               capture_output=True, text=True, env=env, timeout=60)
    assert anonymous.returncode != 0 and '"seq"' not in anonymous.stdout
