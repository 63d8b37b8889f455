"""What one 21Moon move costs the engine, as the adjudicator and the load generator's bots use it
(issue 13). Prints figures only; never fails on a timing. Run: `python benchmarks/bench_moon21_move.py`.

Seeded 5-player bot games (`starbase_rules.playout`'s loop: the same seeds, draws and bot choices) are
played once untimed, recording each command and its events; then, with the board caches emptied
before each pass, replayed twice as the two callers use the engine:

- the load generator (`starbase_load.choosers.EngineChooser`): fold the move's events, pushed as JSON
  (`parse_event` + `evolve`), `to_act`, then the bot's choice (`bot_command`), which must equal the
  recorded command;
- the adjudicator (`starbase_core.transaction.decide_next`, then `owing`): `parse_command`, `decide`
  (which copies the state once: `copy_state` is timed apart on the same position), `evolve` by the
  events, which must equal the recorded ones, `outcome` and `to_act`;

and a third pass times `legal_actions` (the lobby's `GET /games/{id}/actions`) for the actor on every
fourth position. Then `AT_ONCE` games (seeds 1..AT_ONCE) go through both callers interleaved, a move of
each in turn, as an adjudicator or a load generator serving many games meets them: the parts `bot ×N`
and `decide ×N` (the engine's caches per position are shared by every game in the process). Figures are CPU time per move (`time.process_time`, which keeps most of other jobs'
load out of it), summed per part over the games and divided by the moves.

Before and after a change: with `BENCH_MOON21_BEFORE=/path/to/old/libs` (e.g. /tmp/before-session/libs)
each round runs the old code and this checkout's in fresh processes, alternately, `ROUNDS` times, and
prints min / median / max per part side by side; `digest` says whether both played the same games
(commands, events, legal actions); any difference is printed as DIFFERENT.
"""
from __future__ import annotations

import hashlib
import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import time

PLAYERS = ["ann", "bob", "cy", "dan", "eve"]
SEEDS = (1, 2, 3)
AT_ONCE = int(os.environ.get("BENCH_MOON21_AT_ONCE", 8))
ROUNDS = 3
LEGAL_EVERY = 4
LIBS = pathlib.Path(__file__).resolve().parents[1] / "libs"
PARTS = ("bot", "fold", "to_act", "loadgen", "parse", "decide", "copy", "evolve", "to_act+outcome",
         "adjudicator", "legal_actions", f"bot x{AT_ONCE}", f"decide x{AT_ONCE}")


def _clear_caches() -> None:
    """The board's caches per position, emptied between passes so no pass is warmed by another."""
    from moon21.board import graph, reach, search, stops
    for cache in (graph._CACHE, stops._CACHE, search._CACHE, search._PLANS, reach._CACHE):
        cache.clear()


def _record(seed: int):
    """One bot game as `playout` plays it: setup events, then [(actor, command, events)] as JSON."""
    from moon21.game import GAME
    from starbase_rules.contract import fold
    from starbase_rules.fair import FairRng
    rng, bots = FairRng(f"playout-moon21-{seed}".encode()), random.Random(seed)
    setup = GAME.setup(PLAYERS, {}, rng)
    state, moves = fold(GAME, setup), []
    while GAME.outcome(state) is None:
        actors = GAME.to_act(state)
        actor = actors[bots.randrange(len(actors))]
        command = GAME.bot_command(state, actor, bots)
        events = GAME.decide(state, command, actor, rng)
        state = fold(GAME, events, state)
        moves.append((actor, command.model_dump(mode="json"), [e.model_dump(mode="json") for e in events]))
    return [e.model_dump(mode="json") for e in setup], moves


def _loadgen(seed: int, setup: list, moves: list, spent: dict) -> None:
    """The load generator's bot: fold what the socket pushed, whose turn, the bot's choice."""
    from moon21.game import GAME
    clock, bots = time.process_time, random.Random(seed)
    state, pushed = GAME.initial_state(), setup
    for actor, command, events in moves:
        t0 = clock()
        for data in pushed:
            state = GAME.evolve(state, GAME.parse_event(data))
        t1 = clock()
        actors = GAME.to_act(state)
        t2 = clock()
        chosen = actors[bots.randrange(len(actors))]
        t3 = clock()
        mine = GAME.bot_command(state, chosen, bots)
        t4 = clock()
        spent["fold"] += t1 - t0
        spent["to_act"] += t2 - t1
        spent["bot"] += t4 - t3
        if chosen != actor or mine is None or mine.model_dump(mode="json") != command:
            raise AssertionError(f"seed {seed}: the bot chose {mine!r} for {chosen}; the game had {command} for {actor}")
        pushed = events


def _adjudicator(seed: int, setup: list, moves: list, spent: dict) -> None:
    """The adjudicator: parse, decide (on a copy), evolve its own state, outcome and who owes a move."""
    from moon21.game import GAME
    from starbase_rules.fair import FairRng
    clock, rng = time.process_time, FairRng(f"playout-moon21-{seed}".encode())
    GAME.setup(PLAYERS, {}, rng)                  # the setup's draws, so the moves draw as they did
    state = GAME.initial_state()
    for data in setup:
        state = GAME.evolve(state, GAME.parse_event(data))
    for actor, command, recorded in moves:
        t0 = clock()
        parsed = GAME.parse_command(command)
        t1 = clock()
        events = GAME.decide(state, parsed, actor, rng)
        t2 = clock()
        for event in events:
            state = GAME.evolve(state, event)
        t3 = clock()
        GAME.outcome(state)
        GAME.to_act(state)
        t4 = clock()
        spent["parse"] += t1 - t0
        spent["decide"] += t2 - t1
        spent["evolve"] += t3 - t2
        spent["to_act+outcome"] += t4 - t3
        if [e.model_dump(mode="json") for e in events] != recorded:
            raise AssertionError(f"seed {seed}: {command} by {actor} decided other events than the game's")


def _copies_and_lists(seed: int, setup: list, moves: list, spent: dict, listed: list) -> None:
    """`copy_state` on every position (decide's one copy, timed apart), `legal_actions` on every
    `LEGAL_EVERY`-th for its actor (what they list goes into the digest)."""
    from moon21.game import GAME
    clock = time.process_time
    state = GAME.initial_state()
    for data in setup:
        state = GAME.evolve(state, GAME.parse_event(data))
    for index, (actor, _, events) in enumerate(moves):
        t0 = clock()
        GAME.copy_state(state)
        t1 = clock()
        spent["copy"] += t1 - t0
        if index % LEGAL_EVERY == 0:
            t0 = clock()
            listed.append(GAME.legal_actions(state, actor))
            spent["legal_actions"] += clock() - t0
        for data in events:
            state = GAME.evolve(state, GAME.parse_event(data))


def _at_once(games: list[tuple[int, list, list]], caller: str) -> tuple[float, int]:
    """Every game's moves interleaved, a move of each game in turn, through one caller ("bot": the bots'
    choices; "decide": the adjudicator's), from emptied caches: (CPU seconds, moves), each move checked
    against the recorded game."""
    from moon21.game import GAME
    from starbase_rules.fair import FairRng
    clock = time.process_time
    _clear_caches()
    tables = []
    for seed, setup, moves in games:
        rng = FairRng(f"playout-moon21-{seed}".encode())
        GAME.setup(PLAYERS, {}, rng)
        state = GAME.initial_state()
        for data in setup:
            state = GAME.evolve(state, GAME.parse_event(data))
        tables.append([state, rng, random.Random(seed), iter(moves)])
    spent, played = 0.0, 0
    while tables:
        for table in list(tables):
            state, rng, choices, moves = table
            move = next(moves, None)
            if move is None:
                tables.remove(table)
                continue
            actor, command, recorded = move
            if caller == "bot":
                actors = GAME.to_act(state)
                chosen = actors[choices.randrange(len(actors))]
                t0 = clock()
                mine = GAME.bot_command(state, chosen, choices)
                spent += clock() - t0
                same = chosen == actor and mine is not None and mine.model_dump(mode="json") == command
                events = [GAME.parse_event(data) for data in recorded]
            else:
                t0 = clock()
                events = GAME.decide(state, GAME.parse_command(command), actor, rng)
                spent += clock() - t0
                same = [e.model_dump(mode="json") for e in events] == recorded
            if not same:
                raise AssertionError(f"a game of {len(games)} at once did not replay as recorded ({caller})")
            for event in events:
                state = GAME.evolve(state, event)
            table[0] = state
            played += 1
    return spent, played


def measure(seeds=SEEDS) -> dict:
    """Milliseconds per move for each part, over the games of `seeds`, and a digest of what was played."""
    spent = dict.fromkeys(PARTS, 0.0)
    digest, moves_played, legal_calls = hashlib.sha256(), 0, 0
    for seed in seeds:
        setup, moves = _record(seed)
        listed: list = []
        for run in (_loadgen, _adjudicator):
            _clear_caches()
            run(seed, setup, moves, spent)
        _clear_caches()
        _copies_and_lists(seed, setup, moves, spent, listed)
        digest.update(json.dumps([setup, moves, listed], sort_keys=True, default=str).encode())
        moves_played += len(moves)
        legal_calls += len(listed)
    games = [(seed, *_record(seed)) for seed in range(1, AT_ONCE + 1)]
    (bots, at_once), (decides, _) = _at_once(games, "bot"), _at_once(games, "decide")
    digest.update(str(at_once).encode())
    spent["loadgen"] = spent["fold"] + spent["to_act"] + spent["bot"]
    spent["adjudicator"] = spent["parse"] + spent["decide"] + spent["evolve"] + spent["to_act+outcome"]
    figures = {part: 1000 * value / moves_played for part, value in spent.items()}
    figures["legal_actions"] = 1000 * spent["legal_actions"] / legal_calls
    figures[f"bot x{AT_ONCE}"], figures[f"decide x{AT_ONCE}"] = 1000 * bots / at_once, 1000 * decides / at_once
    return {"ms": figures, "moves": moves_played, "digest": digest.hexdigest()[:16]}


def before_and_after(before_libs: str, rounds: int = ROUNDS) -> None:
    """Each round: the old code's process, then this checkout's (other jobs' load falls on both)."""
    script = ("import json, sys; sys.path.insert(0, sys.argv[1]); import bench_moon21_move as b; "
              "print(json.dumps(b.measure()))")
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    loads = []
    for _ in range(rounds):
        for label, libs in (("before", before_libs), ("after", str(LIBS))):
            env = dict(os.environ, PYTHONPATH=libs)
            done = subprocess.run([sys.executable, "-c", script, str(pathlib.Path(__file__).parent)],
                                  env=env, capture_output=True, text=True, check=True)
            runs[label].append(json.loads(done.stdout.splitlines()[-1]))
            loads.append(os.getloadavg()[0])
    digests = {label: {r["digest"] for r in found} for label, found in runs.items()}
    same = digests["before"] == digests["after"] and len(digests["after"]) == 1
    print(f"{runs['after'][0]['moves']} moves of {len(SEEDS)} 5-player bot games; ms of CPU per move "
          f"(legal_actions: per call, every {LEGAL_EVERY}th position), min / median / max of {rounds} rounds; "
          f"load average {min(loads):.1f}-{max(loads):.1f}; games and answers "
          f"{'the same' if same else 'DIFFERENT: ' + str(digests)}")
    print(f"{'part':<16}{'before (' + before_libs + ')':>34}{'after (this checkout)':>34}")
    for part in PARTS:
        cells = []
        for label in ("before", "after"):
            values = sorted(r["ms"][part] for r in runs[label])
            cells.append(f"{values[0]:.3f} / {statistics.median(values):.3f} / {values[-1]:.3f}")
        print(f"{part:<16}{cells[0]:>34}{cells[1]:>34}")


def main() -> None:
    found = measure()
    print(f"{found['moves']} moves, digest {found['digest']}; ms of CPU per move:")
    for part in PARTS:
        print(f"  {part:<16}{found['ms'][part]:8.3f}")
    if os.environ.get("BENCH_MOON21_BEFORE"):
        before_and_after(os.environ["BENCH_MOON21_BEFORE"])


if __name__ == "__main__":
    main()
