"""The bots put their candidates to `Moon21._accepts` (a probe, then a copy only for what reached its
first event, and no automatic flow) instead of the full `decide`: the same candidates must be
accepted, so the bots choose the same moves, at every position of bot playouts."""
import copy
import random
from collections import Counter

import pytest

from moon21 import commands as K
from moon21.bots import LEVELS, bot_command, candidates
from moon21.game import GAME
from moon21.probe import FirstEvent, Probe, settled_by_first_event
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


def first_event(state, command, player):
    """The first event the command's decision gets to, probed on the state itself (None: refused first)."""
    probe = Probe(state)
    try:
        GAME.rules.decider(command)(probe, copy.deepcopy(command), player)
    except FirstEvent as first:
        return first.event
    except RuleViolation:
        return None
    return None


@pytest.mark.parametrize("seed, players", [(12, ["ann", "bob", "cy", "dee", "eve"])])
def test_a_command_settled_at_its_first_event_is_one_decide_accepts(seed, players):
    """`settled_by_first_event` lets `_accepts` stop at the first event of a tile lay or a run: at every
    position of a bot game, every bot candidate it settles is accepted by the full `decide`, and runs
    with a wrong stop (refused by the run checks, before any event) are never settled."""
    settled = Counter()
    for state, actor, rnd_state in positions(seed, players):
        rnd = random.Random()
        rnd.setstate(rnd_state)
        tried = candidates(state, actor, rnd, LEVELS["normal"])
        for command in tried:
            if isinstance(command, K.RunTransports) and any(command.runs.values()):
                base = next(b for b, runs in command.runs.items() if runs)
                wrong = copy.deepcopy(command.runs)
                wrong[base][0]["stops"] = list(wrong[base][0]["stops"]) + ["Z99-0"]
                event = first_event(state, K.RunTransports(runs=wrong), actor)
                assert event is None or not settled_by_first_event(command, event)
                assert not accepted_by(GAME.decide, state, K.RunTransports(runs=wrong), actor)
            event = first_event(state, command, actor)
            if event is not None and settled_by_first_event(command, event):
                assert accepted_by(GAME.decide, state, command, actor), command
                settled[command.type] += 1
    assert settled["LayTile"] > 20 and settled["RunTransports"] > 20 and settled["Pass"] > 20
