"""`evolve`: apply one 21Moon event to the state. Never refuses a stored event; no decisions here."""
from __future__ import annotations

from kit18xx.auction import Waterfall
from kit18xx.bank import BANK
from kit18xx.bankruptcy import corporation_removal
from kit18xx.shares import IPO, POOL, corp_of
from kit18xx.turns import StockTurns
from moon21 import board as bd
from moon21 import events as E
from moon21 import evolve_operating  # noqa: F401  (registers the operating round's handlers)
from moon21.rules import RULES, ols_min_distance, rules
from moon21.state import C, CorporateRound, Corp, P, State, name_of


def _shares_value(state: State, certs: list[str], price: int) -> int:
    return sum(state.shares.percent[c] for c in certs) // 10 * price


def _setup(s: State, e: E.GameSetUp) -> None:
    r = rules()
    s.players = list(e.players)
    s.options = dict(e.options)
    s.ledger.open(BANK, r["bank_cash"])
    for p in s.players:
        s.ledger.move(BANK, P(p), e.starting_cash)
    for spec in r.corps.values():
        s.shares.add_corporation(spec.id)
        s.corps[spec.id] = Corp(spec.id, depots_left=list(spec.depot_costs))
        s.ledger.open(C(spec.id))
    s.private_owner = {p: "auction" for p in r.privates}
    s.held_back = e.held_back
    s.minerals = dict(e.minerals)
    s.stack = [t for t, n in r.transport_count.items() if n for _ in range(n)]
    s.supplied = {t: n for t, n in r.transport_count.items() if n}
    s.supplied[10] = 0
    s.scrapped = {t: 0 for t in r.transport_count}
    s.bonus_left = {a: bd.BONUS_TOKENS for a in bd.AREAS}
    s.board = bd.new_board(dict(e.minerals))
    s.priority = s.players[0]


def _round(s: State, e: E.RoundStarted) -> None:
    s.kind = e.kind
    if e.kind != "ISR":
        s.set_no = e.set_no
    if e.kind == "ISR":
        s.auction = Waterfall.start([(p.id, p.value) for p in rules().privates.values()])
        s.auction_turn = s.priority
    elif e.kind == "SR":
        s.auction = None
        s.auction_turn = None
        s.sr = StockTurns.begin(s.active_players(), s.priority)
        s.sr_sold, s.sr_turn_sold, s.swapped = {}, [], []
    elif e.kind == "CR":
        s.sr = None
        s.swapped = []
        s.cr = CorporateRound(order=list(e.order))
    else:
        s.cr = None
        s.or_no = e.or_no
        s.operated = []
        s.op = None


def _private_bought(s: State, e: E.PrivateBought) -> None:
    s.ledger.move(P(e.player), BANK, e.price)
    s.private_owner[e.private] = P(e.player)
    if s.auction is not None:
        s.auction.sell(e.private)
    if e.private == "P1":
        s.ols_pending = e.player


def _bid(s: State, e: E.BidPlaced) -> None:
    a = s.auction
    a.place_bid(e.private, e.player, e.amount)
    if a.resolving == e.private:
        a.resolution_turn = a.next_in_resolution(s.players, e.player)


def _sold(s: State, e: E.SharesSold) -> None:
    s.ledger.move(BANK, e.seller, _shares_value(s, e.certs, e.price))
    for cert in e.certs:
        s.shares.move(cert, POOL)
    corp = corp_of(e.certs[0])
    if e.seller.startswith("p:") and s.kind == "SR":
        s.sr_sold.setdefault(name_of(e.seller), []).append(corp)
        s.sr_turn_sold.append(corp)
    if s.kind == "CR" and s.cr and s.cr.current:
        s.cr.sold_corps.append(corp)
    if s.op and s.op.raising:
        s.op.raised = True


def _issued(s: State, e: E.SharesIssued) -> None:
    s.ledger.move(BANK, C(e.corp), _shares_value(s, e.certs, e.price))
    for cert in e.certs:
        s.shares.move(cert, POOL)
    s.cr.issued = True


def _bought(s: State, e: E.ShareBought) -> None:
    corp = corp_of(e.cert)
    payee = C(corp) if e.source == IPO else BANK
    s.ledger.move(e.buyer, payee, _shares_value(s, [e.cert], e.price))
    s.shares.move(e.cert, e.buyer)
    if e.buyer.startswith("c:") and s.cr:
        s.cr.bought = True


def _started(s: State, e: E.CorporationStarted) -> None:
    row, col = s.grid.par_box(e.par)
    s.market.place(e.corp, row, col)
    s.ledger.move(P(e.player), C(e.corp), 2 * e.par)
    s.shares.move(f"{e.corp}_0", P(e.player))
    s.corps[e.corp].started = True


def _swapped(s: State, e: E.CertificatesSwapped) -> None:
    s.shares.move(e.taken, P(e.player))
    s.shares.move(e.given, C(e.corp))
    s.swapped += [e.taken, e.given]


def _presidency(s: State, e: E.PresidencyChanged) -> None:
    s.shares.swap_presidency(e.corp, e.outgoing, e.incoming)
    s.corps[e.corp].receivership = False


def _stock_turn_ended(s: State, e: E.StockTurnEnded) -> None:
    if e.passed:
        s.sr.passed()
    else:
        s.sr.acted(e.player)
    s.sr.advance()
    s.sr_turn_sold = []
    s.sr_turn_took_share = False


def _private_sold(s: State, e: E.PrivateSold) -> None:
    s.ledger.move(C(e.corp), e.seller, e.price)
    s.private_owner[e.private] = C(e.corp)
    if e.private == "P1":
        bd.convert_ols(s.board, e.corp)
        s.ols_corp = e.corp
    if e.private == "P2" and s.op:
        s.op.pending_un = True


def _player_bankrupt(s: State, e: E.PlayerBankrupt) -> None:
    holder = P(e.player)
    s.ledger.empty_into(holder, BANK)
    for private in s.privates_of(holder):
        s.private_owner[private] = "closed"
    for cert in s.shares.certs_held(holder):
        s.shares.move(cert, POOL)
    for corp, successor in e.successors.items():
        if successor is None:
            s.corps[corp].receivership = True
        else:
            s.shares.swap_presidency(corp, POOL, P(successor))
    s.bankrupt.append(e.player)
    if s.priority == e.player and s.active_players():
        seats = s.players
        i = seats.index(e.player)
        s.priority = next(p for p in seats[i + 1:] + seats[:i] if p not in s.bankrupt)
    if s.sr:
        s.sr.drop_seat(e.player)


def _corp_closed(s: State, e: E.CorporationClosed) -> None:
    corp = s.corps[e.corp]
    for cert, holder in corporation_removal(s.shares, e.corp, C(e.corp)):
        s.shares.move(cert, holder)
    s.ledger.empty_into(C(e.corp), BANK)
    for private in s.privates_of(C(e.corp)):
        s.private_owner[private] = "closed"
    for base in ("LB", "SP"):
        for t in corp.transports[base]:
            s.scrapped[t] += 1
        corp.transports[base] = []
    corp.closed = True
    corp.receivership = False
    s.market.remove(e.corp)
    bd.remove_corporation(s.board, e.corp)
    if s.op and s.op.corp == e.corp:
        s.op = None
        s.operated.append(e.corp)
    if s.cr and s.cr.current == e.corp:
        s.cr.done.append(e.corp)
        _reset_cr(s.cr)


def _resolution_started(s: State, e: E.ResolutionStarted) -> None:
    s.auction.begin_resolution(e.private, e.player)
    s.auction_turn = e.resume          # who resumes the ordinary auction afterwards


def _resolution_passed(s: State, e: E.ResolutionPassed) -> None:
    s.auction.drop_out(e.player)
    s.auction.resolution_turn = e.next_player


def _ols_placed(s: State, e: E.OldLandingSitePlaced) -> None:
    bd.place_ols(s.board, e.hex, e.tile, e.rotation, e.depot, ols_min_distance(s))
    s.ols_pending = None


def _tunnel_share(s: State, e: E.TunnelShareTaken) -> None:
    s.shares.move(e.cert, e.taker)
    s.tunnel_used = True
    s.sr_turn_took_share = s.kind == "SR"


def _corporate_turn_ended(s: State, e: E.CorporateTurnEnded) -> None:
    s.cr.done.append(e.corp)
    _reset_cr(s.cr)


def _game_ended(s: State, e: E.GameFinished) -> None:
    s.ended = e.reason
    s.final = list(e.standings)
    s.kind = "END"


# A handler returns None: it mutated the state (the base takes any other result for a new state, so
# these wrap calls that return something; so do those of `evolve_operating`).
def _auction_passed(s: State, e: E.AuctionPassed) -> None:
    s.auction.record_pass()


def _price_dropped(s: State, e: E.PrivatePriceDropped) -> None:
    s.auction.drop_price(e.private, s.auction.price[e.private] - e.price)


def _price_moved(s: State, e: E.PriceMoved) -> None:
    s.market.move(s.grid, e.corp, e.direction, e.steps)


def _set(attr: str, field: str):
    def apply(s: State, e) -> None:
        setattr(s, attr, getattr(e, field))
    return apply


# Every event type and what it does to the state (a handler mutates the state it is given).
HANDLERS = {
    E.GameSetUp: _setup,
    E.RoundStarted: _round,
    E.PriorityDealt: _set("priority", "player"),
    E.AuctionTurn: _set("auction_turn", "player"),
    E.PrivateBought: _private_bought,
    E.BidPlaced: _bid,
    E.AuctionPassed: _auction_passed,
    E.PrivatePriceDropped: _price_dropped,
    E.ResolutionStarted: _resolution_started,
    E.ResolutionPassed: _resolution_passed,
    E.OldLandingSitePlaced: _ols_placed,
    E.SharesSold: _sold,
    E.SharesIssued: _issued,
    E.ShareBought: _bought,
    E.CorporationStarted: _started,
    E.CorporationFloated: lambda s, e: setattr(s.corps[e.corp], "floated", True),
    E.CertificatesSwapped: _swapped,
    E.TunnelShareTaken: _tunnel_share,
    E.PresidencyChanged: _presidency,
    E.PriceMoved: _price_moved,
    E.StockTurnEnded: _stock_turn_ended,
    E.CorporateTurnStarted: lambda s, e: setattr(s.cr, "current", e.corp),
    E.CorporateTurnEnded: _corporate_turn_ended,
    E.SpacePortValueChanged: _set("space_port_value", "value"),
    E.PrivateClosed: lambda s, e: s.private_owner.__setitem__(e.private, "closed"),
    E.PrivateSold: _private_sold,
    E.PlayerBankrupt: _player_bankrupt,
    E.CorporationClosed: _corp_closed,
    E.GameFinished: _game_ended,
}

for _event_type, _handler in HANDLERS.items():
    RULES.evolves(_event_type)(_handler)


def _reset_cr(cr: CorporateRound) -> CorporateRound:
    cr.current, cr.issued, cr.sold_corps, cr.bought = None, False, [], False
    return cr


def evolve(state: State, event) -> State:
    """Apply one event (what `GAME.evolve` does; for code that folds without the engine)."""
    return RULES.evolve(state, event)
