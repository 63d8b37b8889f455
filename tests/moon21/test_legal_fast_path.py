"""The fast `legal_actions` (decisions probed without copying the state, answers kept per position)
gives exactly the answers of the straightforward computation: every candidate put to the full
`GAME.decide`, on a fresh computation, at the positions of bot playouts."""
import copy
import pickle
import random

import pytest

from moon21 import legal
from moon21.game import GAME
from moon21.probe import FirstEvent, Probe
from starbase_rules.contract import RuleViolation, fold
from starbase_rules.fair import FairRng


def straightforward(state, player) -> list[dict]:
    if player not in GAME.to_act(state):
        return []
    out = []
    for command in legal._candidates(state, player):
        try:
            GAME.decide(state, copy.deepcopy(command), player, None)
        except RuleViolation:
            continue
        out.append(command.model_dump())
    return out


def bot_positions(seed: int, players: list[str]):
    """Every position between two commands of a bot game (the state is evolved in place, as the
    services do: the kept answers must follow the position, not the object)."""
    rng = FairRng(f"fast-legal-{seed}".encode())
    bots = random.Random(seed)
    state = fold(GAME, GAME.setup(players, {}, rng))
    while GAME.outcome(state) is None:
        yield state
        actors = GAME.to_act(state)
        actor = actors[bots.randrange(len(actors))]
        command = GAME.bot_command(state, actor, bots)
        state = fold(GAME, GAME.decide(state, command, actor, rng), state)


@pytest.mark.parametrize("seed, players", [(7, ["ann", "bob", "cy", "dee", "eve"]), (8, ["ann", "bob", "cy"])])
def test_fast_legal_actions_equal_the_straightforward_ones_over_a_bot_playout(seed, players):
    kinds, laid = set(), 0
    for index, state in enumerate(bot_positions(seed, players)):
        if index % 2:
            continue
        kinds.add((state.kind, state.op.step if state.op else None))
        before = pickle.dumps(state)
        for player in state.players:
            expected = straightforward(state, player)
            fast = GAME.legal_actions(state, player)
            assert fast == expected, (index, player)
            assert GAME.legal_actions(state, player) == expected, (index, player)   # kept answer
            laid += sum(a["type"] == "LayTile" for a in fast)
        assert pickle.dumps(state) == before, f"probing changed the position before command {index}"
    assert {("ISR", None), ("SR", None), ("OR", "tiles"), ("OR", "run"), ("OR", "buy")} <= kinds
    assert laid > 50    # the tile lays, settled at their first event, were really exercised


def position_after(commands: int):
    """The position after `commands` commands of a 3-player bot game, and who acts there."""
    for index, state in enumerate(bot_positions(3, ["ann", "bob", "cy"])):
        if index == commands:
            return state, GAME.to_act(state)[0]
    raise AssertionError("the game ended first")


def test_a_kept_answer_is_a_copy_the_caller_may_change():
    state, player = position_after(40)
    first = GAME.legal_actions(state, player)
    assert first
    first.clear()
    assert GAME.legal_actions(state, player) == straightforward(state, player)


def test_a_probe_stops_at_the_first_event_and_leaves_the_state_as_it_was():
    state, player = position_after(20)
    accepted = [c for c in legal._candidates(state, player)
                if c.model_dump() in GAME.legal_actions(state, player)]
    before = pickle.dumps(state)
    with pytest.raises(FirstEvent):
        GAME.rules.decider(accepted[0])(Probe(state), accepted[0], player)
    assert pickle.dumps(state) == before
