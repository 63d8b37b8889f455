"""Setup (rule 2) and the initial stock round (rule 8)."""
from collections import Counter

import pytest

from moon21 import commands as K
from moon21 import events as E
from moon21.game import GAME
from starbase_rules.contract import RuleViolation
from starbase_rules.fair import FairRng


def test_setup_draws_seats_held_back_corporation_and_minerals_and_records_them():
    events = GAME.setup(["ann", "bob", "cy"], {}, FairRng(b"7"))
    setup = events[0]
    assert isinstance(setup, E.GameSetUp)
    assert sorted(setup.players) == ["ann", "bob", "cy"]
    assert setup.held_back in {"SWP", "HMQ", "VH", "ITC", "SSF", "LG", "KR"}
    assert Counter(setup.minerals.values()) == {"Source-X": 3, "Helium-3": 4, "Regolith": 4,
                                               "Armalcolite": 4, "Lithium": 2}
    assert len(setup.minerals) == 17
    assert setup.starting_cash == 540
    assert events == GAME.setup(["ann", "bob", "cy"], {}, FairRng(b"7"))   # same seed, same draws
    draws = {GAME.setup(["ann", "bob", "cy"], {}, FairRng(str(i).encode()))[0].minerals["A7"] for i in range(12)}
    assert len(draws) > 1


@pytest.mark.parametrize("players,code", [(["solo"], "BAD_PLAYER_COUNT"), (["a", "b", "c", "d", "e", "f"],
                                          "BAD_PLAYER_COUNT"), (["a", "a"], "DUPLICATE_PLAYER")])
def test_setup_refuses_wrong_player_counts_and_a_player_seated_twice(players, code):
    with pytest.raises(RuleViolation) as refusal:
        GAME.setup(players, {}, FairRng(b"1"))
    assert refusal.value.code == code


def auction(table, players=("ann", "bob", "cy")):
    t = table(players)
    return t.given(E.RoundStarted(kind="ISR"))


def test_first_private_is_bought_at_face_value(table):
    t = auction(table)
    t.do("ann", K.BuyPrivate(private="P1"))
    assert t.state.private_owner["P1"] == "p:ann" and t.cash("p:ann") == 510
    assert GAME.to_act(t.state) == ["ann"]            # the Old Landing Site must be placed at once
    assert t.refused("ann", K.Pass()) == "OLS_PENDING"


def test_only_the_first_private_can_be_bought_and_bids_must_be_five_over(table):
    t = auction(table)
    assert t.refused("ann", K.BuyPrivate(private="P2")) == "NOT_FIRST_IN_LINE"
    assert t.refused("ann", K.BidOnPrivate(private="P2", amount=34)) == "BID_TOO_LOW"
    assert t.refused("ann", K.BidOnPrivate(private="P1", amount=40)) == "NOT_BIDDABLE"
    assert t.refused("bob", K.Pass()) == "NOT_YOUR_TURN"
    t.do("ann", K.BidOnPrivate(private="P2", amount=35))
    assert t.refused("bob", K.BidOnPrivate(private="P2", amount=39)) == "BID_TOO_LOW"
    t.do("bob", K.BidOnPrivate(private="P2", amount=40))
    assert GAME.to_act(t.state) == ["cy"]


def test_bid_money_is_set_aside(table):
    t = auction(table)
    t.do("ann", K.BidOnPrivate(private="P6", amount=500))
    t.do("bob", K.Pass())
    t.do("cy", K.Pass())
    assert t.refused("ann", K.BidOnPrivate(private="P5", amount=85)) == "INSUFFICIENT_FUNDS"


def place_ols(t, player):
    option = __import__("moon21.board", fromlist=["ols_options"]).ols_options(t.state.board)[0]
    t.do(player, K.PlaceOldLandingSite(**option))


def test_a_single_bid_buys_the_next_company_when_the_first_is_bought(table):
    t = auction(table)
    t.do("ann", K.BidOnPrivate(private="P2", amount=40))
    events = t.do("bob", K.BuyPrivate(private="P1"))
    assert [e.private for e in events if e.type == "PrivateBought"] == ["P1", "P2"]
    assert t.state.private_owner["P2"] == "p:ann" and t.cash("p:ann") == 500
    place_ols(t, "bob")
    assert GAME.to_act(t.state) == ["cy"]            # the turn goes to the buyer's left


def test_resolution_auction_lowest_bidder_first_high_bidder_skipped(table):
    t = auction(table, ("ann", "bob", "cy", "dan"))
    t.do("ann", K.BidOnPrivate(private="P2", amount=45))
    t.do("bob", K.BidOnPrivate(private="P2", amount=50))
    t.do("cy", K.BidOnPrivate(private="P2", amount=35 + 20))
    t.do("dan", K.BuyPrivate(private="P1"))
    place_ols(t, "dan")
    assert t.state.auction.resolving == "P2"
    assert GAME.to_act(t.state) == ["ann"]           # lowest bid first
    t.do("ann", K.BidOnPrivate(private="P2", amount=60))
    assert GAME.to_act(t.state) == ["bob"]           # cy holds no longer the high bid; ann now does
    t.do("bob", K.Pass())
    assert GAME.to_act(t.state) == ["cy"]
    assert t.refused("cy", K.BidOnPrivate(private="P2", amount=64)) == "BID_TOO_LOW"
    t.do("cy", K.Pass())
    assert t.state.private_owner["P2"] == "p:ann" and t.cash("p:ann") == 410 - 60
    assert t.cash("p:bob") == 410 and t.cash("p:cy") == 410   # losing bids returned (never taken)
    assert GAME.to_act(t.state) == ["ann"]           # next after dan, the buyer of P1


def test_all_passing_drops_the_first_price_by_ten_and_at_zero_it_is_given(table):
    t = auction(table, ("ann", "bob"))
    for _ in range(3):
        t.do("ann", K.Pass())
        t.do("bob", K.Pass())
    assert t.state.auction.price["P1"] == 0
    assert t.state.private_owner["P1"] == "p:ann" and t.cash("p:ann") == 600


def test_initial_round_ends_when_all_privates_are_sold_and_priority_goes_left_of_last_buyer(table):
    t = auction(table)
    buyer = ["ann", "bob", "cy", "ann", "bob", "cy"]
    for private, player in zip(["P1", "P2", "P3", "P4", "P5", "P6"], buyer):
        t.do(player, K.BuyPrivate(private=private))
        if private == "P1":
            place_ols(t, player)
    assert t.state.kind == "SR" and t.state.set_no == 1
    assert t.state.priority == "ann" and GAME.to_act(t.state) == ["ann"]


def test_old_landing_site_goes_three_hexes_from_the_space_port(table):
    t = auction(table)
    t.do("ann", K.BuyPrivate(private="P1"))
    code = t.refused("ann", K.PlaceOldLandingSite(hex="D10", tile="5M", rotation=0, depot=0))
    assert code == "ILLEGAL_HEX"
    place_ols(t, "ann")
    assert any("OLS" in slots for d in t.state.board.tokens.values() for slots in d)
