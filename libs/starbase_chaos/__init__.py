"""Faults tested in the project: the stack as separate processes, bounded load through the public
APIs, one fault per trial, and a checker that counts what must never happen (see `docs/chaos.md`).

- `journal`: every answer a client got (acknowledged, refused, unanswered), in one shape for every
  load tool (the chaos workloads, `starbase load`, a Locust run), as JSON lines;
- `checker`: the journal against the store and the scoring projection: lost, duplicated,
  refused-but-applied, audits, chain breaks, games scored once;
- `stack`: the services as `make run` starts them (`starbase_cli.run`), and the faults (SIGKILL,
  SIGSTOP/SIGCONT, a wiped Redis, cluster nodes);
- `workload`, `trucker_bots`: board games through the lobby's HTTP API, Trucker over its socket;
- `trials`, `__main__`: the trials, their table, `python -m starbase_chaos` (`make chaos`).
"""
