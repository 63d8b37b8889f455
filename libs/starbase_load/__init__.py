"""Load tests on Locust: simulated players of every Starbase game, spectators, and a check of the store.

| module | what |
|---|---|
| `locustfile`, `__main__` | the scenario as Locust loads it; `python -m starbase_load` = `locust -f` it |
| `users` | the user classes: a player per game, Trucker players, spectators |
| `seating`, `play` | finding a seat (quick play, else the table list) and playing one game |
| `lobby`, `sockets`, `realtime` | the lobby's HTTP API, its game sockets, Trucker's real-time socket |
| `protocol` | the sockets' messages in one shape, today's protocol and version 1 |
| `choosers`, `pace` | how a player chooses a move, and how long it thinks first |
| `metrics` | what is measured, as rows of Locust's statistics |
| `journal`, `coordination`, `check`, `report` | every answer journaled per process, shipped to the master, checked against the store at the end |
| `options`, `target` | the `--starbase-…` options; loopback only unless allowed |
| `run` | `starbase load`: the scenario headless, its reports and verdict (also used by the chaos harness and `make bench`) |

Only `locustfile`, `users` and the modules they use import Locust (and so gevent, which patches the
process); `protocol`, `choosers`, `pace`, `journal`, `check`, `target` and `run` do not, so asyncio
code may use them. Docs: docs/load-testing.md.
"""
