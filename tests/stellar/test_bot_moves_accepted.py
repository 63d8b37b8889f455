"""The bots and `legal_actions` only ever offer moves the engine accepts.

Played the way the platform plays (`tests/support/play.py`): to_act, bot_command, decide, evolve, with
3 to 5 players and the difficulty options. Before the fix, the seeds below had a bot dismantle an
outpost with the money its own open build owed, then have FinishBuilding refused (INSUFFICIENT_FUNDS),
which once failed an audit test whose game seed is random per run.
"""
import random

import pytest

from starbase_rules.contract import RuleViolation, fold
from starbase_rules.fair import FairRng
from stellar.game import GAME

PLAYERS = ["ann", "bob", "cy", "dee", "eve"]
DIFFICULTY = [{}, {"difficulty": "hostile"}, {"difficulty": "adverse"}]

# (seed, players): games whose bot move was refused before the fix, then a spread of tables.
BOT_GAMES = [(24, 5), (47, 4), (1, 3), (3, 3), (5, 5)]
LEGAL_GAME = (24, 5)      # every legal action of every player, at every step, is tried on this one


def _play(seed: int, players: int, check_legal_actions: bool) -> list[str]:
    """Play a game to its end; return every refused bot command or listed legal action."""
    names = PLAYERS[:players]
    rng = FairRng(f"r-{seed}-{players}".encode())
    bots = random.Random(seed * 7 + players)
    state = fold(GAME, GAME.setup(names, DIFFICULTY[seed % 3], rng))
    refused: list[str] = []
    for _ in range(5000):
        if GAME.outcome(state) is not None:
            return refused
        if check_legal_actions:
            for player in names:
                for action in GAME.legal_actions(state, player):
                    try:
                        GAME.decide(state, GAME.parse_command(action), player, FairRng(b"trial"))
                    except RuleViolation as refusal:
                        refused.append(f"legal action of {player} {action}: {refusal}")
        actors = GAME.to_act(state)
        actor = actors[bots.randrange(len(actors))]
        command = GAME.bot_command(state, actor, bots)
        try:
            events = GAME.decide(state, command, actor, rng)
        except RuleViolation as refusal:
            return refused + [f"bot move of {actor} {command!r}: {refusal}"]
        for event in events:
            state = GAME.evolve(state, event)
    raise AssertionError(f"seed {seed}, {players} players: no end in 5000 commands")


@pytest.mark.parametrize("seed, players", BOT_GAMES)
def test_every_bot_move_is_accepted_by_the_engine(seed, players):
    assert _play(seed, players, check_legal_actions=False) == []


def test_every_legal_action_of_every_player_is_accepted_by_the_engine():
    assert _play(*LEGAL_GAME, check_legal_actions=True) == []
