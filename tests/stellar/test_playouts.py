"""Random legal bot games to the end, with the invariants checked after every event and a full replay."""
import pytest

from starbase_rules.contract import fold
from starbase_rules.playout import playout
from stellar import commands as c
from stellar.game import GAME

PLAYERS = ["ann", "bob", "cy", "dee", "eve"]
OPTIONS = [{}, {"new_investor_setup": True}, {"first_play": True, "difficulty": "hostile"},
           {"difficulty": "adverse", "wormhole_skip_is_distance_minus_one": False, "random_auction_order": True}]


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_bots_play_to_the_end_keeping_every_invariant(players, seed):
    result = playout(GAME, PLAYERS[:players], seed, OPTIONS[seed % len(OPTIONS)])
    assert result.outcome is not None
    assert sorted(s.player for s in result.outcome.standings) == sorted(PLAYERS[:players])
    assert result.state.era == 5 and result.state.round == "over"
    assert result.state.corps["amethyst_agency"].formed
    assert {e.type for e in result.events} >= {"DividendPaid", "ShipOrdered", "VotesSettled", "LiquidationCompleted"}


def test_the_same_seed_gives_the_same_game_and_events_survive_serialisation():
    first = playout(GAME, PLAYERS[:4], 7)
    second = playout(GAME, PLAYERS[:4], 7)
    assert [e.model_dump() for e in first.events] == [e.model_dump() for e in second.events]
    rebuilt = fold(GAME, [GAME.parse_event(e.model_dump()) for e in first.events])
    assert rebuilt == first.state


def test_players_only_ever_see_hidden_tiles_once_revealed():
    result = playout(GAME, PLAYERS[:3], 11)
    for event in result.events:
        public = GAME.redact(event, "ann")
        if event.type == "GameSetUp":
            assert set(public["alien_tiles"].values()) == {None}
            assert set(public["shipyard_tiles"].values()) == {None}
        if event.type == "NebulaConverted":
            assert public["chevrons"] is None


def test_legal_actions_and_default_commands_are_accepted():
    from starbase_rules.fair import FairRng
    rng = FairRng(b"defaults")
    state = fold(GAME, GAME.setup(PLAYERS[:3], {}, rng))
    for _ in range(400):
        if GAME.outcome(state) is not None:
            break
        actor = GAME.to_act(state)[0]
        assert GAME.legal_actions(state, actor)
        command = GAME.default_command(state, actor)
        for event in GAME.decide(state, command, actor, rng):
            state = GAME.evolve(state, event)
    assert GAME.outcome(state) is not None


def test_a_spare_parts_decision_waits_beside_amethysts_launch_auction():
    import random

    from stellar_given import started_table
    t = started_table()
    t.power("gamboge_guild", "spare_parts")
    t.empty_section(1)
    t.ship("gamboge_guild", 1)
    t.empty_section(2)
    t.state.era = 2
    director = t.state.director
    t.investor_step("shenanigans", seat=len(t.state.players) - 1, part="alien")
    t.do(t.state.clockwise_from(director)[-1], c.PassAlienAction())   # administration opens level 3
    assert t.state.auction is not None and t.state.auction.corp == "amethyst_agency"
    assert GAME.to_act(t.state) == ["bob"]
    assert GAME.bot_command(t.state, "bob", random.Random(1)).type == "UseSpareParts"


def test_views_are_plain_json():
    import json
    result = playout(GAME, PLAYERS[:3], 5)
    for viewer in (None, "ann"):
        json.dumps(GAME.view(result.state, viewer))
    for event in result.events[:50]:
        json.dumps(GAME.redact(event, None))
