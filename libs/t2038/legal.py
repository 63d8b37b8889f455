"""`legal_actions`: the concrete commands a player may send now, each one checked against `decide`.

Where a choice is small the list is complete: auction buys and minimum bids, share sales of every size,
purchases from every source, launches at every par, ship purchases, upgrades and discards, claims,
bases and stations within range, earnings choices, decisions owed, and every step of a route in flight.
Where a choice is a price on a range (a raise, a ship or private bought from another company) the
list offers the ends of the range; any amount between is legal too.

Routes: `route_proposals` is the planner's advice for the ship in flight — for each end it can still
reach, with or without a detour through a known mine (refuelling at the corporation's stations on the
way, as a Move would), the path, the pickups worth most along it
(`planner.best_pickups`) and what the load would earn there. The commands of a flight are listed with
the first step of the best proposal first, so a UI can highlight it and a bot can simply take it.
"""
from __future__ import annotations

from dataclasses import dataclass

from t2038 import auction, hexmap, league, planner, purchases, ships, stock, tiles
from t2038 import commands as cmd
from t2038.bots import accepted
from t2038.routes import REFUEL_GAIN, flying_for, operator_bases, pilots_of
from t2038.state import State, p
from t2038.values import route_value

RAISE = auction.RAISE
EARNINGS = {"i": ("split", "retain"), "c": ("retain", "half", "full")}


def legal_actions(state: State, player: str) -> list[dict]:
    from t2038.game import GAME
    if player not in GAME.to_act(state):
        return []
    offered, seen = [], set()
    for command in _candidates(state, player):
        data = command.model_dump()
        key = repr(sorted(data.items()))
        if key not in seen and accepted(state, player, command):
            seen.add(key)
            offered.append(data)
    return offered


def _candidates(state: State, player: str) -> list:
    if state.must_discard:
        return [cmd.DiscardShip(ship=sid) for holder in state.must_discard if state.controller(holder) == player
                for sid in state.ships_of(holder)]
    if state.decisions:
        kind, _, number, _ = state.decisions.first
        answer = {"form": cmd.FormLeague(), "deal": cmd.AcceptDeal()}.get(kind) \
            or cmd.MergeIndependent(independent=number)
        return [answer, cmd.Decline()]
    if state.round == "stock":
        return _stock(state, player)
    if state.step == "routes":
        return _flight(state) if state.flight is not None else _routes(state)
    return _purchases(state, player)


# ---- stock rounds ----------------------------------------------------------------------------------
def _stock(state: State, player: str) -> list:
    if state.auction_company >= 0:
        free = auction.free_cash(state, player, state.auction_company)
        return [cmd.RaiseBid(amount=state.auction_high + RAISE), cmd.RaiseBid(amount=free), cmd.DropOut()]
    company = auction.available_company(state)
    if company is not None:
        offers = [cmd.BuyCompany(), cmd.Pass()]
        for later in range(company + 1, 12):
            if state.company_owner.get(later) == "":
                _, high = auction.high_bid(state, later)
                least = max(auction.printed_bid(later), high + RAISE if high else 0)
                offers.append(cmd.BidOnCompany(company=later, amount=least))
        return offers
    offers: list = [cmd.Pass()]
    for corp in state.launched:
        held = state.units(corp, p(player))
        offers += [cmd.SellShares(corp=corp, count=n) for n in range(1, held + 1)]
        offers += [cmd.BuyShare(corp=corp, source=source) for source in ("ipo", "growth", "market")]
    available = stock.available_to_launch(state)
    offers += [cmd.LaunchCorporation(corp=corp, par=par) for corp in available for par in stock.PUBLIC_PARS]
    offers += [cmd.LaunchGrowth(corp=corp, independent=number) for corp in available
               for number in stock.owns_independent(state, player)]
    return offers


# ---- operating: routes and earnings ----------------------------------------------------------------
def _routes(state: State) -> list:
    op = state.operator
    offers: list = []
    pilots = [None] + [int(pilot[2:]) for pilot in pilots_of(state, op)]
    for sid in state.ships_of(flying_for(state, op)):
        offers += [cmd.StartRoute(ship=sid, base=base, pilot=pilot)
                   for base in operator_bases(state, op) for pilot in pilots]
    if op == "probe":
        return offers + [cmd.FinishOperating()]
    offers += [cmd.DeclareEarnings(choice=choice) for choice in EARNINGS[op[0]]]
    return offers + [cmd.RepurchaseShare()]


def _flight(state: State) -> list:
    f = state.flight
    if f.choice:
        return [cmd.ChooseTile(tile=tile) for tile in f.choice]
    best = route_proposals(state)
    first = [_first_command(state, best[0])] if best else []
    mines = len(tiles.mines(state.tiles[f.hex])) if f.hex in state.tiles else 0
    return first + [cmd.PickUp(mine=m) for m in range(mines)] \
        + [cmd.Move(hex=h, explore=e) for h in hexmap.neighbours(f.hex) for e in (False, True)] + [cmd.EndRoute()]


@dataclass(frozen=True)
class RouteProposal:
    path: tuple[str, ...]                 # hexes still to enter, ending at the delivery hex
    pickups: tuple[tuple[str, int], ...]  # (hex, mine) the helper would load, current hex included
    value: int                            # what the route would earn at its end with that load


def route_proposals(state: State, limit: int = 8) -> list[RouteProposal]:
    """Candidate paths for the ship in flight (to each reachable end, directly or through one known mine
    first), each with its best pickups and value, best first. The reach counts refuelling as `Move` does
    (7.11, 7.12): +3 up to the starting allowance at each of the corporation's stations not yet used on this
    route, so an end beyond the tank is proposed when a station on the way makes it reachable."""
    f = state.flight
    op = state.operator
    free = f.holds - len(f.cargo)
    from_here = _flights(state, op, f.hex, f.movement, frozenset(f.refuelled))
    cargo = [(ore, value) for _, _, value, ore in f.cargo]
    middles = [key for key in from_here
               if key[0] == f.hex or (free and key[0] in state.tiles and planner.mine_offers(state, op, key[0]))]
    ends = set(planner.end_hexes(state))
    proposals = set()
    for middle in middles:
        to_end = _flights(state, op, middle[0], from_here[middle][0], middle[1])
        shortest: dict[str, tuple] = {}
        for key, (_, steps, _) in to_end.items():
            if key[0] in ends and (key[0] not in shortest or steps < to_end[shortest[key[0]]][1]):
                shortest[key[0]] = key
        for end, key in shortest.items():
            path = _path(from_here, middle) + _path(to_end, key)
            pickups = tuple(planner.best_pickups(state, op, [f.hex, *path], free)) if free else ()
            load = cargo + [_ore_and_value(state, op, hex_, mine) for hex_, mine in pickups]
            is_base = end in state.bases
            value = route_value(load, f.holds, end, operator=op, is_base=is_base, is_transshipment=not is_base,
                                phase=state.phase, options=state.options, pilot=f.pilot)
            proposals.add(RouteProposal(tuple(path), pickups, value))
    kept, seen = [], set()
    for proposal in sorted(proposals, key=lambda r: (-r.value, len(r.path), r.path)):
        outcome = (proposal.path[-1] if proposal.path else f.hex, frozenset(proposal.pickups))
        if outcome not in seen:           # the same load to the same end by a longer way adds nothing
            seen.add(outcome)
            kept.append(proposal)
    return kept[:limit]


Key = tuple[str, frozenset]


def _flights(state: State, op: str, start: str, movement: int, used: frozenset) -> dict[Key, tuple]:
    """Every (hex, stations used) a ship in flight can reach without exploring, with the most movement left
    on arrival, the hexes entered and the previous key. A station refuels as in `routes.move`: only the
    operating corporation's own, once per route, and only when it adds movement."""
    stations = {h for h, owner in state.stations.items() if owner == op[2:]} if op.startswith("c:") else set()
    full = state.flight.start_movement
    best: dict[Key, tuple] = {(start, used): (movement, 0, None)}
    frontier = [(start, used)]
    while frontier:
        later = []
        for key in frontier:
            left, steps, _ = best[key]
            if left < 1:
                continue
            for near in hexmap.neighbours(key[0]):
                mp, now_used = left - 1, key[1]
                if near in stations and near not in now_used and min(REFUEL_GAIN, full - mp) > 0:
                    mp, now_used = mp + min(REFUEL_GAIN, full - mp), now_used | {near}
                nxt = (near, now_used)
                if nxt not in best or best[nxt][0] < mp:
                    best[nxt] = (mp, steps + 1, key)
                    later.append(nxt)
        frontier = later
    return best


def _path(tree: dict[Key, tuple], target: Key) -> list[str]:
    """Hexes entered from the tree's start to `target`."""
    path = []
    while tree[target][2] is not None:
        path.append(target[0])
        target = tree[target][2]
    return path[::-1]


def _ore_and_value(state: State, op: str, hex_: str, mine: int) -> tuple[str, int]:
    offer = next(o for o in planner.mine_offers(state, op, hex_) if o[1] == mine)
    return offer[2], offer[3]


def _first_command(state: State, proposal: RouteProposal):
    here = [mine for hex_, mine in proposal.pickups if hex_ == state.flight.hex]
    if here and len(state.flight.cargo) < state.flight.holds:
        return cmd.PickUp(mine=here[0])
    if proposal.path:
        return cmd.Move(hex=proposal.path[0])
    return cmd.EndRoute()


# ---- operating: purchases --------------------------------------------------------------------------
# Cheap filters keep the list of candidates short (each is then checked by `decide`, the only judge):
# a late board has a hundred explored hexes and dozens of ships.
def _purchases(state: State, player: str) -> list:
    op = state.operator
    is_corp = op.startswith("c:")
    room = ships.fleet_size(state, op) < ships.limit(state, op)
    offers: list = [cmd.BuyShip(phase=phase, kind=kind) for phase, kind, _ in ships.for_sale(state)] if room else []
    offers += [cmd.UpgradeShip(ship=sid) for sid in state.ships_of(op) if state.ships[sid].phase in (3, 4, 5)]
    if room and state.phase >= 2:
        for sid, ship in state.ships.items():
            if ship.owner.startswith(("c:", "i:")) and ship.owner != op and ship.kind != "probe":
                offers += [cmd.BuyShipFrom(ship=sid, price=price) for price in sorted({1, max(1, state.cash(op))})]
    offers += _markers(state, op, is_corp)
    if is_corp and 2 <= state.phase <= 4:
        for company in (0, 7, 8, 9):
            if state.company_owner.get(company, "").startswith("p:"):
                offers += [cmd.BuyPrivate(company=company, price=price)
                           for price in (1, auction.printed_bid(company))]
    if is_corp and state.options.stock_repurchases:
        offers.append(cmd.RepurchaseShare())
    if purchases.needs_mandatory_ship(state, op):
        for corp in state.launched:
            offers += [cmd.EmergencySell(corp=corp, count=n) for n in range(1, state.units(corp, p(player)) + 1)]
        offers.append(cmd.DeclareBankruptcy())
    if op.startswith("i:") and league.formed(state):
        offers.append(cmd.MergeIndependent(independent=int(op[2:])))
    return offers + [cmd.FinishOperating()]


def _markers(state: State, op: str, is_corp: bool) -> list:
    """Claims, bases, stations and the privates' free counters within range (7.4)."""
    reach = purchases.in_range(state, op)
    own_privates = [n for n in (7, 8, 9) if state.company_owner.get(n) == op and n not in state.private_used]
    offers: list = []
    for hex_, tile in state.tiles.items():
        if hex_ in state.flipped:
            continue
        count = len(tiles.mines(tile))
        free = [m for m in range(count) if f"{hex_}/{m}" not in state.claims]
        if hex_ in reach:
            offers += [cmd.PlaceClaim(hex=hex_, mine=m) for m in free]
            if 9 in own_privates:
                offers += [cmd.UsePrivate(company=9, hex=hex_, mine=m) for m in free]
        if len(free) == count and is_corp and (hex_ in reach and state.phase >= 2 or 7 in own_privates):
            offers += [cmd.PlaceBase(hex=hex_)] if hex_ in reach else []
            offers += [cmd.UsePrivate(company=7, hex=hex_)] if 7 in own_privates else []
    if is_corp and state.phase >= 2:
        offers += [cmd.BuyIndependentClaim(hex=key.split("/")[0], mine=int(key.split("/")[1]))
                   for key, owner in state.claims.items() if owner.startswith("i:")]
        for hex_ in state.bases:
            if hex_ in reach and hex_ not in state.stations:
                offers.append(cmd.PlaceStation(hex=hex_))
                offers += [cmd.UsePrivate(company=8, hex=hex_)] if 8 in own_privates else []
    return offers
