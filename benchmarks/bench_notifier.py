"""Notifier figures: notifications per second through the notifier, webhooks to a local receiver.

    python benchmarks/bench_notifier.py [games]

A real NATS (JetStream, fsync) from the venv's wheel on a free loopback port, a real adjudicator on it,
`games` testjack games of two players (default 150) played to their end before the notifier starts:
each game causes 6 notifications (2 started, 2 turns, 2 ended), each player has a webhook to one HTTP
receiver on loopback. Then one notifier (durable consumer, claims in KV) works through the backlog;
we print how long until the receiver holds every notification, and the rate. Bounded: at most 400
games, and 120 s of waiting.
"""
from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudicator.service import Adjudicator  # noqa: E402
from notifier.causes import Causes  # noqa: E402
from notifier.consumer import NotifierConsumer  # noqa: E402
from notifier.preferences import Preferences, Webhook  # noqa: E402
from starbase_core.logging import configure_logging  # noqa: E402
from starbase_core.seeds import MemorySeedVault  # noqa: E402
from starbase_core.servers import NatsServer  # noqa: E402
from starbase_core.store_jetstream import JetStreamEventStore  # noqa: E402
from tests.notifier.helpers import parts  # noqa: E402
from tests.notifier.receiver import Receiver  # noqa: E402
from tests.support import testjack  # noqa: E402

WAIT_SECONDS = 120.0


async def play(adjudicator: Adjudicator, game_id: str, players: list[str]) -> None:
    await adjudicator.create_game(game_id, "testjack", players, {})
    for n, player in enumerate(players):
        await adjudicator.submit(game_id, player, {"type": "Stand"}, f"{game_id}-{n}")


async def bench(nats_url: str, games: int) -> None:
    store = await JetStreamEventStore.connect(nats_url, name="BENCH", subject_prefix="bench")
    receiver = await Receiver().start()
    adjudicator = Adjudicator(store, MemorySeedVault())
    async with parts(nats_url, "bench", event_stream="BENCH", event_subject_prefix="bench",
                     notifier_timeout_seconds=10.0, notifier_lease_seconds=60.0) as made:
        tables = [(f"g{n}", [f"p{n}a", f"p{n}b"]) for n in range(games)]
        for _, players in tables:
            for player in players:
                await made.preferences.put(player, Preferences(webhook=Webhook(url=receiver.url, secret="s")))
        started = time.perf_counter()
        for start in range(0, games, 25):
            await asyncio.gather(*(play(adjudicator, g, p) for g, p in tables[start:start + 25]))
        print(f"  played {games} games ({games * 4} appends) in {time.perf_counter() - started:.1f} s")
        wanted = games * 6
        consumer = NotifierConsumer(store, Causes(store), made.deliverer, made.settings.notifier_durable,
                                    in_flight=256, ack_wait=30.0)
        started = time.perf_counter()
        running = asyncio.create_task(consumer.run())
        try:
            await receiver.wait_for(wanted, timeout=WAIT_SECONDS)
        except TimeoutError:
            print(f"  stopped after {WAIT_SECONDS:.0f} s with {len(receiver.answered())} of {wanted}")
        elapsed = time.perf_counter() - started
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
    delivered = len(receiver.answered())
    ids = {r.id for r in receiver.answered()}
    print(f"  notifications delivered: {delivered} (distinct ids {len(ids)}, expected {wanted})")
    print(f"  one notifier, webhooks on loopback: {delivered / elapsed:.0f} notifications/s "
          f"({elapsed:.1f} s for the backlog; each = a claim create, a signed POST, a claim update)")
    await receiver.stop()
    await store.close()


def main() -> None:
    games = min(int(sys.argv[1]) if len(sys.argv) > 1 else 150, 400)
    configure_logging("bench", "warning", json=True)
    testjack.register()
    with tempfile.TemporaryDirectory() as workdir, NatsServer(workdir=workdir) as nats:
        asyncio.run(bench(nats.url, games))


if __name__ == "__main__":
    main()
