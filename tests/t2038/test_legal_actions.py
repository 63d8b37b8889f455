"""`legal_actions` offers concrete commands that `decide` accepts, and the route helper's proposals."""
import pytest

from starbase_rules.fair import FairRng
from starbase_rules.playout import playout
from t2038 import auction, hexmap
from t2038 import events as ev
from t2038.game import GAME
from t2038.legal import route_proposals
from tests.t2038.helpers import game

PLAYERS = ["ann", "bob", "cy", "dee", "eve"]


def _states(count: int, seed: int, variant: str, every: int):
    """Every `every`-th state of a bot game."""
    result = playout(GAME, PLAYERS[:count], seed=seed, options={"variant": variant}, check=False)
    state = GAME.initial_state()
    for index, event in enumerate(result.events):
        state = GAME.evolve(state, event)
        if index % every == 0:
            yield state


@pytest.mark.parametrize("count, seed, variant, every", [(4, 5, "short", 15), (3, 8, "full", 40)])
def test_every_offered_action_is_accepted_and_whoever_must_act_is_offered_something(count, seed, variant, every):
    checked = set()
    for state in _states(count, seed, variant, every):
        for player in GAME.to_act(state):
            offered = GAME.legal_actions(state, player)
            assert offered, (state.round, state.step, player)
            for action in offered:
                GAME.decide(state, GAME.parse_command(action), player, FairRng(b"legal"))   # raises if refused
                checked.add(action["type"])
    assert {"BuyCompany", "BidOnCompany", "BuyShare", "SellShares", "StartRoute", "Move", "DeclareEarnings",
            "BuyShip", "PlaceClaim", "FinishOperating"} <= checked


def test_players_not_to_act_are_offered_nothing():
    state = game()
    assert GAME.to_act(state) == ["ann"]
    assert GAME.legal_actions(state, "bob") == []


def test_the_opening_auction_offers_the_first_company_and_a_minimum_bid_on_each_later_one():
    # given a new 4-player game, when ann asks, then she may buy company 0, pass, or bid on 1-11
    offered = GAME.legal_actions(game(), "ann")
    assert {"type": "BuyCompany", "price": None} in offered and {"type": "Pass"} in offered
    bids = {a["company"]: a["amount"] for a in offered if a["type"] == "BidOnCompany"}
    assert bids == {n: auction.printed_bid(n) for n in range(1, 12)}


def test_a_leading_bid_raises_the_minimum_offered_to_the_next_bidder():
    # given ann bid $5 over the printed price on company 3, then bob is offered a bid $5 higher again
    state = game()
    price = auction.printed_bid(3)
    state = GAME.evolve(state, ev.BidPlaced(player="ann", company=3, amount=price + 5))
    state = GAME.evolve(state, ev.StockTurnEnded(player="ann", passed=False, purchase=False, next_player="bob"))
    offered = GAME.legal_actions(state, "bob")
    assert {"type": "BidOnCompany", "company": 3, "amount": price + 10} in offered


def _flight_with_ore_nearby():
    for state in _states(4, 5, "short", every=1):
        f = state.flight
        if f is not None and not f.choice and len(f.cargo) < f.holds:
            proposals = route_proposals(state)
            if proposals and proposals[0].pickups:
                return state, proposals[0]
    raise AssertionError("the bot game has no flight with ore in reach")


def test_following_the_first_offered_command_flies_the_best_proposal_and_earns_at_least_its_value():
    # given a ship in flight with ore in reach and the helper's best proposal
    state, best = _flight_with_ore_nearby()
    player = GAME.to_act(state)[0]
    assert GAME.legal_actions(state, player)[0]["type"] in ("PickUp", "Move")
    # when the player always sends the first offered command until the route ends
    rng, ended = FairRng(b"route"), None
    for _ in range(20):
        events = GAME.decide(state, GAME.parse_command(GAME.legal_actions(state, player)[0]), player, rng)
        for event in events:
            state = GAME.evolve(state, event)
        ended = next((e for e in events if isinstance(e, ev.RouteEnded)), None)
        if ended:
            break
    # then the route ends where proposed and earns at least what was proposed (never explores, no chance)
    assert ended is not None and ended.value >= best.value


def test_proposals_load_the_best_ore_along_each_path_within_the_free_holds():
    state, _ = _flight_with_ore_nearby()
    free = state.flight.holds - len(state.flight.cargo)
    for proposal in route_proposals(state):
        assert len(proposal.pickups) <= free
        end = proposal.path[-1] if proposal.path else state.flight.hex
        assert end in set(state.bases) | set(hexmap.transshipment_points())
        assert {hex_ for hex_, _ in proposal.pickups} <= {state.flight.hex, *proposal.path}
    assert GAME.view(state, None)["route_proposals"][0]["value"] == route_proposals(state)[0].value
