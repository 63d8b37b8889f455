"""Engine states as plain data: every engine's state comes back equal, independent of the original, and
plays on exactly as the original would; decoding builds nothing but the engine's own kinds of objects."""
from __future__ import annotations

import dataclasses
import json
import random
from enum import Enum

import pytest

from starbase_core.snapshot_codec import Unsupported, from_plain, to_plain
from starbase_core.snapshots import engine_packages
from starbase_rules.contract import fold
from starbase_rules.fair import FairRng
from starbase_rules.registry import ENGINES, get_game

PLAYERS = ["ann", "bob", "cyd"]


def through_json(value, packages):
    return from_plain(json.loads(json.dumps(to_plain(value))), packages)


def play(engine, state, rng, bots, commands: int) -> list:
    events = []
    for _ in range(commands):
        if engine.outcome(state) is not None or not (acting := engine.to_act(state)):
            break
        command = engine.bot_command(state, acting[0], bots)
        new = engine.decide(state, command, acting[0], rng)
        for event in new:
            state = engine.evolve(state, event)
        events += new
    return events


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_a_state_rebuilt_from_plain_data_plays_on_exactly_as_the_original(name):
    engine = get_game(name)
    packages = engine_packages(engine)
    seed = f"codec-{name}".encode()
    rng, bots = FairRng(seed), random.Random(7)
    state = fold(engine, engine.setup(PLAYERS, {}, rng))
    for _ in range(8):
        if engine.outcome(state) is not None:
            break
        copy = through_json(state, packages)
        assert copy == state
        # The copy and the original play the same next moves with the same draws: same events, same
        # states, and neither changes the other (nothing is shared between them).
        bots_state = bots.getstate()
        twin_bots = random.Random()
        twin_bots.setstate(bots_state)
        twin_events = play(engine, copy, FairRng(seed, start=rng.used), twin_bots, 15)
        assert play(engine, state, rng, bots, 15) == twin_events
        assert copy == state
    assert engine.invariants(state) == []


@dataclasses.dataclass
class Piece:
    where: tuple[int, int]
    tags: set[str]
    kind: "Kind"
    owner: dict | None = None


class Kind(Enum):
    SHIP = "ship"


@dataclasses.dataclass(frozen=True)
class Frozen:
    value: int


def test_tuples_sets_enums_bytes_and_non_string_keys_come_back_as_they_were():
    value = {"pieces": [Piece((1, 2), {"a", "b"}, Kind.SHIP, {(3, 4): b"x", 5: frozenset({1})})],
             "~": "a key that looks like a tag", "frozen": Frozen(3), "nothing": None, "ratio": 0.5}
    assert through_json(value, ("tests",)) == value


def test_a_mutable_object_reachable_twice_is_refused():
    shared = [1]
    with pytest.raises(Unsupported):
        to_plain({"a": shared, "b": shared})
    with pytest.raises(Unsupported):
        to_plain({"a": object()})


def test_decoding_builds_only_classes_of_the_packages_it_is_given():
    plain = to_plain(Piece((0, 0), set(), Kind.SHIP))
    with pytest.raises(ValueError):
        from_plain(plain, ("moon21",))
    for hostile in ({"~": "data", "c": "os:system", "v": {}},
                    {"~": "data", "c": "subprocess:Popen", "v": {}},
                    {"~": "model", "c": "tests.core.test_snapshot_codec:Piece", "v": {}},   # not a model
                    {"~": "enum", "c": "tests.core.test_snapshot_codec:Piece", "v": 1},
                    {"~": "pickle", "v": "gASV"}):
        with pytest.raises((ValueError, KeyError)):
            from_plain(hostile, ("tests", "os", "subprocess"))
