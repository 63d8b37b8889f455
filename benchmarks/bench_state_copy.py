"""The engine base's state copy (`starbase_rules.copy_state`, a copier generated per dataclass type)
against each engine's own copy today and `copy.deepcopy`, on a late state of a bot game of each engine.

`decide` copies the state once per command (and 21Moon's `legal_actions` once per candidate), so this
copy bounds their cost. Prints figures only; bounded (one bot game per engine, 200 copies per method).
"""
from __future__ import annotations

import copy
import pickle
import time

from starbase_rules.copying import copy_state
from starbase_rules.playout import playout

REPEATS = 200


def _engines():
    from moon21.game import GAME as MOON21
    from stellar.game import GAME as STELLAR
    from t2038.game import GAME as T2038
    from trucker_rules.game import GAME as TRUCKER
    return [
        ("moon21", MOON21, ["ann", "bob", "cy", "dee"], {},
         ("GAME.copy_state (the base since the port)", MOON21.copy_state)),
        ("t2038", T2038, ["ann", "bob", "cy", "dee"], {}, ("pickle (State.copy before the base)", _pickled)),
        ("trucker", TRUCKER, ["ann", "bob", "cy"], {}, ("TruckerState.clone", lambda s: s.clone())),
        ("stellar", STELLAR, ["ann", "bob", "cy", "dee"], {}, ("copy.deepcopy (before the base)", copy.deepcopy)),
    ]


def _pickled(state):
    return pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))


def _late_state(game, players, options):
    """The state two thirds into a bot game (the board is full, the ledger long)."""
    events = playout(game, players, seed=3, options=options, check=False).events
    state = game.initial_state()
    for event in events[: len(events) * 2 // 3]:
        state = game.evolve(state, event)
    return state


def _time(function, state) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(REPEATS):
            function(state)
        best = min(best, (time.perf_counter() - started) / REPEATS)
    return best


def main() -> None:
    for name, game, players, options, (own_name, own) in _engines():
        state = _late_state(game, players, options)
        assert copy_state(state) == state, f"{name}: the base's copy differs"
        base, mine, deep = _time(copy_state, state), _time(own, state), _time(copy.deepcopy, state)
        print(f"{name:8} base copy_state {base * 1e6:7.0f} µs | {own_name} {mine * 1e6:7.0f} µs "
              f"| copy.deepcopy {deep * 1e6:7.0f} µs | the base is {mine / base:.1f}x as fast as the engine's own, "
              f"{deep / base:.1f}x as fast as deepcopy")


if __name__ == "__main__":
    main()
