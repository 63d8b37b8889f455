"""Every trial `make chaos` runs, and the bounded subset `make test` runs (`quick`).

Each fault is undone by its own injection (a killed process started again at once, a paused one
continued, a cluster node brought back after `NODE_DOWN` seconds of load without it), so the
recovery time the runner measures starts when the harness has done what an orchestrator would.
"""
from __future__ import annotations

import asyncio

from starbase_chaos.stack import ChaosStack
from starbase_chaos.trials import Inject, Trial

PAUSE_SECONDS = 5.0     # NATS frozen this long (SIGSTOP … SIGCONT)
CLOCK_DOWN = 6.0        # the clock stays dead this long: the idle tables' 5 s decisions fall due meanwhile
NODE_DOWN = 6.0         # a cluster node stays dead this long, under load


def kill_and_restart(service: str) -> Inject:
    async def inject(stack: ChaosStack) -> None:
        stack.kill(service)
        stack.restart(service)
    return inject


def kill_for(service: str, seconds: float) -> Inject:
    async def inject(stack: ChaosStack) -> None:
        stack.kill(service)
        await asyncio.sleep(seconds)
        stack.restart(service)
    return inject


async def kill_nats(stack: ChaosStack) -> None:
    stack.kill_nats()
    await asyncio.to_thread(stack.restart_nats)


async def pause_nats(stack: ChaosStack) -> None:
    await asyncio.to_thread(stack.pause_nats, PAUSE_SECONDS)


async def wipe_redis(stack: ChaosStack) -> None:
    await asyncio.to_thread(stack.wipe_redis)


def cluster_node(role: str) -> Inject:
    """SIGKILL the event stream's leader (or a follower), run on without it, then bring it back."""
    async def inject(stack: ChaosStack) -> None:
        leader, followers = await stack.stream_leader()
        victim = leader if role == "leader" else followers[0]
        stack.kill_nats(victim)
        await asyncio.sleep(NODE_DOWN)
        await asyncio.to_thread(stack.restart_nats, victim)
    return inject


async def two_nodes_down(stack: ChaosStack) -> None:
    """Only one node of three left (no quorum: writes stop) for NODE_DOWN seconds, then both back."""
    leader, followers = await stack.stream_leader()
    for victim in (leader, followers[0]):
        stack.kill_nats(victim)
    await asyncio.sleep(NODE_DOWN)
    for victim in (leader, followers[0]):
        await asyncio.to_thread(stack.restart_nats, victim)


TRIALS = [
    Trial("kill-adjudicator", "SIGKILL adjudicator, restart", kill_and_restart("adjudicator")),
    Trial("kill-lobby", "SIGKILL lobby, restart", kill_and_restart("lobby")),
    Trial("kill-scoring", "SIGKILL scoring, restart", kill_and_restart("scoring"), quick=True),
    Trial("kill-trucker", "SIGKILL trucker, restart", kill_and_restart("trucker")),
    Trial("kill-clock", f"SIGKILL clock for {CLOCK_DOWN:.0f} s with decisions due", kill_for("clock", CLOCK_DOWN),
          idle_tables=2),
    Trial("kill-nats", "SIGKILL NATS, restart", kill_nats, repeats=2, quick=True),
    Trial("pause-nats", f"SIGSTOP NATS {PAUSE_SECONDS:.0f} s, SIGCONT", pause_nats, repeats=2),
    Trial("wipe-redis", "SIGKILL Redis, files deleted, restart empty", wipe_redis, repeats=2, quick=True),
    Trial("two-adjudicators", "one command id through 2 adjudicators at once; SIGKILL the 2nd",
          kill_and_restart("adjudicator-2"), repeats=2, twin=True),
    Trial("cluster-leader", f"3-node cluster: SIGKILL stream leader {NODE_DOWN:.0f} s", cluster_node("leader"),
          repeats=2, nats_nodes=3),
    Trial("cluster-follower", f"3-node cluster: SIGKILL a follower {NODE_DOWN:.0f} s", cluster_node("follower"),
          repeats=2, nats_nodes=3),
    Trial("cluster-one-left", f"3-node cluster: SIGKILL leader + follower {NODE_DOWN:.0f} s", two_nodes_down,
          repeats=1, nats_nodes=3),
]


def select(names: list[str] | None = None, quick: bool = False) -> list[Trial]:
    chosen = [t for t in TRIALS if (not quick or t.quick) and (not names or t.name in names)]
    unknown = set(names or ()) - {t.name for t in TRIALS}
    if unknown:
        raise ValueError(f"no trial called {', '.join(sorted(unknown))}; known: {', '.join(t.name for t in TRIALS)}")
    return chosen
