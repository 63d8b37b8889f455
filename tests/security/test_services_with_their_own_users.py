"""Each service does its whole job with its own, least-privileged user: a whole game through the lobby,
the adjudicator (behind its caller check, snapshotting the game into its signed snapshot bucket) and
scoring (its durable consumer and Redis marker), on NATS and Redis that authenticate everyone; a fresh
adjudicator resumes the game from its snapshot; then `starbase export` (both formats) with the audit
tool's read-only user, whose export passes the audit. The lobby sends its commands over the NATS link
(ADJUDICATOR_LINK=nats: its user publishes them, the adjudicator's answers in the lobby's own inbox);
its other calls go over gRPC with its caller secret. The NATS server must not have refused a single
operation on the way: the permissions are complete for what the services really do."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import httpx
import pytest

from starbase_cli.audit import read_export
from starbase_core.audit import PASS, audit_game
from starbase_core.seeds import JetStreamSeedVault
from starbase_core.snapshots import JetStreamSnapshotBucket, Snapshots
from starbase_core.store_jetstream import JetStreamEventStore
from starbase_rules.registry import get_game
from tests.e2e.test_full_game import check_game
from tests.support.stack import local_stack

pytestmark = [pytest.mark.integration, pytest.mark.timeout(240)]


async def test_a_whole_game_runs_with_every_service_on_its_own_user_and_nothing_is_refused(secured, tmp_path):
    async with local_stack(secured.nats.url, secured.redis.url, secured.namespace, credentials=secured.creds,
                           snapshot_every=2, link="nats") as stack:
        async with httpx.AsyncClient(base_url=stack.http, timeout=30) as http:
            game_id, stored = await check_game(stack, http, "testjack", choose_by_state=False)
        assert await stack.ledger.redis.get(stack.scoring.marker) is not None    # scoring's marker, as scoring
        nats_link = stack.runtime.adjudicator._nats
        assert nats_link.placement.owner(0, asyncio.get_running_loop().time()) is not None  # heard the replica
    assert secured.violations() == []

    resumed = await resume_from_snapshot(secured, game_id)
    assert resumed is not None and 2 <= resumed.last_seq <= stored[-1].seq
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

    as_18xx = subprocess.run([sys.executable, "-m", "starbase_cli.main", "export", "--format", "18xx", *source],
                             capture_output=True, text=True, env=env, timeout=60)
    assert as_18xx.returncode != 0 and "not a 21Moon game" in as_18xx.stderr   # read as audit, refused by kind
    assert secured.violations() == []

    env.pop("NATS_NKEY_FILE")                       # and without a user, the store stays shut
    anonymous = subprocess.run([sys.executable, "-m", "starbase_cli.main", "export", *source],
                               capture_output=True, text=True, env=env, timeout=60)
    assert anonymous.returncode != 0 and '"seq"' not in anonymous.stdout


async def resume_from_snapshot(secured, game_id: str):
    """The game as a fresh adjudicator replica finds it in the snapshot bucket, as its own user."""
    store = await JetStreamEventStore.connect(secured.nats.url, auth=secured.auth("adjudicator"),
                                              name=secured.names.stream, subject_prefix=secured.names.prefix)
    try:
        vault = await JetStreamSeedVault(store._nc, secured.names.seeds).ensure()
        bucket = await JetStreamSnapshotBucket(store._nc, secured.names.snapshots).ensure()
        return await (await Snapshots.open(bucket, vault, get_game)).load(game_id, store)
    finally:
        await store.close()
