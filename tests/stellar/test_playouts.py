"""Random legal bot games to the end, with the invariants checked after every event and a full replay."""
from collections import Counter
from functools import lru_cache

import pytest

from starbase_rules.contract import fold
from starbase_rules.playout import playout
from stellar import commands as c
from stellar.game import GAME

PLAYERS = ["ann", "bob", "cy", "dee", "eve"]
OPTIONS = [{}, {"new_investor_setup": True},
           {"first_play": True, "difficulty": "hostile", "auction_opener_may_pass": True,
            "mega_earth_value": "lowest_empty_box"},
           {"difficulty": "adverse", "wormhole_skip_is_distance_minus_one": False, "random_auction_order": True,
            "amethyst_power": "tax_agents", "icarus_includes_nebulae": True}]


GAMES = [(players, seed) for seed in (1, 2, 3, 4) for players in (3, 4, 5)]


@lru_cache(maxsize=None)
def _played(players, seed):
    """Each checked playout is played once per test session and shared by the tests below."""
    return playout(GAME, PLAYERS[:players], seed, OPTIONS[seed % len(OPTIONS)])


@pytest.mark.parametrize("players, seed", GAMES)
def test_bots_play_to_the_end_keeping_every_invariant(players, seed):
    result = _played(players, seed)
    assert result.outcome is not None
    assert sorted(s.player for s in result.outcome.standings) == sorted(PLAYERS[:players])
    assert result.state.era == 5 and result.state.round == "over"
    assert result.state.corps["amethyst_agency"].formed
    assert {e.type for e in result.events} >= {"DividendPaid", "ShipOrdered", "VotesSettled", "LiquidationCompleted"}


def test_the_bots_reach_the_late_game_signings_takeovers_and_surviving_signers():
    """The bots' tactics aim at The Agreement and keep CARGO up, so the playouts above exercise
    signings, scrapping events, era 5 takeovers and signers that outgrow the aliens."""
    seen = Counter()
    for players, seed in GAMES:
        result = _played(players, seed)
        seen.update(e.type for e in result.events)
        corps = result.state.corps.values()
        seen["survived"] += sum(1 for corp in corps if corp.signed and not corp.taken_over)
    assert seen["AgreementSigned"] >= len(GAMES) // 2, seen
    assert seen["HostileTakeover"] >= 1 and seen["survived"] >= 1, seen
    assert seen["ShipsScrapped"] >= 1, seen
    assert seen["ShipOrdered"] >= 8 * len(GAMES), seen


def test_the_same_seed_gives_the_same_game_and_events_survive_serialisation():
    first = playout(GAME, PLAYERS[:4], 7)
    second = playout(GAME, PLAYERS[:4], 7)
    assert [e.model_dump() for e in first.events] == [e.model_dump() for e in second.events]
    rebuilt = fold(GAME, [GAME.parse_event(e.model_dump()) for e in first.events])
    assert rebuilt == first.state


def test_players_only_ever_see_hidden_tiles_once_revealed():
    result = playout(GAME, PLAYERS[:3], 8)          # seed 8 converts a nebula, so both checks run
    seen = set()
    for event in result.events:
        public = GAME.redact(event, "ann")
        seen.add(event.type)
        if event.type == "GameSetUp":
            assert set(public["alien_tiles"].values()) == {None}
            assert set(public["shipyard_tiles"].values()) == {None}
        if event.type == "NebulaConverted":
            assert public["chevrons"] is None
    assert {"GameSetUp", "NebulaConverted"} <= seen


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


def test_starbase_play_stellar_4_players_seed_7_plays_a_whole_game(capsys):
    import json

    from starbase_cli.main import main
    assert main(["play", "stellar", "--players", "4", "--seed", "7", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["game"] == "stellar" and printed["reason"] == "liquidation after era 5"
    assert sorted(row["player"] for row in printed["standings"]) == ["ann", "bob", "cy", "dee"]
