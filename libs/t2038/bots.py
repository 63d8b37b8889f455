"""Random but sensible bots for `starbase play`, tests and benchmarks (legal actions: `legal.py`).

Bots try candidate commands against `decide` (which never mutates) and take the first accepted one, so a
bot can never make an illegal move and the rules live only in the engine.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from starbase_rules.contract import RuleViolation
from t2038 import auction, planner, purchases, ships, stock
from t2038 import commands as cmd
from t2038.deal_values import fair_for_seller, offer_value
from t2038.earnings import sellable, shortfall
from t2038.routes import flying_for, operator_bases
from t2038.state import State, p


@dataclass(frozen=True)
class Style:
    """What sets a level apart: random share sales, how eagerly it buys shares, what it pays out."""
    sell: float                    # chance of a share sale that serves no plan, per stock turn
    buy: float                     # chance of considering each corporation's shares, per stock turn
    earnings: tuple[str, ...]      # a corporation's dividend choices, drawn from uniformly


LEVELS = {
    "easy": Style(sell=0.2, buy=0.5, earnings=("full", "half", "retain", "retain")),
    "normal": Style(sell=0.08, buy=0.7, earnings=("full", "full", "half", "retain")),
    "strong": Style(sell=0.0, buy=1.0, earnings=("full",)),     # full dividends lift the share price
}


class _QuietRng:
    """Bots test commands that may explore; any draw is thrown away with the trial's events."""
    used = 0

    def randbelow(self, n: int) -> int:
        return 0

    def shuffle(self, items: list) -> list:
        return list(items)


def accepted(state: State, player: str, command) -> bool:
    from t2038.game import GAME
    try:
        GAME.decide(state, command, player, _QuietRng())
    except RuleViolation:
        return False
    return True


def _first_accepted(state: State, player: str, candidates: list):
    for command in candidates:
        if accepted(state, player, command):
            return command
    return None


def bot_command(state: State, player: str, rnd: random.Random, level: str = "normal"):
    style = LEVELS[level]
    if state.must_discard:
        holder = next(h for h in state.must_discard if state.controller(h) == player)
        return cmd.DiscardShip(ship=min(state.ships_of(holder), key=lambda s: state.ships[s].phase))
    if state.pending:
        kind, _, number, _ = state.pending[0]
        if kind == "form":
            return cmd.FormLeague() if rnd.random() < 0.7 else cmd.Decline()
        if kind == "deal":      # sell only at or above the game's list value, never into bankruptcy
            take = rnd.random() < 0.5 and fair_for_seller(state, state.pending[0][3])   # a fair deal half the time
            return cmd.AcceptDeal() if take and accepted(state, player, cmd.AcceptDeal()) else cmd.Decline()
        merge = cmd.MergeIndependent(independent=number)
        return merge if rnd.random() < 0.4 and accepted(state, player, merge) else cmd.Decline()
    if state.round == "stock":
        return _stock_bot(state, player, rnd, style)
    return _operating_bot(state, player, rnd, style)


def _stock_bot(state: State, player: str, rnd: random.Random, style: Style):
    if state.auction_company >= 0:
        raise_to = state.auction_high + 5
        if rnd.random() < 0.3 and auction.free_cash(state, player, state.auction_company) >= raise_to:
            return cmd.RaiseBid(amount=raise_to)
        return cmd.DropOut()
    company = auction.available_company(state)
    if company is not None:
        candidates = []
        if rnd.random() < 0.8:
            candidates.append(cmd.BuyCompany(price=auction.printed_bid(company) + rnd.choice([0, 0, 10, 20])))
            candidates.append(cmd.BuyCompany())
        if rnd.random() < 0.2:
            later = rnd.randint(company + 1, 11) if company < 11 else 11
            leader, high = auction.high_bid(state, later)
            candidates.append(cmd.BidOnCompany(company=later, amount=max(auction.printed_bid(later), high + 5)))
        return _first_accepted(state, player, candidates) or cmd.Pass()
    candidates = []
    if state.set_number > 1:
        forced = stock.required_sales(state, player)
        if forced:
            return cmd.SellShares(corp=forced[0][0], count=forced[0][1])
    if state.set_number > 1 and not state.sold_this_turn and rnd.random() < style.sell:
        held = [corp for corp in state.launched if state.units(corp, p(player)) > 0]
        rnd.shuffle(held)
        candidates += [cmd.SellShares(corp=corp, count=1) for corp in held]
        chosen = _first_accepted(state, player, candidates)
        if chosen:
            return chosen
        candidates = []
    for number in stock.owns_independent(state, player):
        if rnd.random() < 0.15:
            candidates += [cmd.LaunchGrowth(corp=corp, independent=number) for corp in stock.available_to_launch(state)]
    for corp in stock.available_to_launch(state):
        if rnd.random() < 0.5:
            candidates += [cmd.LaunchCorporation(corp=corp, par=par) for par in (100, 88, 77, 67)]
    buyable = [corp for corp in state.launched if rnd.random() < style.buy]
    rnd.shuffle(buyable)
    for corp in buyable:
        candidates += [cmd.BuyShare(corp=corp, source=source) for source in ("ipo", "growth", "market")]
    return _first_accepted(state, player, candidates) or cmd.Pass()


def _operating_bot(state: State, player: str, rnd: random.Random, style: Style = LEVELS["normal"]):
    op = state.operator
    if state.step == "routes":
        if state.flight is not None:
            return planner.next_step(state, op, explore_bias=rnd.choice([0.5, 1.0, 2.0]))
        fleet = [sid for sid in state.ships_of(flying_for(state, op)) if sid not in state.flown]
        if fleet:
            ship = fleet[0]
            return cmd.StartRoute(ship=ship, base=rnd.choice(operator_bases(state, op)))
        if op == "probe":
            return cmd.FinishOperating()
        if op.startswith("i:"):
            return cmd.DeclareEarnings(choice=rnd.choice(["split", "split", "retain"]))
        return cmd.DeclareEarnings(choice=rnd.choice(style.earnings))
    if purchases.needs_mandatory_ship(state, op) and purchases.cheapest_offer(state):
        phase, kind, _ = purchases.cheapest_offer(state)
        if shortfall(state, op) > 0:
            corps = sellable(state, player, op[2:])
            if corps:
                return cmd.EmergencySell(corp=rnd.choice(corps), count=1)
            return cmd.DeclareBankruptcy()
        return cmd.BuyShip(phase=phase, kind=kind)
    if purchases.mandatory_ship_owed(state, op):      # the bank sells none: offer the whole treasury (7.3)
        return cmd.BuyShipFrom(ship=purchases.ships_it_could_still_buy(state, op)[0], price=state.cash(op))
    candidates = []
    if op.startswith("i:") and not state.ships_of(op) and "AL" in state.launched:
        offers = ships.for_sale(state)
        return _first_accepted(state, player, [cmd.BuyShip(phase=ph, kind=k) for ph, k, _ in offers[:2]]) \
            or cmd.MergeIndependent(independent=int(op[2:]))
    if rnd.random() < 0.6:
        offers = ships.for_sale(state)
        rnd.shuffle(offers)
        candidates += [cmd.BuyShip(phase=phase, kind=kind) for phase, kind, _ in offers[:3]]
    if rnd.random() < 0.7:
        candidates += _claim_candidates(state, op)
    if rnd.random() < 0.1 and op.startswith("c:"):
        offers = [cmd.BuyPrivate(company=company, price=rnd.choice([1, 20, 50])) for company in (0, 7, 8, 9)]
        others = [sid for sid, ship in state.ships.items()
                  if ship.owner.startswith(("c:", "i:")) and ship.owner != op and ship.kind != "probe"]
        if others:
            offers.append(cmd.BuyShipFrom(ship=rnd.choice(others), price=rnd.choice([1, 50, 100])))
        # never offer more than the list value: a seller would gladly take the difference
        candidates += [offer for offer in offers if offer.price <= (offer_value(state, offer) or 0)]
    if rnd.random() < 0.3 and op.startswith("c:"):
        for company in (7, 8, 9):
            if state.company_owner.get(company) == op and company not in state.private_used:
                hexes = list(purchases.in_range(state, op))
                rnd.shuffle(hexes)
                candidates += [cmd.UsePrivate(company=company, hex=h) for h in hexes[:4]]
    if rnd.random() < 0.2 and op.startswith("c:"):
        reach = purchases.in_range(state, op)
        bases = [h for h in state.bases if h in reach and h not in state.stations]
        candidates += [cmd.PlaceStation(hex=h) for h in bases[:2]]
    return _first_accepted(state, player, candidates) or cmd.FinishOperating()


def _claim_candidates(state: State, op: str) -> list:
    from t2038 import tiles
    reach = purchases.in_range(state, op)
    options = []
    for hex_, tile in state.tiles.items():
        if hex_ in reach and hex_ not in state.flipped:
            for index, mine in enumerate(tiles.mines(tile)):
                if f"{hex_}/{index}" not in state.claims:
                    options.append((mine.claimed, hex_, index))
    options.sort(reverse=True)
    return [cmd.PlaceClaim(hex=h, mine=m) for _, h, m in options[:2]]


def default_command(state: State, player: str):
    """What happens when a player's clock runs out: the least committal move, and always one `decide`
    accepts (a refused default would stall the table): an owed decision is declined, a player over a
    limit makes the sale it owes (5.31, 5.35), and anything else refused falls back to the bot."""
    if state.must_discard:
        return bot_command(state, player, random.Random(0))
    if state.pending:
        return cmd.Decline()              # every decision may be declined (a deal, the League, a merger)
    if state.round == "stock":
        preferred = cmd.DropOut() if state.auction_company >= 0 else cmd.Pass()
    elif state.step == "routes":
        if state.flight is not None:
            preferred = cmd.ChooseTile(tile=state.flight.choice[0]) if state.flight.choice else cmd.EndRoute()
        else:
            preferred = cmd.FinishOperating() if state.operator == "probe" else cmd.DeclareEarnings(choice="retain")
    else:
        return _operating_bot(state, player, random.Random(0))
    if accepted(state, player, preferred):
        return preferred
    return bot_command(state, player, random.Random(0))
