"""The bots put their candidates to `Moon21._accepts` (a probe, then a copy only for what reached its
first event, and no automatic flow) instead of the full `decide`: the same candidates must be
accepted, so the bots choose the same moves, at every position of bot playouts."""
import copy
import random

import pytest

from moon21.bots import LEVELS, bot_command, candidates
from moon21.game import GAME
from starbase_rules.contract import RuleViolation, fold
from starbase_rules.fair import FairRng


def accepted_by(check, state, command, player) -> bool:
    try:
        check(state, copy.deepcopy(command), player, None)
    except RuleViolation:
        return False
    return True


def positions(seed: int, players: list[str]):
    rng, bots = FairRng(f"bot-acceptance-{seed}".encode()), random.Random(seed)
    state = fold(GAME, GAME.setup(players, {}, rng))
    while GAME.outcome(state) is None:
        actors = GAME.to_act(state)
        actor = actors[bots.randrange(len(actors))]
        yield state, actor, bots.getstate()
        command = GAME.bot_command(state, actor, bots)
        state = fold(GAME, GAME.decide(state, command, actor, rng), state)


@pytest.mark.parametrize("seed, players, level", [(5, ["ann", "bob", "cy", "dee", "eve"], "normal"),
                                                  (6, ["ann", "bob", "cy"], "easy")])
def test_the_bots_accept_what_decide_accepts_and_choose_the_same_moves(seed, players, level):
    tried = refused = 0
    for state, actor, rnd_state in positions(seed, players):
        rnd = random.Random()
        rnd.setstate(rnd_state)
        for command in candidates(state, actor, rnd, LEVELS[level]):
            full = accepted_by(GAME.decide, state, command, actor)
            assert accepted_by(GAME._accepts, state, command, actor) == full, (command, actor)
            tried, refused = tried + 1, refused + (not full)
        chosen = []
        for check in (GAME.decide, GAME._accepts):
            rnd.setstate(rnd_state)
            chosen.append(bot_command(state, actor, rnd, check, level))
        assert chosen[0] == chosen[1]
        rnd.setstate(rnd_state)
        assert GAME.level_command(state, actor, rnd, level) == chosen[0]
    assert tried > 500 and refused > 50     # both answers were really exercised
