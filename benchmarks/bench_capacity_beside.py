"""21Moon through two stacks at once, this tree's services and an older tree's, on the same cores over the
same seconds: the CPU per move of each service, as a ratio of the two.

Why: on this shared 2-core machine the CPU per move of the very same code can double from one minute to the
next (docs/lobby-capacity.md, "how far apart two runs"), so a change worth 5-10 % is lost between two runs of
`bench_capacity` one after the other. Run at the same time, both stacks meet the machine's moment alike.

Each stack is NATS (JetStream, fsync), Redis, one adjudicator and one lobby, as `bench_capacity` starts them;
the older one from BENCH_BESIDE_BEFORE (a directory holding that tree's `services/`, `libs/` and `proto/`:
`git archive <commit> services libs proto | tar -x -C /tmp/before`), else from the commit BENCH_BESIDE_COMMIT
(default HEAD: with no change since, this tree beside itself, which shows how far apart the method reads
two equal stacks). This process plays TABLES tables of
3-seat 21Moon bots against each (`starbase load`'s tables, one move in flight per table, a socket per seat
and a spectator), both at once for SECONDS, ROUNDS times. Per round and stack: accepted moves/s, p99, and
the CPU per accepted move of the lobby, the adjudicator and nats-server (from /proc); then this tree's
over the older one's, and the medians of those ratios. The two stacks share the cores, so each runs
slower than alone: read the ratios, not the rates. Figures are printed, never judged.
BENCH_BESIDE_ENV_NOW / BENCH_BESIDE_ENV_BEFORE: settings for that stack's services only, as
"NAME=value,NAME=value" (e.g. BENCH_BESIDE_COMMIT=HEAD BENCH_BESIDE_ENV_NOW=ADJUDICATOR_LINK=nats: one tree,
its commands over NATS beside over gRPC). BENCH_BESIDE_MOVES=socket: the bots move on their sockets, not by POST.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from unittest.mock import patch

from bench_capacity import Stack       # same directory: run as a script
from starbase_cli import loadgen
from starbase_core.servers import NatsServer, RedisServer

BEFORE = os.environ.get("BENCH_BESIDE_BEFORE", "")
COMMIT = os.environ.get("BENCH_BESIDE_COMMIT", "HEAD")
TABLES = int(os.environ.get("BENCH_BESIDE_TABLES", 4))
SECONDS = float(os.environ.get("BENCH_BESIDE_SECONDS", 15))
ROUNDS = int(os.environ.get("BENCH_BESIDE_ROUNDS", 3))
MOVES = os.environ.get("BENCH_BESIDE_MOVES", "http")       # or "socket": the moves on the players' sockets
SETTINGS = {label: dict(pair.split("=", 1) for pair in os.environ.get(f"BENCH_BESIDE_ENV_{label.upper()}", "").split(",")
                        if pair) for label in ("before", "now")}
ROLES = ("lobby", "adjudicator", "nats")
BENCH_LIMIT_SECONDS = 600


def older_env(tree: str) -> dict:
    """The environment that makes `python -m lobby` (and the adjudicator) import the older tree first."""
    root = Path(tree).resolve()
    paths = [str(root / "services"), str(root / "libs")]
    return {"PYTHONPATH": os.pathsep.join(filter(None, paths + [os.environ.get("PYTHONPATH", "")])),
            "ADJUDICATOR_PROTO_DIR": str(root / "proto")}


async def both(plans: list) -> list:
    return await asyncio.gather(*(loadgen.run_load(plan) for plan in plans))


def one_round(stacks: dict[str, Stack]) -> dict[str, dict]:
    plans = [loadgen.LoadPlan(lobby=stack.lobbies[0], game="moon21", tables=TABLES, duration=SECONDS, drain=5.0,
                             moves=MOVES)
             for stack in stacks.values()]
    before = {label: stack.cpu() for label, stack in stacks.items()}
    reports = loadgen.new_loop_run(both(plans))
    after = {label: stack.cpu() for label, stack in stacks.items()}
    out = {}
    for (label, stack), report in zip(stacks.items(), reports):
        figures = report.figures()
        accepted = max(1, figures["commands"]["accepted"])
        out[label] = {"moves/s": figures["commands"]["accepted_per_s"],
                      "p99": figures["round_trip_ms"].get("p99", float("nan")),
                      "errors": len(figures["errors"]),
                      **{role: (after[label][role] - before[label][role]) * 1000 / accepted for role in ROLES}}
    return out


def archived(commit: str, into: Path) -> str:
    """That commit's services, libs and proto, unpacked into `into`."""
    root = Path(__file__).resolve().parents[1]
    tree = subprocess.run(["git", "-C", str(root), "archive", commit, "services", "libs", "proto"],
                          check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=tree, check=True)
    return str(into)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-beside-tree-") as unpacked:
        older = BEFORE or archived(COMMIT, Path(unpacked))
        print(f"21Moon, {TABLES} tables of 3 bots on each of two stacks at once, {SECONDS:.0f} s a round; CPU ms "
              f"per accepted move ({MOVES} moves): lobby / adjudicator / nats (the older tree: {BEFORE or 'commit ' + COMMIT}; "
              f"settings before {SETTINGS['before'] or '-'}, now {SETTINGS['now'] or '-'})")
        beside(older)


def beside(older: str) -> None:
    with contextlib.ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-beside-")))
        stacks: dict[str, Stack] = {}
        for label in ("before", "now"):
            (work / label).mkdir()
            nats, redis = stack.enter_context(NatsServer()), stack.enter_context(RedisServer())
            # the older services start with its paths first; this tree's with the environment as it is
            with patch.dict(os.environ, {**(older_env(older) if label == "before" else {}), **SETTINGS[label]}):
                stacks[label] = stack.enter_context(Stack(nats, redis, 1, work / label))
        ratios: dict[str, list[float]] = {role: [] for role in ROLES}
        for index in range(ROUNDS):
            found = one_round(stacks)
            cells = []
            for label in stacks:
                f = found[label]
                cells.append(f"{label} {f['moves/s']:6.1f}/s p99 {f['p99']:6.1f} ms  "
                             f"{f['lobby']:.2f} / {f['adjudicator']:.2f} / {f['nats']:.2f}"
                             f"{'  (' + str(f['errors']) + ' errors)' if f['errors'] else ''}")
            for role in ROLES:
                ratios[role].append(found["now"][role] / found["before"][role])
            print(f"  round {index + 1}: {' | '.join(cells)} | now / before "
                  f"{' / '.join(f'{ratios[role][-1]:.2f}' for role in ROLES)}  (load {os.getloadavg()[0]:.1f})")
        print(f"  median now / before over {ROUNDS} rounds: lobby {statistics.median(ratios['lobby']):.2f}, "
              f"adjudicator {statistics.median(ratios['adjudicator']):.2f}, "
              f"nats {statistics.median(ratios['nats']):.2f}")
    sys.stdout.flush()

if __name__ == "__main__":
    main()
