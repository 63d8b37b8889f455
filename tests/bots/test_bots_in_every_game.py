"""The bot worker's choice (`Tracker`: the seat's view and legal actions only) plays each of the four
games: engine-only games where one seat is the worker's bot and the others the engines' own bots."""
from __future__ import annotations

import random

import pytest

from bots.tracker import Tracker
from starbase_core.gamestream import GameRecord
from starbase_core.seats import SeatControl
from starbase_rules.fair import FairRng
from starbase_rules.registry import get_game

GAMES = [  # engine, seats, options, commands at most (2038's whole game is long: its start is enough)
    ("moon21", 2, {}, 5_000),
    ("t2038", 2, {"two_player": True}, 200),
    ("stellar", 3, {}, 5_000),
    ("trucker", 2, {}, 5_000),
]


@pytest.mark.parametrize("name, seats, options, budget", GAMES, ids=[g[0] for g in GAMES])
def test_the_worker_bot_plays_every_game_without_a_refusedmove_for(name, seats, options, budget):
    engine = get_game(name)
    players = [f"p{n}" for n in range(seats)]
    record = GameRecord(game_id=f"all-{name}", engine=engine, players=players, options={}, commitment="c",
                        state=engine.initial_state(), seats=SeatControl.opening(players, {"p0": "normal"}))
    rng, others = FairRng(f"bots-{name}".encode()), random.Random(3)
    for event in engine.setup(players, options, rng):
        record.state = engine.evolve(record.state, event)
    tracker = Tracker()
    bot_moves = 0
    for seq in range(budget):
        if engine.outcome(record.state) is not None:
            break
        record.last_seq = seq
        actors = engine.to_act(record.state)
        actor = others.choice(actors)
        realtime = engine.realtime_service(record.state) if hasattr(engine, "realtime_service") else None
        if actor == "p0" and realtime is None:
            move = tracker.move_for(record, "p0")
            assert move is not None and move.played_by == "bot:normal" and move.command_id == f"bot:{seq}:p0"
            command = engine.parse_command(move.command)
            bot_moves += 1
        else:                       # the other seats, and Trucker's real-time building (another service's)
            command = engine.bot_command(record.state, actor, others)
        for event in engine.decide(record.state, command, actor, rng):      # a refusal fails the test
            record.state = engine.evolve(record.state, event)
    assert bot_moves > 0
    if budget == 5_000:
        assert engine.outcome(record.state) is not None, f"{name} did not end in {budget} commands"
