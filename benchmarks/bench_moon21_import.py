"""21Moon games of 18xx.games: the time to import the recorded game (`tests/moon21/data`), write and
audit its stream, and export it back. Prints figures only; never fails on a timing.
Run: `python benchmarks/bench_moon21_import.py`.
"""
from __future__ import annotations

import json
import pathlib
import statistics
import time

from moon21.game import GAME
from moon21.site18xx.exporter import export_game
from moon21.site18xx.gamefile import effective_actions
from moon21.site18xx.importer import import_game
from starbase_core.audit import audit_game
from starbase_core.imported import imported_stream
from starbase_rules.registry import get_game

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "tests" / "moon21" / "data" / "18xx_fixed_round.json"
ROUNDS = 5


def _timed(work) -> tuple[float, object]:
    started = time.perf_counter()
    result = work()
    return time.perf_counter() - started, result


def main() -> None:
    saved = json.loads(FIXTURE.read_text())
    times, result = [], None
    for _ in range(ROUNDS):
        seconds, result = _timed(lambda: import_game(saved))
        times.append(seconds)
    commands = [(s.actor, s.command.model_dump(mode="json"), s.events, None) for s in result.steps]
    stream_s, envelopes = _timed(lambda: imported_stream(
        "bench", GAME.name, result.game.players, result.options, result.origin(), result.setup, commands,
        GAME.outcome(result.state)))
    audit_s, report = _timed(lambda: audit_game("bench", envelopes, get_game))
    export_s, _ = _timed(lambda: export_game(result.setup, [c[:3] for c in commands], "bench"))
    print(f"game {result.game.game_id}: {len(saved['actions'])} saved actions, "
          f"{len(effective_actions(saved['actions']))} in force, {result.moves} moves -> {len(result.steps)} "
          f"commands, {sum(len(s.events) for s in result.steps)} events; result {result.result}")
    print(f"import: median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms "
          f"over {ROUNDS} runs (setup, undo/redo, every command decided and folded)")
    print(f"stream of {len(envelopes)} envelopes sealed in {stream_s * 1000:.0f} ms; audit {report.verdict} "
          f"in {audit_s * 1000:.0f} ms; export back in {export_s * 1000:.0f} ms")


if __name__ == "__main__":
    main()
