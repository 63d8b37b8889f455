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
