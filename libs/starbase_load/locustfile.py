"""The Starbase load scenario for Locust: `locust -f <this file>`, or `python -m starbase_load`.

    python -m starbase_load -H http://127.0.0.1:8000                       # the web UI on :8089
    python -m starbase_load -H http://127.0.0.1:8000 --headless -u 8 -r 2 -t 2m Moon21Player Spectator
    starbase load --game moon21 --users 8 --duration 120                    # the same, headless, reported

User classes: `users` (players of each game, Trucker players, spectators); the run's hooks (journals,
bounds, the check at the end): `coordination`. Docs: docs/load-testing.md.
"""
from starbase_load import coordination  # noqa: F401  (registers the run's hooks and options)
from starbase_load.users import (Moon21Player, Spectator, StellarPlayer, T2038Player,  # noqa: F401
                                 TruckerPlayer)


def _prepare() -> None:
    """Import the engines before the first user spawns and give workers longer to answer.

    A worker's users fold pushed events and run engine bots, which is CPU work between gevent switches;
    on a loaded machine that, or importing an engine's data on first use, can hold a worker's loop past
    Locust's three missed heartbeats, and the master would drop a healthy worker. Importing up front
    moves the long part before the worker says it is ready; the liveness is a setting.
    """
    import os

    import locust.runners

    from starbase_rules.registry import get_game
    for game in ("moon21", "t2038", "stellar", "trucker"):
        try:
            get_game(game)
        except Exception:       # noqa: BLE001  an engine not installed here: its players use legal actions
            pass
    locust.runners.HEARTBEAT_LIVENESS = int(os.environ.get("STARBASE_HEARTBEAT_LIVENESS", "15"))


_prepare()
