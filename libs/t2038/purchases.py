"""Purchases while operating (7.3, 7.4): ships from the bank or a company, upgrades, phase changes and
their effects, forced discards, the mandatory ship with the President's cash, claims, bases, stations."""
from __future__ import annotations

from starbase_rules.scratch import Tx, refuse
from t2038 import events as ev
from t2038 import hexmap, ships, tiles
from t2038.payments import pay
from t2038.routes import REFUEL_GAIN, operator_bases
from t2038.state import PRIVATES, State
from t2038.tables import entities


# ------------------------------------------------------------------------------------------ ships
def cheapest_offer(state: State) -> tuple[int, str, int] | None:
    offers = ships.for_sale(state)
    return offers[0] if offers else None


def needs_mandatory_ship(state: State, holder: str) -> bool:
    return holder.startswith("c:") and not state.ships_of(holder)


def ships_it_could_still_buy(state: State, holder: str) -> list[str]:
    """Other companies' ships the holder could still buy with its own funds (7.3): any but the Probe and
    the League's last ship (7.37), for $1 up to its treasury. A ship whose seller (another player) declined
    an offer of the holder's whole treasury this turn is out of reach -- no lower offer can succeed."""
    if state.phase < 2 or state.cash(holder) < 1 or ships.fleet_size(state, holder) >= ships.limit(state, holder):
        return []
    league_last = len(state.ships_of("c:AL")) == 1
    return [sid for sid, ship in sorted(state.ships.items())
            if ship.owner.startswith(("c:", "i:")) and ship.owner != holder and ship.kind != "probe"
            and not (ship.owner == "c:AL" and league_last) and sid not in state.ships_refused]


def mandatory_ship_owed(state: State, holder: str) -> bool:
    """7.3: a corporation operating without a ship must buy one. From the bank while it sells any (the
    President's cash helping, 7.38); when the bank sells none, from another company while one could be
    bought with the corporation's own funds. Only when neither is possible may it finish without one."""
    if not needs_mandatory_ship(state, holder):
        return False
    return cheapest_offer(state) is not None or bool(ships_it_could_still_buy(state, holder))


def buy_ship(tx: Tx, holder: str, phase: int, kind: str) -> None:
    s = tx.state
    card = ships.bank_card(s, phase)
    if card is None:
        refuse("SHIP_NOT_AVAILABLE", f"the bank does not sell Phase {phase} ships now")
    if kind not in ships.kinds(phase):
        refuse("BAD_SHIP_TYPE", f"Phase {phase} ships come as {ships.kinds(phase)}")
    if ships.fleet_size(s, holder) >= ships.limit(s, holder):
        refuse("SHIP_LIMIT", f"{holder} already owns {ships.limit(s, holder)} ships (7.34)")
    cost = ships.price(phase, kind)
    shortfall = cost - s.cash(holder)
    if shortfall > 0:
        # 7.3: a corporation without a ship that cannot pay for any ship on sale buys the earliest one
        # (either type) with all its treasury, the President adding the rest. While its treasury can pay
        # for some ship, it is not "unable to buy one with its own funds" and gets no President's money.
        offers = ships.for_sale(s)
        earliest, cheapest = min(offer[0] for offer in offers), min(offer[2] for offer in offers)
        if not (needs_mandatory_ship(s, holder) and phase == earliest and s.cash(holder) < cheapest):
            refuse("INSUFFICIENT_FUNDS", f"{holder} has ${s.cash(holder)}; the ship costs ${cost}")
        president = "p:" + s.president[holder[2:]]
        if s.cash(president) < shortfall:
            refuse("INSUFFICIENT_FUNDS", f"the President must add ${shortfall} and has ${s.cash(president)}: "
                                         "sell shares (EmergencySell) or declare bankruptcy")
        pay(tx, president, holder, shortfall, why="mandatory ship")
    pay(tx, holder, "bank", cost, why=f"ship {card}")
    tx.emit(ev.ShipBought(ship=card, buyer=holder, kind=kind, price=cost))
    after_ship_acquired(tx, holder)
    if phase > s.phase:
        change_phase(tx, phase)


def buy_ship_from(tx: Tx, holder: str, ship_id: str, price: int, consented: bool = False) -> None:
    """Ships trade between companies after Phase I (7.3), at any agreed price of $1 or more. A seller run
    by another player is asked first (the offer waits for AcceptDeal or Decline)."""
    s = tx.state
    ship = s.ships.get(ship_id)
    if s.phase < 2:
        refuse("TOO_EARLY", "ships change hands between companies only after Phase I")
    if ship is None or not ship.owner.startswith(("c:", "i:")) or ship.owner == holder:
        refuse("NOT_FOR_SALE", f"{ship_id} is not another company's ship")
    if ship.kind == "probe":
        refuse("NOT_FOR_SALE", "the Probe cannot be sold")
    if ship.owner == "c:AL" and len(s.ships_of("c:AL")) == 1:
        refuse("LEAGUE_LAST_SHIP", "the Asteroid League's last ship may not be bought (7.37)")
    if price < 1:
        refuse("BAD_PRICE", "ships change hands for at least $1")
    if ships.fleet_size(s, holder) >= ships.limit(s, holder):
        refuse("SHIP_LIMIT", f"{holder} is at its ship limit")
    if s.cash(holder) < price:
        refuse("INSUFFICIENT_FUNDS", f"{holder} has ${s.cash(holder)}")
    if not consented and s.controller(ship.owner) != s.controller(holder):
        return ask_seller(tx, s.controller(ship.owner), {"deal": "ship", "ship": ship_id, "price": price})
    seller = ship.owner
    pay(tx, holder, seller, price, why=f"ship {ship_id}")
    tx.emit(ev.ShipBought(ship=ship_id, buyer=holder, kind=ship.kind, price=price, seller=seller))
    after_ship_acquired(tx, holder)


def upgrade_ship(tx: Tx, holder: str, ship_id: str) -> None:
    s = tx.state
    ship = s.ships.get(ship_id)
    if s.phase < 5:
        refuse("TOO_EARLY", "upgrades start in Phase V")
    if ship is None or ship.owner != holder or ship.phase not in (3, 4, 5):
        refuse("NOT_UPGRADABLE", "only your own Phase III-V ships can be upgraded")
    card = ships.bank_card(s, 6)
    if card is None:
        refuse("SHIP_NOT_AVAILABLE", "no Phase VI ship is left")
    cost = entities()["upgrade_price"]
    if s.cash(holder) < cost:
        refuse("INSUFFICIENT_FUNDS", f"an upgrade costs ${cost}")
    pay(tx, holder, "bank", cost, why="upgrade")
    tx.emit(ev.ShipRemoved(ship=ship_id, to="gone"))
    tx.emit(ev.ShipBought(ship=card, buyer=holder, kind="freighter", price=cost))
    if s.phase < 6:                   # the first Phase VI ship in play starts Phase VI, however acquired (8)
        change_phase(tx, 6)


def after_ship_acquired(tx: Tx, holder: str) -> None:
    s = tx.state
    if holder == "c:TSI" and s.company_owner.get(10, "").startswith("p:"):
        tx.emit(ev.CompanyAcquired(company=10, owner="closed"))      # chart: removed once TSI buys a ship
    if holder == "c:AL" and s.company_owner.get(11, "").startswith("p:"):
        tx.emit(ev.CompanyAcquired(company=11, owner="closed"))      # 8: removed once the League has a ship


def change_phase(tx: Tx, phase: int) -> None:
    s = tx.state
    tx.emit(ev.PhaseChanged(phase=phase))
    for sid, ship in s.ships.items():
        if ship.owner != "gone" and (ship.owner != "bank" or not ship.new) and ships.is_obsolete(ship.phase, phase):
            tx.emit(ev.ShipRemoved(ship=sid, to="gone"))
    from t2038 import league
    league.phase_effects(tx, phase)
    if phase >= 5:                    # privates and pilots leave the game (derived, see docs)
        for number, owner in sorted(s.company_owner.items()):
            if (number in PRIVATES and owner.startswith(("p:", "c:"))) or owner.startswith("pilot:"):
                tx.emit(ev.CompanyAcquired(company=number, owner="closed"))
    over = [h for h in _holders(s) if ships.over_limit(s, h)]
    if over:
        tx.emit(ev.DiscardRequired(holders=over))


def _holders(state: State) -> list[str]:
    return sorted({ship.owner for ship in state.ships.values() if ship.owner.startswith(("c:", "i:"))})


def discard(tx: Tx, holder: str, ship_id: str) -> None:
    s = tx.state                      # decide routes DiscardShip here only for a holder over its limit
    if s.ships.get(ship_id) is None or s.ships[ship_id].owner != holder:
        refuse("NOT_YOUR_SHIP", f"{ship_id} is not {holder}'s")
    tx.emit(ev.ShipRemoved(ship=ship_id, to="bank"))


# -------------------------------------------------------------------------------------- counters
def in_range(state: State, holder: str) -> dict[str, int]:
    """Hexes one of the holder's ships could reach from its bases (with its refuelling stations): the
    placement range of 7.4. Value: the most movement left on arrival."""
    fleet = [state.ships[sid] for sid in state.ships_of(holder) if state.ships[sid].kind != "probe"]
    if not fleet:
        return {}
    from t2038.routes import TORCH, pilots_of
    torch = holder == TORCH or (holder.startswith("c:") and TORCH in pilots_of(state, holder))
    reach = max(ship.movement for ship in fleet) + (1 if torch else 0)
    # A ship refuels once at each of its corporation's stations (7.12), so the search remembers which
    # stations were used on the way: passing a station twice must not refuel twice.
    stations = frozenset(h for h, owner in state.stations.items() if owner == holder[2:])
    seen: dict[tuple[str, frozenset], int] = {}
    frontier = [(base, frozenset(), reach) for base in operator_bases(state, holder)]
    best: dict[str, int] = {}
    while frontier:
        nxt = []
        for hex_, used, mp in frontier:
            if seen.get((hex_, used), -1) >= mp:
                continue
            seen[(hex_, used)] = mp
            best[hex_] = max(best.get(hex_, -1), mp)
            for near in hexmap.neighbours(hex_) if mp > 0 else ():
                left, now_used = mp - 1, used
                if near in stations and near not in used:
                    left, now_used = min(reach, left + REFUEL_GAIN), used | {near}
                nxt.append((near, now_used, left))
        frontier = nxt
    return best


def claim_prices(holder: str) -> list[int]:
    table = entities()["costs"]["claim"]
    return table.get(holder[2:], table["standard"]) if holder.startswith("c:") else table["standard"]


def place_claim(tx: Tx, holder: str, hex_: str, mine: int) -> None:
    s = tx.state
    prices = claim_prices(holder)
    done = s.bought_this_turn.get("claim", 0)
    if done >= len(prices):
        refuse("CLAIM_LIMIT", f"{holder} may place {len(prices)} claims per round")
    if holder.startswith("i:"):
        left = s.independent_claims_left[int(holder[2:])]
    else:
        left = s.counters_left[holder[2:]]["claim"]
    if left < 1 or (holder == "c:AL" and left <= _league_reserve(s)):
        refuse("NO_CLAIMS_LEFT", f"{holder} has no claim marker left")
    if hex_ not in s.tiles or hex_ in s.flipped or not 0 <= mine < len(tiles.mines(s.tiles[hex_])):
        refuse("NO_MINE_HERE", f"{hex_} has no mine {mine}")
    if f"{hex_}/{mine}" in s.claims:
        refuse("ALREADY_CLAIMED", f"mine {hex_}/{mine} is already claimed")
    if hex_ not in in_range(s, holder):
        refuse("OUT_OF_RANGE", f"{hex_} is beyond the reach of {holder}'s ships (7.4)")
    price = prices[done]
    if s.cash(holder) < price:
        refuse("INSUFFICIENT_FUNDS", f"this claim costs ${price}")
    pay(tx, holder, "bank", price, why="claim")
    tx.emit(ev.ClaimPlaced(holder=holder, hex=hex_, mine=mine, price=price))


def _league_reserve(state: State, counter: str = "claim") -> int:
    from t2038.league import reserve
    return reserve(state, counter)


def ask_seller(tx: Tx, seller: str, terms: dict) -> None:
    """Queue the seller's consent; the purchase happens when the seller accepts (AcceptDeal)."""
    tx.emit(ev.DecisionsQueued(decisions=[["deal", seller, 0, {**terms, "buyer": tx.state.operator}]]))


def buy_independent_claim(tx: Tx, holder: str, hex_: str, mine: int, consented: bool = False) -> None:
    s = tx.state
    key = f"{hex_}/{mine}"
    seller = s.claims.get(key, "")
    price = entities()["costs"]["independent_claim_sale"]
    if not holder.startswith("c:") or s.phase < 2:
        refuse("TOO_EARLY", "corporations buy Independents' claims after Phase I (7.45)")
    if not seller.startswith("i:"):
        refuse("NOT_AN_INDEPENDENT_CLAIM", f"{key} is not claimed by an Independent")
    left = s.counters_left[holder[2:]]["claim"]
    if left < 1 or (holder == "c:AL" and left <= _league_reserve(s)):
        # 8.12: the League's claims kept for the Independents still outside are not for buying claims either
        refuse("NO_CLAIMS_LEFT", f"{holder} has no claim marker left (the League keeps "
                                 f"{_league_reserve(s) if holder == 'c:AL' else 0} in reserve)")
    if s.cash(holder) < price:
        refuse("INSUFFICIENT_FUNDS", f"an Independent's claim costs ${price}")
    if not consented and s.controller(seller) != s.controller(holder):
        return ask_seller(tx, s.controller(seller), {"deal": "claim", "hex": hex_, "mine": mine})
    pay(tx, holder, seller, price, why="claim bought")
    tx.emit(ev.ClaimPlaced(holder=holder, hex=hex_, mine=mine, price=price, replaced=seller))


def place_base(tx: Tx, holder: str, hex_: str) -> None:
    s = tx.state
    _counter_checks(s, holder, "base")
    if hex_ not in s.tiles or hex_ in s.bases:
        refuse("NOT_AN_ASTEROID", f"a base goes on an explored asteroid tile; {hex_} is not one")
    if any(key.startswith(f"{hex_}/") for key in s.claims):
        refuse("TILE_CLAIMED", f"{hex_} holds a claim (7.41)")
    if hex_ not in in_range(s, holder):
        refuse("OUT_OF_RANGE", f"{hex_} is beyond the reach of {holder}'s ships")
    price = entities()["costs"]["base"].get(holder[2:], entities()["costs"]["base"]["standard"])
    if s.cash(holder) < price:
        refuse("INSUFFICIENT_FUNDS", f"a base costs ${price}")
    pay(tx, holder, "bank", price, why="base")
    tx.emit(ev.BasePlaced(corp=holder[2:], hex=hex_, price=price))


def place_station(tx: Tx, holder: str, hex_: str) -> None:
    s = tx.state
    _counter_checks(s, holder, "refuel")
    if hex_ not in s.bases or hex_ in s.stations:
        refuse("NO_FREE_BASE", f"{hex_} is not a base without a refuelling station (7.42)")
    if hex_ not in in_range(s, holder):
        refuse("OUT_OF_RANGE", f"{hex_} is beyond the reach of {holder}'s ships")
    corp = holder[2:]
    price = entities()["costs"]["refuel"].get(corp, entities()["costs"]["refuel"]["standard"])
    first = s.counters_left[corp]["refuel"] == entities()["corporations"][corp]["refuel"]
    if corp == "OPC" and first and entities()["costs"]["opc_first_refuel_free"]:      # 7.42
        price = 0
    if s.cash(holder) < price:
        refuse("INSUFFICIENT_FUNDS", f"a refuelling station costs ${price}")
    pay(tx, holder, "bank", price, why="refuelling station")
    tx.emit(ev.StationPlaced(corp=corp, hex=hex_, price=price))


def _counter_checks(state: State, holder: str, kind: str) -> None:
    if not holder.startswith("c:"):
        refuse("CORPORATIONS_ONLY", "only corporations place bases and refuelling stations")
    if state.phase < 2:
        refuse("TOO_EARLY", "bases and refuelling stations are bought after Phase I")
    if state.bought_this_turn.get(kind):
        refuse("ONE_PER_ROUND", f"one {kind} per operating round")
    reserved = _league_reserve(state, kind) if holder == "c:AL" else 0
    if state.counters_left[holder[2:]][kind] - reserved < 1:
        refuse("NO_COUNTERS_LEFT", f"{holder} has no {kind} marker left (the League keeps {reserved} in reserve)")
