"""Applying one event to the state. Never fails on a stored event; no chance, no clock."""
from __future__ import annotations

from kit18xx.bank import BANK
from kit18xx.market import MarketState
from t2038 import events as ev
from t2038 import hexmap, tiles
from t2038 import market
from t2038.options import state_options
from t2038.rules import RULES
from t2038.ships import new_fleet, over_limit, stats
from t2038.state import CORPS, Flight, State, p
from t2038.tables import entities


@RULES.evolves(ev.GameStarted)
def _started(s: State, e: ev.GameStarted) -> None:
    s.players = list(e.players)
    s.options = state_options(e.options)
    s.ledger.open(BANK, e.money_total - e.cash_each * len(e.players))
    for player in e.players:
        s.ledger.open(p(player), e.cash_each)
    s.company_owner = {n: "" for n in range(12)}
    s.independent_claims_left = {n: entities()["independent_claims"] for n in range(1, 7)}
    s.market = MarketState()
    corp_data = entities()["corporations"]
    for corp in CORPS:
        if s.options.short and corp_data[corp]["group"] == "C":
            continue
        s.shares[corp] = {"ipo": 2, "trade_in": 6, "league": 2} if corp == "AL" else {"ipo": 10}
        s.counters_left[corp] = {"base": corp_data[corp]["bases"], "refuel": corp_data[corp]["refuel"],
                                 "claim": corp_data[corp]["claims"]}
    s.pool = tiles.full_pool()
    s.bases = dict(hexmap.printed_bases())
    s.ships = new_fleet(s.options)
    s.round, s.turn, s.first_player = "stock", e.players[0], e.players[0]


@RULES.evolves(ev.CashMoved)
def _cash(s: State, e: ev.CashMoved) -> None:
    # Only the broken bank may owe (it pays on credit: the spreadsheet of Figure 10); decide checks the rest.
    s.ledger.move(e.source, e.destination, e.amount, may_owe=e.source == BANK)


@RULES.evolves(ev.BidPlaced)
def _bid(s: State, e: ev.BidPlaced) -> None:
    s.bids.setdefault(e.company, {})[e.player] = e.amount


@RULES.evolves(ev.AuctionOpened)
def _auction_opened(s: State, e: ev.AuctionOpened) -> None:
    s.auction_company, s.auction_bidders = e.company, list(e.bidders)
    s.auction_high, s.auction_leader = e.high, e.leader


@RULES.evolves(ev.AuctionBidRaised)
def _raised(s: State, e: ev.AuctionBidRaised) -> None:
    s.auction_high, s.auction_leader = e.amount, e.player
    s.auction_bidders.remove(e.player)
    s.auction_bidders.append(e.player)


@RULES.evolves(ev.AuctionDropped)
def _dropped(s: State, e: ev.AuctionDropped) -> None:
    s.auction_bidders.remove(e.player)


@RULES.evolves(ev.CompanyAcquired)
def _acquired(s: State, e: ev.CompanyAcquired) -> None:
    s.company_owner[e.company] = e.owner
    s.bids.pop(e.company, None)
    if s.auction_company == e.company:
        s.auction_company, s.auction_bidders, s.auction_high, s.auction_leader = -1, [], 0, ""


@RULES.evolves(ev.SharesMoved)
def _shares(s: State, e: ev.SharesMoved) -> None:
    book = s.shares[e.corp]
    book[e.source] = book.get(e.source, 0) - e.units
    if book[e.source] == 0:
        del book[e.source]
    book[e.destination] = book.get(e.destination, 0) + e.units
    if e.source.startswith("p:") and e.destination == "market":
        s.sold_this_round.append(f"{e.source[2:]}/{e.corp}")


@RULES.evolves(ev.PresidentChanged)
def _president(s: State, e: ev.PresidentChanged) -> None:
    s.president[e.corp] = e.player


@RULES.evolves(ev.StockPriceMoved)
def _price(s: State, e: ev.StockPriceMoved) -> None:
    market.place(s.market, e.corp, e.row, e.column)
    if e.why == "sale" and e.corp not in s.sold_this_turn:
        s.sold_this_turn.append(e.corp)


@RULES.evolves(ev.CorporationLaunched)
def _launched(s: State, e: ev.CorporationLaunched) -> None:
    s.launched.append(e.corp)
    s.par[e.corp] = e.par
    s.corp_kind[e.corp] = e.kind
    s.president[e.corp] = e.player


@RULES.evolves(ev.CorporationActivated)
def _activated(s: State, e: ev.CorporationActivated) -> None:
    s.active.append(e.corp)


@RULES.evolves(ev.StockTurnEnded)
def _turn_ended(s: State, e: ev.StockTurnEnded) -> None:
    if e.passed:
        s.passes += 1
    else:
        s.passes = 0
        if e.purchase:
            s.last_actor = e.player
    s.turn, s.sold_this_turn = e.next_player, []


@RULES.evolves(ev.RoundStarted)
def _round(s: State, e: ev.RoundStarted) -> None:
    s.round, s.set_number, s.or_number = e.kind, e.set_number, e.or_number
    s.passes, s.sold_this_turn = 0, []
    s.done_operators, s.operator, s.step, s.flown, s.used_mines = [], "", "", [], []
    s.pilots_used, s.started_at = [], {}
    if e.first_player:
        s.first_player = e.first_player
    if e.kind == "stock":
        s.sold_this_round, s.turn, s.last_actor = [], s.first_player, ""
    else:
        s.turn = ""


@RULES.evolves(ev.OperatorStarted)
def _operator(s: State, e: ev.OperatorStarted) -> None:
    s.operator, s.step, s.earnings, s.bought_this_turn = e.operator, "routes", 0, {}
    s.ships_refused = []
    if e.operator.startswith("c:"):
        s.started_at[e.operator[2:]] = e.price
    s.sold_this_turn = []


@RULES.evolves(ev.OperatorFinished)
def _operator_done(s: State, e: ev.OperatorFinished) -> None:
    s.done_operators.append(e.operator)
    s.operator, s.step = "", ""
    if e.operator.startswith("c:") and e.operator[2:] not in s.operated:
        s.operated.append(e.operator[2:])


@RULES.evolves(ev.RouteStarted)
def _route_started(s: State, e: ev.RouteStarted) -> None:
    s.flight = Flight(ship=e.ship, hex=e.hex, movement=e.movement, start_movement=e.movement, holds=e.holds,
                      pilot=e.pilot)
    s.flown.append(e.ship)
    if e.pilot:                          # also an Independent's own flights: used once per round (8.14)
        s.pilots_used.append(e.pilot)


@RULES.evolves(ev.ShipMoved)
def _moved(s: State, e: ev.ShipMoved) -> None:
    f = s.flight
    f.hex, f.movement = e.hex, f.movement - e.cost + e.refuel
    if e.refuel:
        f.refuelled.append(e.hex)


@RULES.evolves(ev.HexExplored)
def _explored(s: State, e: ev.HexExplored) -> None:
    s.pool.remove(e.tile)
    s.tiles[e.hex] = e.tile
    if s.flight is not None:
        s.flight.choice, s.flight.choice_hex = [], ""


@RULES.evolves(ev.TilesOffered)
def _offered(s: State, e: ev.TilesOffered) -> None:
    s.flight.choice, s.flight.choice_hex = list(e.tiles), e.hex


@RULES.evolves(ev.OrePickedUp)
def _picked(s: State, e: ev.OrePickedUp) -> None:
    s.flight.cargo.append([e.hex, e.mine, e.value, e.ore])
    s.used_mines.append(f"{e.hex}/{e.mine}")


@RULES.evolves(ev.RouteEnded)
def _route_ended(s: State, e: ev.RouteEnded) -> None:
    s.earnings += e.value
    s.flight = None


@RULES.evolves(ev.EarningsDeclared)
def _earnings(s: State, e: ev.EarningsDeclared) -> None:
    s.step = "purchases"


@RULES.evolves(ev.ShipBought)
def _ship_bought(s: State, e: ev.ShipBought) -> None:
    ship = s.ships[e.ship]
    if ship.kind == "" or e.seller == "bank":
        ship.kind = e.kind
        ship.movement, ship.holds = stats(ship.phase, e.kind)
    ship.owner, ship.new = e.buyer, False


@RULES.evolves(ev.ShipRemoved)
def _ship_removed(s: State, e: ev.ShipRemoved) -> None:
    s.ships[e.ship].owner = e.to
    if e.to == "bank":
        s.ships[e.ship].kind = ""
    for holder in list(s.must_discard):
        if not over_limit(s, holder):
            s.must_discard.remove(holder)


@RULES.evolves(ev.PhaseChanged)
def _phase(s: State, e: ev.PhaseChanged) -> None:
    s.phase = e.phase


@RULES.evolves(ev.DiscardRequired)
def _discard(s: State, e: ev.DiscardRequired) -> None:
    s.must_discard = list(e.holders)


@RULES.evolves(ev.ClaimPlaced)
def _claim(s: State, e: ev.ClaimPlaced) -> None:
    s.claims[f"{e.hex}/{e.mine}"] = e.holder
    if e.replaced:
        s.independent_claims_left[int(e.replaced[2:])] += 1
    if e.private:
        s.private_used.append(e.private)
        return
    if e.holder.startswith("i:"):
        s.independent_claims_left[int(e.holder[2:])] -= 1
    else:
        s.counters_left[e.holder[2:]]["claim"] -= 1
    s.bought_this_turn["claim"] = s.bought_this_turn.get("claim", 0) + (0 if e.replaced else 1)


@RULES.evolves(ev.BasePlaced)
def _base(s: State, e: ev.BasePlaced) -> None:
    s.bases[e.hex] = e.corp
    s.flipped.append(e.hex)
    if e.private:
        s.private_used.append(e.private)
        return
    s.counters_left[e.corp]["base"] -= 1
    if e.price:                          # the League's formation base is not a purchase
        s.bought_this_turn["base"] = 1


@RULES.evolves(ev.StationPlaced)
def _station(s: State, e: ev.StationPlaced) -> None:
    s.stations[e.hex] = e.corp
    if e.private:
        s.private_used.append(e.private)
        return
    s.counters_left[e.corp]["refuel"] -= 1
    s.bought_this_turn["refuel"] = 1


@RULES.evolves(ev.AuctionFlowSet)
def _auction_flow(s: State, e: ev.AuctionFlowSet) -> None:
    s.resume_after, s.resolving_all_pass = e.resume_after, e.resolving_all_pass


@RULES.evolves(ev.BaseTransferred)
def _base_transferred(s: State, e: ev.BaseTransferred) -> None:
    s.bases[e.hex] = e.owner
    if e.uses_counter:
        s.counters_left[e.owner]["base"] -= 1


@RULES.evolves(ev.DecisionsQueued)
def _queued(s: State, e: ev.DecisionsQueued) -> None:
    s.decisions.add(e.decisions, e.then)


@RULES.evolves(ev.DecisionResolved)
def _resolved(s: State, e: ev.DecisionResolved) -> None:
    s.decisions.resolve()


@RULES.evolves(ev.ShipOfferDeclined)
def _ship_offer_declined(s: State, e: ev.ShipOfferDeclined) -> None:
    if e.whole_treasury:
        s.ships_refused.append(e.ship)


@RULES.evolves(ev.LeagueSkipsRound)
def _league_skips(s: State, e: ev.LeagueSkipsRound) -> None:
    s.done_operators.append("c:AL")


@RULES.evolves(ev.BankBroke)
def _bank_broke(s: State, e: ev.BankBroke) -> None:
    s.bank_broken = True


@RULES.evolves(ev.GameFinished)
def _ended(s: State, e: ev.GameFinished) -> None:
    s.round, s.ended, s.bankrupt, s.flight = "over", e.reason, e.bankrupt, None


@RULES.upcasts("GameStarted", 1)
def _started_v1(data: dict) -> dict:
    """v1 recorded only the options a table set (the Short game as `short: true`); the rest were the
    defaults of the time: the Full game, no optional rule, the ASSUMED facts as they were then. Written
    out here, not read from the data files: a recorded game must replay the same after a later change
    of an ASSUMED default (map.yaml's transshipment phase, VP's Rare bonus)."""
    recorded = dict(data["options"])
    short = bool(recorded.pop("short", False))
    options = {"variant": "short" if short else "full", "two_player": False, "weaker_tsi": None,
               "cutthroat": False, "stock_repurchases": False, "transshipment_high_from_phase": 4,
               "vp_rare_bonus": 20, "certificate_limit": None, "money_total": None}
    return {**data, "options": {**options, **recorded}}
