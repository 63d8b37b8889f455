"""Game end (13), final wealth, the contract's other functions, and random playouts with invariants."""
import json
import random

import pytest

from moon21 import commands as K
from moon21 import events as E
from moon21.game import GAME
from moon21.flow import advance, standings
from starbase_rules.contract import Game, RuleViolation, fold
from starbase_rules.playout import playout


def test_game_is_a_starbase_game():
    assert isinstance(GAME, Game) and GAME.name == "moon21" and (GAME.min_players, GAME.max_players) == (2, 5)


def test_game_ends_after_operating_round_5_3(table):
    t = table().given(E.RoundStarted(kind="OR", set_no=5, or_no=2))
    em = GAME.tx(t.state)
    advance(em)                                   # no corporation operates: on to 5.3, then the end
    assert [e.type for e in em.events][-1] == "GameFinished"
    assert em.state.ended == "operating round 5.3 finished"
    t2 = table().given(E.RoundStarted(kind="OR", set_no=4, or_no=2))
    em2 = GAME.tx(t2.state)
    advance(em2)
    assert em2.state.kind == "SR" and em2.state.set_no == 5


def test_final_wealth_counts_cash_shares_and_fifty_per_bonus_token(table):
    t = table().stock_round().start("ann", "VH", 70, extra_shares=1).hand("p:bob", "VH", [2])
    t.given(E.BonusTokensTaken(corp="VH", areas=["power_plant", "research_station"]))
    scores = {s["player"]: s["score"] for s in standings(t.state)}
    share = 70 + 2 * 50
    assert scores == {"ann": 540 - 210 + 3 * share, "bob": 540 - 70 + share, "cy": 540}
    ranks = {s["player"]: s["rank"] for s in standings(t.state)}
    assert ranks["ann"] == 1


def test_equal_wealth_shares_a_rank(table):
    t = table(("ann", "bob"))
    assert [s["rank"] for s in standings(t.state)] == [1, 1]


def test_commands_parse_and_malformed_ones_are_refused():
    assert GAME.parse_command({"type": "BuyShare", "corp": "VH"}) == K.BuyShare(corp="VH")
    with pytest.raises(RuleViolation) as refusal:
        GAME.parse_command({"type": "Fly", "to": "Mars"})
    assert refusal.value.code == "MALFORMED_COMMAND"


def test_refused_after_the_game_ended(table):
    t = table(("ann", "bob")).given(E.GameFinished(reason="test", standings=[]))
    assert t.refused("ann", K.Pass()) == "GAME_OVER"


def test_legal_actions_are_all_accepted_and_the_default_command_is_legal(table):
    state = fold(GAME, GAME.setup(["ann", "bob", "cy"], {}, __import__("starbase_rules").FairRng(b"L")))
    bots = random.Random(3)
    seen = set()
    for _ in range(100):
        player = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, player)
        assert actions, f"no legal action in {state.kind}"
        for other in set(state.players) - {player}:
            assert GAME.legal_actions(state, other) == []
        seen |= {a["type"] for a in actions}
        command = GAME.default_command(state, player) if bots.random() < 0.2 else \
            GAME.parse_command(bots.choice(actions))
        state = fold(GAME, GAME.decide(state, command, player, None), state)
    assert {"Pass", "BuyPrivate", "BuyShare", "StartCorporation"} <= seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_playout_reaches_the_end_with_invariants_after_every_event(players, seed):
    names = ["ann", "bob", "cy", "dan", "eve"][:players]
    result = playout(GAME, names, seed)            # checks invariants per event and rebuild equality
    assert result.outcome is not None
    assert sorted(s.player for s in result.outcome.standings) == sorted(names)
    stored = [json.loads(json.dumps(e.model_dump())) for e in result.events]
    assert fold(GAME, [GAME.parse_event(d) for d in stored]) == result.state
    assert all(GAME.redact(e, None) == e.model_dump() for e in result.events[:20])
    json.dumps(GAME.view(result.state, names[0]))
