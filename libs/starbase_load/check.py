"""`python -m starbase_load.check`: hold the event store to a load run's journals (the chaos checker).

    python -m starbase_load.check --nats nats://127.0.0.1:4222 .load/journal/*.jsonl

Reads every journal file (JSON lines of `starbase_chaos.journal.Record`), then
`starbase_chaos.checker.check`: every acknowledged command and move is in its game's stream exactly
once at the seqs it was acknowledged with, nothing refused was stored, no command id was stored twice,
every game's hash chain holds and every finished game passes the audit (and, given `--redis`, was
scored once). Prints the verdict as one JSON object; exit status 0 when nothing must-be-zero is
non-zero, 1 otherwise, 2 when the check could not run (the store unreachable, a bad journal line).

The load run's master runs this in a process of its own at the end of a run (`coordination`): the
load processes run under gevent, the store client under asyncio.

It reads as the console tools do, each as its own read-only user, from the environment it inherits:
the store as the `audit` NATS user (`NATS_NKEY_FILE`, the TLS_* files), scoring's boards as Redis user
`lobby-scores` (`REDIS_USERNAME`, `REDIS_PASSWORD_FILE`). Against `make run`:
`NATS_NKEY_FILE=.run/credentials/nats/audit.nk REDIS_USERNAME=lobby-scores
REDIS_PASSWORD_FILE=.run/credentials/redis/lobby-scores.password starbase load …`. None set: an open
development server.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from starbase_chaos.checker import check
from starbase_chaos.journal import Journal
from starbase_core.config import CoreSettings, from_env
from starbase_core.connections import nats_auth, redis_options
from starbase_core.store_jetstream import JetStreamEventStore


async def verdict_of(files: list[Path], nats: str, stream: str, prefix: str, redis: str = "",
                     scoring_prefix: str = "scoring") -> dict:
    journal = Journal.load(*files)
    settings = from_env(CoreSettings).model_copy(update={"nats_url": nats, **({"redis_url": redis} if redis else {})})
    store = await JetStreamEventStore.connect(nats, name=stream, subject_prefix=prefix, ensure=False, attempts=3,
                                              auth=nats_auth(settings, "audit"))
    scoring = redis_client = None
    if redis:
        from redis.asyncio import Redis

        from scoring.client import ScoringReader
        redis_client = Redis.from_url(redis, decode_responses=True, **redis_options(settings))
        scoring = ScoringReader(redis_client, scoring_prefix)
    try:
        verdict = await check(store, journal, scoring=scoring)
    finally:
        await store.close()
        if redis_client is not None:
            await redis_client.aclose()
    return {"failures": verdict.failures(), "scoring_checked": bool(redis), "journals": len(files),
            **verdict.figures()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m starbase_load.check", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="journal files (JSON lines)")
    parser.add_argument("--nats", default="nats://127.0.0.1:4222")
    parser.add_argument("--stream", default="STARBASE")
    parser.add_argument("--prefix", default="sb")
    parser.add_argument("--redis", default="", help="also check scoring (scored once) in this Redis")
    parser.add_argument("--scoring-prefix", default="scoring")
    args = parser.parse_args(argv)
    try:
        verdict = asyncio.run(verdict_of(args.files, args.nats, args.stream, args.prefix, args.redis,
                                         args.scoring_prefix))
    except Exception as problem:        # unreachable store, unreadable journal: said, never a traceback
        print(json.dumps({"error": f"{type(problem).__name__}: {problem}"[:500]}))
        return 2
    print(json.dumps(verdict))
    return 1 if verdict["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
