"""Review at a past position (`Adjudicator.view_at`, what `GET /games/{id}/view?at=N` asks): the cost of
stepping forward through a game (the usual review), of jumping to random positions (each a fold from
the start, or from the game's snapshot past `SNAPSHOT_WORTH`), and of the lobby's `next_turn` and
"my games" ordering. In memory (no NATS): the fold is the cost; the API adds one gRPC call.
Bounded: one 21Moon bot game of `LENGTH` envelopes, `JUMPS` random positions, a player with `TABLES`.
"""
from __future__ import annotations

import asyncio
import random
import statistics
import time

from adjudicator.service import Adjudicator
from starbase_core.seeds import MemorySeedVault
from starbase_core.snapshots import MemorySnapshotBucket, Snapshots
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.registry import get_game

LENGTH, SNAPSHOT_AT, JUMPS, TABLES = 700, 400, 40, 200
PLAYERS = ["ann", "bob", "cy", "dee"]


async def _played(store, vault) -> tuple[Snapshots, int]:
    """A bot game to `LENGTH`, its one snapshot taken near `SNAPSHOT_AT` (then a writer without any)."""
    snapshots = Snapshots(MemorySnapshotBucket(), b"k" * 32, get_game)
    writer = Adjudicator(store, vault, snapshots=snapshots, snapshot_every=SNAPSHOT_AT)
    await writer.create_game("g", "moon21", PLAYERS, {})
    bots = random.Random(4)
    for until in (SNAPSHOT_AT, LENGTH):
        while (record := await writer.record("g")).last_seq < until and record.ended is None:
            actor = record.engine.to_act(record.state)[0]
            command = record.engine.bot_command(record.state, actor, bots)
            await writer.submit("g", actor, command.model_dump(mode="json"), f"m{record.last_seq}")
        await writer.cache.settle()
        writer = Adjudicator(store, vault)
    return snapshots, (await writer.record("g")).last_seq


def _ms(samples: list[float]) -> str:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return f"p50 {statistics.median(samples) * 1e3:7.2f} ms, p99 {p99 * 1e3:7.2f} ms"


async def _timed(call) -> float:
    started = time.perf_counter()
    await call()
    return time.perf_counter() - started


async def main() -> None:
    store, vault = MemoryEventStore(), MemorySeedVault()
    snapshots, last = await _played(store, vault)
    print(f"21Moon bot game: {last} envelopes, 4 players")

    forward = Adjudicator(store, vault)
    steps = [await _timed(lambda s=seq: forward.view_at("g", s, "ann")) for seq in range(1, last + 1)]
    print(f"step forward (next move)        {_ms(steps[1:])}  over {len(steps) - 1} steps")

    positions = random.Random(1).sample(range(1, last + 1), JUMPS)
    cold = Adjudicator(store, vault)
    jumps = []
    for seq in positions:
        cold.reviews._kept.clear()              # no cursor, no envelopes kept: the worst case
        jumps.append(await _timed(lambda s=seq: cold.view_at("g", s, "ann")))
    print(f"random position, cold           {_ms(jumps)}")
    warm = Adjudicator(store, vault, snapshots=snapshots)
    saved = (await snapshots.load("g", store)).last_seq
    late = random.Random(2).sample(range(saved, last + 1), min(JUMPS, last + 1 - saved))
    snap, without = [], []
    for seq in late:
        warm.reviews._kept.clear()
        snap.append(await _timed(lambda s=seq: warm.view_at("g", s, "ann")))
        cold.reviews._kept.clear()
        without.append(await _timed(lambda s=seq: cold.view_at("g", s, "ann")))
    print(f"random position past the snapshot (seq {saved}), cold: from the snapshot {_ms(snap)}; "
          f"from the start {_ms(without)}")

    _my_games()


def _my_games() -> None:
    from lobby.domain import Table
    from lobby.loop.mine import my_tables
    from lobby.loop.turns import Step, TurnIndex, next_turn

    turns, tables = TurnIndex(), []
    for n in range(TABLES):
        game_id = f"t{n}"
        table = Table(table_id=game_id, game="moon21", seats=4, status="playing", game_id=game_id)
        table.seated = {0: "ann", 1: "bob"}
        tables.append(table)
        owing = ["ann"] if n % 3 == 0 else ["bob"]
        step = Step(n + 1, f"2026-12-02T00:{n % 60:02d}:00Z", "bob", True)
        turns.adopt(next_turn(None, game_id, n + 1, owing, False, [step]))
    started = time.perf_counter()
    for _ in range(100):
        my_tables(tables, turns, "ann", lambda table_id: int(table_id[1:]))
    print(f"my games of a player at {TABLES} tables: {(time.perf_counter() - started) / 100 * 1e3:.2f} ms a listing")


if __name__ == "__main__":
    asyncio.run(main())
