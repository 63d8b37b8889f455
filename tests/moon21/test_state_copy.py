"""The state copy `decide` works on (`GAME.copy_state`, the engine base's generated copier): equal to the original and sharing nothing mutable,
on every position of bot games; and `decide`/`legal_actions` leave the caller's state untouched."""
import copy
import random
from dataclasses import is_dataclass

import pytest

from moon21 import events as E
from moon21.game import GAME
from starbase_rules.contract import fold
from starbase_rules.fair import FairRng

IMMUTABLE = (int, str, float, bool, type(None), frozenset)


def shared_mutables(a, b, path="state") -> list[str]:
    """Paths where the copy `b` holds the very same mutable object as `a`."""
    if isinstance(a, IMMUTABLE):
        return []
    if isinstance(a, tuple):
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in shared_mutables(x, y, f"{path}[{i}]")]
    found = [path] if a is b else []
    if isinstance(a, dict):
        found += [p for k in a for p in shared_mutables(a[k], b[k], f"{path}[{k!r}]")]
    elif isinstance(a, list):
        found += [p for i, (x, y) in enumerate(zip(a, b)) for p in shared_mutables(x, y, f"{path}[{i}]")]
    elif is_dataclass(a):
        found += [p for k in vars(a) for p in shared_mutables(vars(a)[k], vars(b)[k], f"{path}.{k}")]
    else:
        found.append(f"{path}: unexpected {type(a).__name__}")
    return found


def mutable_ids(x, seen: list) -> list:
    """Ids of every mutable object reachable from `x`, once per path (a repeat means aliasing)."""
    if isinstance(x, IMMUTABLE):
        return seen
    if not isinstance(x, tuple):
        seen.append(id(x))
    children = x.values() if isinstance(x, dict) else vars(x).values() if is_dataclass(x) else x
    for child in children:
        mutable_ids(child, seen)
    return seen


def bot_positions(players: int, seed: int):
    """Every position of a bot game, with who acts there."""
    rng, bots = FairRng(f"clone-{seed}".encode()), random.Random(seed)
    state = fold(GAME, GAME.setup(["ann", "bob", "cy", "dan", "eve"][:players], {}, rng))
    while GAME.outcome(state) is None:
        actor = GAME.to_act(state)[0]
        yield state, actor
        command = GAME.bot_command(state, actor, bots)
        state = fold(GAME, GAME.decide(state, command, actor, rng), copy.deepcopy(state))
    yield state, None


@pytest.mark.parametrize("players,seed", [(3, 1), (5, 2)])
def test_given_any_position_of_a_game_when_cloned_then_equal_and_nothing_mutable_is_shared(players, seed):
    kinds = set()
    for state, _ in bot_positions(players, seed):
        kinds.add(state.kind)
        ids = mutable_ids(state, [])
        assert len(ids) == len(set(ids)), "the state is not a tree: a copy without memo would split it"
        twin = GAME.copy_state(state)
        assert twin == state
        assert shared_mutables(state, twin) == []
    assert {"ISR", "SR", "CR", "OR", "END"} <= kinds


def test_given_a_clone_when_the_clone_evolves_then_the_original_is_unchanged(table):
    t = table().stock_round().start("ann", "VH", 70, extra_shares=1)
    before = copy.deepcopy(t.state)
    twin = GAME.copy_state(t.state)
    GAME.evolve(twin, E.ShareBought(buyer="p:bob", cert="VH_2", source="ipo", price=70))
    GAME.evolve(twin, E.PriceMoved(corp="VH", direction="up", steps=1))
    assert t.state == before and twin != before


def test_given_positions_of_a_game_when_deciding_every_legal_action_then_the_callers_state_is_untouched():
    for i, (state, actor) in enumerate(bot_positions(4, 3)):
        if actor is None or i % 7:
            continue
        before = copy.deepcopy(state)
        for action in GAME.legal_actions(state, actor):
            GAME.decide(state, GAME.parse_command(action), actor, None)
        assert state == before
