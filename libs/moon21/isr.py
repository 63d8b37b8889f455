"""The initial stock round: the waterfall auction of the six private companies (rules 8.1-8.4) and the
Old Landing Site placement its buyer owes at once (6.1.1)."""
from __future__ import annotations

from kit18xx.auction import after_sale, next_seat
from moon21 import board as bd
from moon21 import commands as K
from moon21 import events as E
from moon21.rules import ols_min_distance, rules
from moon21.state import P, State
from starbase_rules.copying import clone
from starbase_rules.scratch import Tx, refuse


def free_cash(s, player: str, except_item: str | None = None) -> int:
    return s.cash(P(player)) - s.auction.committed(player, except_item)


def decide_isr(tx: Tx[State], cmd, actor: str) -> None:
    s = tx.state
    a = s.auction
    if a.resolving:
        if actor != a.resolution_turn:
            refuse("NOT_YOUR_TURN", f"it is {a.resolution_turn}'s turn in the {a.resolving} resolution auction")
        return _resolution(tx, cmd, actor)
    if actor != s.auction_turn:
        refuse("NOT_YOUR_TURN", f"it is {s.auction_turn}'s turn in the initial stock round")
    nxt = next_seat(s.players, actor)
    increment = rules()["auction"]["bid_increment"]
    if isinstance(cmd, K.BuyPrivate):
        if cmd.private != a.first:
            refuse("NOT_FIRST_IN_LINE", f"only {a.first} can be bought now; bid on later companies")
        price = a.price[cmd.private]
        if free_cash(s, actor) < price:
            refuse("INSUFFICIENT_FUNDS",
                   f"{cmd.private} costs ₡{price}; you have ₡{free_cash(s, actor)} free")
        tx.emit(E.PrivateBought(player=actor, private=cmd.private, price=price))
        continue_chain(tx, nxt)
    elif isinstance(cmd, K.BidOnPrivate):
        if cmd.private not in a.line or cmd.private == a.first:
            refuse("NOT_BIDDABLE", f"bids go on companies after {a.first} still in line")
        minimum = a.min_bid(cmd.private, increment)
        if cmd.amount < minimum:
            refuse("BID_TOO_LOW", f"a bid on {cmd.private} must be at least ₡{minimum}")
        if free_cash(s, actor, cmd.private) < cmd.amount:
            refuse("INSUFFICIENT_FUNDS", f"you have ₡{free_cash(s, actor, cmd.private)} not set aside")
        tx.emit(E.BidPlaced(player=actor, private=cmd.private, amount=cmd.amount))
        tx.emit(E.AuctionTurn(player=nxt))
    elif isinstance(cmd, K.Pass):
        tx.emit(E.AuctionPassed(player=actor))
        if tx.state.auction.passes_in_row >= len(s.active_players()):
            first = a.first
            price = max(0, a.price[first] - rules()["auction"]["all_pass_drop"])
            tx.emit(E.PrivatePriceDropped(private=first, price=price))
            if price == 0:
                tx.emit(E.PrivateBought(player=nxt, private=first, price=0))
                continue_chain(tx, next_seat(s.players, nxt))
                return
        tx.emit(E.AuctionTurn(player=nxt))
    else:
        refuse("WRONG_ROUND", "in the initial stock round: BuyPrivate, BidOnPrivate or Pass")


def _resolution(tx: Tx[State], cmd, actor: str) -> None:
    s = tx.state
    a = s.auction
    item = a.resolving
    if isinstance(cmd, K.BidOnPrivate):
        if cmd.private != item:
            refuse("NOT_BIDDABLE", f"the resolution auction is for {item}")
        minimum = a.high_bid(item) + rules()["auction"]["bid_increment"]
        if cmd.amount < minimum:
            refuse("BID_TOO_LOW", f"bid at least ₡{minimum} on {item}")
        if free_cash(s, actor, item) < cmd.amount:
            refuse("INSUFFICIENT_FUNDS", f"you have ₡{free_cash(s, actor, item)} not set aside")
        tx.emit(E.BidPlaced(player=actor, private=item, amount=cmd.amount))
    elif isinstance(cmd, K.Pass):
        probe = clone(a)
        probe.drop_out(actor)
        remaining = probe.resolution_bidders()
        if len(remaining) == 1:
            tx.emit(E.ResolutionPassed(player=actor, next_player=remaining[0]))
            tx.emit(E.PrivateBought(player=remaining[0], private=item, price=a.high_bid(item)))
            continue_chain(tx, tx.state.auction_turn)
        else:
            tx.emit(E.ResolutionPassed(player=actor, next_player=probe.next_in_resolution(s.players, actor)))
    else:
        refuse("WRONG_ROUND", "in a resolution auction: BidOnPrivate or Pass")


def continue_chain(tx: Tx[State], next_player: str) -> None:
    """Rule 8.1: after a purchase check the next company: none, one or several bids."""
    while True:
        kind, info = after_sale(tx.state.auction)
        if kind == "stop":
            tx.emit(E.AuctionTurn(player=next_player))
            return
        if kind == "done":
            tx.emit(E.PriorityDealt(player=next_player))
            tx.emit(E.RoundStarted(kind="SR", set_no=1))
            return
        if kind == "sold":
            bidder, amount = info
            tx.emit(E.PrivateBought(player=bidder, private=tx.state.auction.first, price=amount))
            continue
        tx.emit(E.ResolutionStarted(private=tx.state.auction.first, player=info, resume=next_player))
        return


def decide_ols(tx: Tx[State], cmd, actor: str) -> None:
    if not isinstance(cmd, K.PlaceOldLandingSite):
        refuse("OLS_PENDING", "the Old Landing Site tile and token must be placed first")
    bd.check_ols(tx.state.board, cmd.hex, cmd.tile, cmd.rotation, cmd.depot, ols_min_distance(tx.state))
    tx.emit(E.OldLandingSitePlaced(player=actor, hex=cmd.hex, tile=cmd.tile, rotation=cmd.rotation, depot=cmd.depot))
