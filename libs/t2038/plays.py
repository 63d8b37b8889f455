"""Who plays each command: owed decisions and discards first, then the step of the round (the kit's
`Rounds`). Every command type registers `play` as its decide handler with the engine base.

The steps (4, 5, 7):

    stock / auction      a resolution auction is running: RaiseBid, DropOut (5.12)
    stock / bidding      companies are still for sale one at a time: buy one, bid, sell (from set 2), pass
    stock / shares       every company is sold: trade shares, launch corporations and Growth corporations
    operating / routes   fly routes, then declare earnings (the Probe finishes instead)
    operating / purchases
"""
from __future__ import annotations

from kit18xx.rounds import Rounds, Where
from starbase_rules.scratch import Tx, refuse
from t2038 import auction, earnings, flow, growth, league, privates, purchases, routes, stock
from t2038 import commands as cmd
from t2038 import events as ev
from t2038.rules import RULES
from t2038.state import State

STEPS = Rounds()


def where(state: State) -> Where:
    """The (round, step) the state is in."""
    if state.round == "stock":
        if state.auction_company >= 0:
            return "stock", "auction"
        return "stock", "bidding" if auction.available_company(state) is not None else "shares"
    return state.round, state.step


def play(tx: Tx[State], command: cmd.Command, actor: str) -> None:
    s = tx.state
    if isinstance(command, cmd.DiscardShip) and not s.must_discard:
        refuse("NO_DISCARD_DUE", "no company is over its ship limit; ships are never turned in voluntarily (7.33, 7.35)")
    if s.pending and not s.must_discard:
        league.decide_pending(tx, actor, command)
    elif s.must_discard:
        if not isinstance(command, cmd.DiscardShip):
            refuse("DISCARD_FIRST", f"ships over the limit must be discarded first: {s.must_discard}")
        holder = next(h for h in s.must_discard if s.controller(h) == actor)
        purchases.discard(tx, holder, command.ship)
    else:
        STEPS.play(where(s), tx, command, actor)


for _command_type in [value for value in vars(cmd).values()
                      if isinstance(value, type) and issubclass(value, cmd.Command) and value is not cmd.Command]:
    RULES.decides(_command_type)(play)


# ---- stock round ----------------------------------------------------------------------------------

def _not_in_stock_round(state: State, command: cmd.Command) -> str:
    return f"{command.type} is not possible in this part of the stock round"


STEPS.step("stock", "auction", refusal=("AUCTION_RUNNING", lambda s, command:
                                        f"bid or drop out of the auction for company {s.auction_company}"))
STEPS.step("stock", "bidding", refusal=("NOT_NOW", _not_in_stock_round))
STEPS.step("stock", "shares", refusal=("NOT_NOW", _not_in_stock_round))


@STEPS.accepts("stock", "auction", cmd.RaiseBid)
def _raise(tx: Tx[State], command: cmd.RaiseBid, actor: str) -> None:
    auction.raise_bid(tx, actor, command.amount)


@STEPS.accepts("stock", "auction", cmd.DropOut)
def _drop_out(tx: Tx[State], command: cmd.DropOut, actor: str) -> None:
    auction.drop_out(tx, actor)


@STEPS.accepts("stock", "bidding", cmd.BuyCompany)
@STEPS.accepts("stock", "shares", cmd.BuyCompany)      # refused NOTHING_FOR_SALE once every company is sold
def _buy_company(tx: Tx[State], command: cmd.BuyCompany, actor: str) -> None:
    auction.buy(tx, actor, command.price)


@STEPS.accepts("stock", "bidding", cmd.BidOnCompany)
def _bid(tx: Tx[State], command: cmd.BidOnCompany, actor: str) -> None:
    auction.bid(tx, actor, command.company, command.amount)


@STEPS.accepts("stock", "bidding", cmd.SellShares)
@STEPS.accepts("stock", "shares", cmd.SellShares)
def _sell(tx: Tx[State], command: cmd.SellShares, actor: str) -> None:
    if tx.state.set_number == 1:
        refuse("NO_SALES_YET", "no sales in the first stock round")
    stock.sell(tx, actor, command.corp, command.count)


@STEPS.accepts("stock", "shares", cmd.BuyShare, cmd.LaunchCorporation, cmd.LaunchGrowth)
def _buy_or_launch(tx: Tx[State], command: cmd.Command, actor: str) -> None:
    _require_compliance(tx.state, actor)
    if isinstance(command, cmd.BuyShare):
        stock.buy(tx, actor, command.corp, command.source)
    elif isinstance(command, cmd.LaunchCorporation):
        stock.launch(tx, actor, command.corp, command.par)
    elif isinstance(command, cmd.LaunchGrowth):
        growth.launch_growth(tx, actor, command.corp, command.independent)
    _end_turn(tx, actor, passed=False)


@STEPS.accepts("stock", "bidding", cmd.Pass)
@STEPS.accepts("stock", "shares", cmd.Pass)
def _pass(tx: Tx[State], command: cmd.Pass, actor: str) -> None:
    _require_compliance(tx.state, actor)
    _end_turn(tx, actor, passed=not tx.state.sold_this_turn)


def _require_compliance(s: State, actor: str) -> None:
    """5.31 / 5.35: a player over 60 % of a corporation or over the certificate limit complies on the
    next stock turn: every way of ending the turn (a purchase, a launch or a pass) waits for the sales."""
    if s.set_number > 1 and stock.must_still_sell(s, actor):
        refuse("MUST_COMPLY", f"{actor} is over a holding or certificate limit and must sell first "
                              f"({stock.must_still_sell(s, actor)})")


def _end_turn(tx: Tx[State], actor: str, passed: bool) -> None:
    s = tx.state
    tx.emit(ev.StockTurnEnded(player=actor, passed=passed, next_player=auction.left_of(s, actor)))
    if s.passes >= len(s.players):
        if auction.available_company(s) is not None and any(s.bids.values()):
            tx.emit(ev.AuctionFlowSet(resolving_all_pass=True))
            auction.resolve_pending(tx)
        else:
            flow.end_stock_round(tx)


# ---- operating round -------------------------------------------------------------------------------

STEPS.step("operating", "routes", refusal=("NOT_NOW", lambda s, command:
                                           f"{command.type}: fly routes, then declare earnings"))
STEPS.step("operating", "purchases", refusal=("NOT_NOW", lambda s, command: f"{command.type} is not a purchase"))


@STEPS.accepts("operating", "routes", cmd.StartRoute)
def _start_route(tx: Tx[State], command: cmd.StartRoute, actor: str) -> None:
    routes.start_route(tx, tx.state.operator, command.ship, command.base, command.pilot)


@STEPS.accepts("operating", "routes", cmd.Move)
def _move(tx: Tx[State], command: cmd.Move, actor: str) -> None:
    routes.move(tx, tx.state.operator, command.hex, command.explore)


@STEPS.accepts("operating", "routes", cmd.ChooseTile)
def _choose_tile(tx: Tx[State], command: cmd.ChooseTile, actor: str) -> None:
    routes.choose_tile(tx, command.tile)


@STEPS.accepts("operating", "routes", cmd.PickUp)
def _pick_up(tx: Tx[State], command: cmd.PickUp, actor: str) -> None:
    routes.pick_up(tx, tx.state.operator, command.mine)


@STEPS.accepts("operating", "routes", cmd.EndRoute)
def _end_route(tx: Tx[State], command: cmd.EndRoute, actor: str) -> None:
    routes.end_route(tx, tx.state.operator)


@STEPS.accepts("operating", "routes", cmd.RepurchaseShare)
@STEPS.accepts("operating", "purchases", cmd.RepurchaseShare)
def _repurchase(tx: Tx[State], command: cmd.RepurchaseShare, actor: str) -> None:
    stock.repurchase(tx, tx.state.operator)


@STEPS.accepts("operating", "routes", cmd.DeclareEarnings)
def _declare(tx: Tx[State], command: cmd.DeclareEarnings, actor: str) -> None:
    if tx.state.operator == "probe":           # the Probe earns nothing to declare (8.10)
        refuse("NOT_NOW", f"{command.type}: fly routes, then declare earnings")
    earnings.declare(tx, tx.state.operator, command.choice)


@STEPS.accepts("operating", "routes", cmd.FinishOperating)
def _probe_done(tx: Tx[State], command: cmd.FinishOperating, actor: str) -> None:
    s = tx.state
    if s.operator != "probe":
        refuse("NOT_NOW", f"{command.type}: fly routes, then declare earnings")
    if s.flight is not None:
        refuse("ROUTE_IN_PROGRESS", "end the Probe's route first")
    flow.finish_operator(tx)


@STEPS.accepts("operating", "purchases", cmd.BuyShip)
def _buy_ship(tx: Tx[State], command: cmd.BuyShip, actor: str) -> None:
    purchases.buy_ship(tx, tx.state.operator, command.phase, command.kind)


@STEPS.accepts("operating", "purchases", cmd.BuyShipFrom)
def _buy_ship_from(tx: Tx[State], command: cmd.BuyShipFrom, actor: str) -> None:
    purchases.buy_ship_from(tx, tx.state.operator, command.ship, command.price)


@STEPS.accepts("operating", "purchases", cmd.UpgradeShip)
def _upgrade(tx: Tx[State], command: cmd.UpgradeShip, actor: str) -> None:
    purchases.upgrade_ship(tx, tx.state.operator, command.ship)


@STEPS.accepts("operating", "purchases", cmd.PlaceClaim)
def _claim(tx: Tx[State], command: cmd.PlaceClaim, actor: str) -> None:
    purchases.place_claim(tx, tx.state.operator, command.hex, command.mine)


@STEPS.accepts("operating", "purchases", cmd.BuyIndependentClaim)
def _independent_claim(tx: Tx[State], command: cmd.BuyIndependentClaim, actor: str) -> None:
    purchases.buy_independent_claim(tx, tx.state.operator, command.hex, command.mine)


@STEPS.accepts("operating", "purchases", cmd.PlaceBase)
def _base(tx: Tx[State], command: cmd.PlaceBase, actor: str) -> None:
    purchases.place_base(tx, tx.state.operator, command.hex)


@STEPS.accepts("operating", "purchases", cmd.PlaceStation)
def _station(tx: Tx[State], command: cmd.PlaceStation, actor: str) -> None:
    purchases.place_station(tx, tx.state.operator, command.hex)


@STEPS.accepts("operating", "purchases", cmd.BuyPrivate)
def _buy_private(tx: Tx[State], command: cmd.BuyPrivate, actor: str) -> None:
    privates.buy_private(tx, tx.state.operator, command.company, command.price)


@STEPS.accepts("operating", "purchases", cmd.UsePrivate)
def _use_private(tx: Tx[State], command: cmd.UsePrivate, actor: str) -> None:
    privates.use_private(tx, tx.state.operator, command.company, command.hex, command.mine)


@STEPS.accepts("operating", "purchases", cmd.EmergencySell)
def _emergency_sell(tx: Tx[State], command: cmd.EmergencySell, actor: str) -> None:
    earnings.emergency_sell(tx, tx.state.operator, actor, command.corp, command.count)


@STEPS.accepts("operating", "purchases", cmd.DeclareBankruptcy)
def _bankrupt(tx: Tx[State], command: cmd.DeclareBankruptcy, actor: str) -> None:
    earnings.bankrupt(tx, tx.state.operator, actor)


@STEPS.accepts("operating", "purchases", cmd.FinishOperating)
def _finish(tx: Tx[State], command: cmd.FinishOperating, actor: str) -> None:
    s, op = tx.state, tx.state.operator
    if purchases.mandatory_ship_owed(s, op):
        source = "from the bank" if purchases.cheapest_offer(s) else \
            f"from another company (BuyShipFrom; e.g. {purchases.ships_it_could_still_buy(s, op)[:3]})"
        refuse("MUST_BUY_SHIP", f"{op} owns no spaceship and must buy one {source} (7.3)")
    if op.startswith("i:") and league.formed(s) and not s.ships_of(op):
        refuse("MUST_BUY_OR_MERGE", f"{op} owns no ship: buy one or merge into the League (7.39)")
    flow.finish_operator(tx)


@STEPS.accepts("operating", "purchases", cmd.MergeIndependent)
def _merge(tx: Tx[State], command: cmd.MergeIndependent, actor: str) -> None:
    s = tx.state
    if s.operator != f"i:{command.independent}":
        refuse("NOT_NOW", f"{command.type} is not a purchase")
    if not league.formed(s) or s.ships_of(s.operator):
        refuse("NOT_NOW", "an Independent merges while operating only when it has no ship (7.39)")
    league.merge(tx, command.independent, golden=False)
    flow.next_operator(tx)
