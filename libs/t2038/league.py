"""The Asteroid League (8): formed by Asteroid Export Co.'s owner from Phase III (forced in Phase IV);
Independents merge when it forms, at the start of later operating rounds, when they cannot buy a ship,
and all at Phase V. Merging owners may get half the treasury (the golden parachute) and a League share."""
from __future__ import annotations

from kit18xx.shares import clockwise_from
from kit18xx.unit_shares import takes_presidency
from starbase_rules.scratch import Tx, refuse
from t2038 import events as ev
from t2038 import hexmap, ships, tiles
from t2038.growth import absorb
from t2038.payments import pay
from t2038.state import INDEPENDENTS, State, i, p
from t2038.stock import MAX_UNITS
from t2038.tables import entities, market_data

LEAGUE = "AL"


def formed(state: State) -> bool:
    return LEAGUE in state.launched


def founder(state: State) -> str:
    owner = state.company_owner.get(11, "")
    return owner[2:] if owner.startswith("p:") else ""


def unmerged(state: State) -> list[int]:
    return [n for n in INDEPENDENTS if state.company_owner.get(n, "").startswith("p:")]


def reserve(state: State, counter: str) -> int:
    """Markers the League must keep for Independents still outside it (8.12)."""
    return len(unmerged(state)) * {"base": 1, "claim": 2}.get(counter, 0)


def may_offer_formation(state: State) -> bool:
    return state.phase == 3 and not formed(state) and bool(founder(state))


def merge_offers(state: State, when: str) -> list[list]:
    """Merge choices in clockwise order starting with the League's President (8)."""
    president = state.president[LEAGUE]
    order = [president] + clockwise_from(state.players, president)
    return [["merge", player, n, when] for player in order for n in unmerged(state)
            if state.company_owner[n] == p(player)]


def form(tx: Tx) -> None:
    s = tx.state
    player = founder(s)
    row, column = market_data()["league_start"]
    tx.emit(ev.SharesMoved(corp=LEAGUE, source="ipo", destination=p(player), units=2))
    tx.emit(ev.CorporationLaunched(corp=LEAGUE, player=player, par=entities()["league"]["par"], kind="league"))
    tx.emit(ev.StockPriceMoved(corp=LEAGUE, row=row, column=column, why="launch"))
    tx.emit(ev.CorporationActivated(corp=LEAGUE))
    pay(tx, "bank", "c:AL", entities()["league"]["capital"], why="League capital")
    if s.units(LEAGUE, "league"):
        tx.emit(ev.SharesMoved(corp=LEAGUE, source="league", destination="growth",
                               units=s.units(LEAGUE, "league")))
    reserved = hexmap.map_data()["league_reserved_hex"]
    if s.pool:
        tx.emit(ev.HexExplored(hex=reserved, tile=tiles.draw(s.pool, tx.rng)))
    tx.emit(ev.BasePlaced(corp=LEAGUE, hex=reserved, price=0))
    if s.round == "operating" and any(price <= 124 for price in s.started_at.values()):
        tx.emit(ev.LeagueSkipsRound())
    offers = merge_offers(s, "formation")
    if offers:
        tx.emit(ev.DecisionsQueued(decisions=offers))


def merge(tx: Tx, number: int, golden: bool) -> None:
    s = tx.state
    owner = s.company_owner[number]
    treasury = s.cash(i(number))
    if golden:
        pay(tx, i(number), owner, treasury - treasury // 2, why="golden parachute")   # League keeps the half rounded down
    had_ships = bool(s.ships_of(i(number)))
    absorb(tx, number, LEAGUE, base_uses_counter=True)
    tx.emit(ev.SharesMoved(corp=LEAGUE, source="trade_in", destination=owner, units=1))
    if takes_presidency({h[2:]: n for h, n in s.shares[LEAGUE].items() if h.startswith("p:")},
                                s.president[LEAGUE], owner[2:]):
        tx.emit(ev.PresidentChanged(corp=LEAGUE, player=owner[2:]))
    if had_ships and s.company_owner.get(11, "").startswith("p:"):
        tx.emit(ev.CompanyAcquired(company=11, owner="closed"))
    if ships.over_limit(s, "c:AL"):
        tx.emit(ev.DiscardRequired(holders=sorted(set(s.must_discard) | {"c:AL"})))
    if s.operator == i(number):               # merged during its own turn: it operates no further
        tx.emit(ev.OperatorFinished(operator=i(number)))


def golden_parachute(state: State, number: int, when: str) -> bool:
    """Half the treasury goes to the owner at formation, or later in the Full game with a ship (8.11)."""
    if when == "formation":
        return True
    if when == "no ship":
        return False
    return not state.options.short and bool(state.ships_of(i(number)))


def decide_pending(tx: Tx, actor: str, command) -> None:
    from t2038 import commands as cmd
    s = tx.state
    kind, player, number, when = s.decisions.require_decider(actor)
    then = s.decisions.then
    if isinstance(command, cmd.Decline):
        if kind == "deal" and when["deal"] == "ship":      # remembered for the mandatory ship (7.3)
            buyer = when["buyer"]
            tx.emit(ev.ShipOfferDeclined(ship=when["ship"], buyer=buyer, price=when["price"],
                                         whole_treasury=when["price"] >= s.cash(buyer)))
    elif kind == "form" and isinstance(command, cmd.FormLeague):
        form(tx)
    elif kind == "deal" and isinstance(command, cmd.AcceptDeal):
        close_deal(tx, when)
    elif kind == "merge" and isinstance(command, cmd.MergeIndependent):
        if command.independent != number:
            refuse("NOT_OFFERED", f"the choice now is about Independent {number}")
        if s.units(LEAGUE, p(player)) + 1 > MAX_UNITS:
            # 5.31: only a forced merger (7.39, Phase V) may take an owner past 60 % of the League.
            refuse("HOLDING_LIMIT", f"{player} holds 60% of the League; only a forced merger may add more (5.31)")
        merge(tx, number, golden_parachute(s, number, when))
    else:
        refuse("DECISION_PENDING", f"first decide: {kind} ({player})")
    tx.emit(ev.DecisionResolved())
    if not s.decisions:
        resume(tx, then)


def close_deal(tx: Tx, terms: dict) -> None:
    """The seller agreed: the purchase goes through, checked again against the rules."""
    from t2038 import privates, purchases
    buyer = terms["buyer"]
    if terms["deal"] == "ship":
        purchases.buy_ship_from(tx, buyer, terms["ship"], terms["price"], consented=True)
    elif terms["deal"] == "claim":
        purchases.buy_independent_claim(tx, buyer, terms["hex"], terms["mine"], consented=True)
    else:
        privates.buy_private(tx, buyer, terms["company"], terms["price"], consented=True)


def resume(tx: Tx, then: str) -> None:
    from t2038 import flow
    s = tx.state
    if then == "operating":
        flow.begin_operating(tx)
    elif s.round == "operating" and not s.operator:
        flow.next_operator(tx)


def phase_effects(tx: Tx, phase: int) -> None:
    """League consequences of a new phase: the offer (III), forced formation (IV), forced mergers (V)."""
    s = tx.state
    if phase == 3 and may_offer_formation(s):
        tx.emit(ev.DecisionsQueued(decisions=[["form", founder(s), 11, ""]]))
    elif phase == 4 and not formed(s) and founder(s):
        form(tx)
    elif phase >= 5:
        if not formed(s) and founder(s):
            form(tx)
        for number in unmerged(s) if formed(s) else []:
            merge(tx, number, golden_parachute(s, number, "later"))
