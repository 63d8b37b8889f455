"""2038: Tycoons of the Asteroid Belt as a decider (`starbase_rules.contract.Game`)."""
from __future__ import annotations

import random

from starbase_rules.contract import Outcome, RuleViolation, parse_command
from t2038 import auction, earnings, flow, growth, league, privates, purchases, routes, stock
from t2038 import commands as cmd
from t2038 import events as ev
from t2038.evolve import evolve as _evolve
from t2038.invariants import broken_invariants
from t2038.state import State
from t2038.tables import entities
from t2038.tx import Tx, refuse

OPTION_KEYS = {"short", "variant", "weaker_tsi", "cutthroat", "transshipment_high_from_phase", "vp_rare_bonus",
               "two_player", "stock_repurchases", "base_bonuses", "transshipment_values", "ship_limits",
               "certificate_limit", "money_total"}


def _options(raw: dict) -> dict:
    unknown = set(raw) - OPTION_KEYS
    if unknown:
        raise RuleViolation("BAD_OPTION", f"unknown table options {sorted(unknown)}")
    options = {k: v for k, v in raw.items() if k != "variant"}
    if raw.get("variant") in ("short", "full"):
        options["short"] = raw["variant"] == "short"
    if options.get("weaker_tsi") not in (None, 89, 78, 67):
        raise RuleViolation("BAD_OPTION", "weaker_tsi is 89, 78 or 67")
    if options.get("weaker_tsi") and options.get("short"):
        raise RuleViolation("BAD_OPTION", "Weaker TSI is a Full game rule")
    return options


class T2038:
    name = "t2038"
    min_players = 2          # 2 only with the optional two_player rule
    max_players = 6

    def initial_state(self) -> State:
        return State()

    def setup(self, players: list[str], options: dict, rng) -> list[ev.Event]:
        if not self.min_players <= len(players) <= self.max_players:
            raise RuleViolation("BAD_PLAYER_COUNT", f"2038 takes {self.min_players}-{self.max_players} players")
        chosen = _options(options)
        if len(players) == 2 and not chosen.get("two_player"):
            raise RuleViolation("BAD_PLAYER_COUNT", "2038 takes 3-6 players; 2 only with the two_player option")
        seating = rng.shuffle(list(players))       # bid counters drawn for seats and First Player (3)
        money = entities()["money"]
        total = chosen.get("money_total") or (money["short"] if chosen.get("short") else money["full"])
        return [ev.GameStarted(players=seating, options=chosen, cash_each=money["players_share"] // len(players),
                               money_total=total)]

    def parse_command(self, data: dict) -> cmd.Command:
        return parse_command(cmd.COMMANDS, data)

    def parse_event(self, data: dict) -> ev.Event:
        return ev.EVENTS.validate_python(data)

    def evolve(self, state: State, event) -> State:
        return _evolve(state, event)

    # ------------------------------------------------------------------------------------ decide
    def decide(self, state: State, command, actor: str | None, rng) -> list[ev.Event]:
        if state.round == "over":
            refuse("GAME_OVER", "the game has ended")
        if actor not in self.to_act(state):
            refuse("NOT_YOUR_TURN", f"{actor} may not act now; waiting for {self.to_act(state)}")
        tx = Tx(state, rng)
        if isinstance(command, cmd.DiscardShip) and not state.must_discard:
            refuse("NO_DISCARD_DUE", "no company is over its ship limit; ships are never turned in "
                                     "voluntarily (7.33, 7.35)")
        if state.pending and not state.must_discard:
            league.decide_pending(tx, actor, command)
        elif state.must_discard:
            if not isinstance(command, cmd.DiscardShip):
                refuse("DISCARD_FIRST", f"ships over the limit must be discarded first: {state.must_discard}")
            holder = next(h for h in state.must_discard if state.controller(h) == actor)
            purchases.discard(tx, holder, command.ship)
        elif state.round == "stock":
            self._stock(tx, command, actor)
        else:
            self._operating(tx, command, actor)
        after = tx.state
        if after.round == "operating" and not after.operator and not after.pending and not after.must_discard:
            flow.next_operator(tx)          # the operator merged away or finished during a discard/decision
        return tx.events

    def _stock(self, tx: Tx, command, actor: str) -> None:
        s = tx.state
        selling_allowed = s.set_number > 1
        if s.auction_company >= 0:
            if isinstance(command, cmd.RaiseBid):
                return auction.raise_bid(tx, actor, command.amount)
            if isinstance(command, cmd.DropOut):
                return auction.drop_out(tx, actor)
            refuse("AUCTION_RUNNING", f"bid or drop out of the auction for company {s.auction_company}")
        auction_open = auction.available_company(s) is not None
        match command:
            case cmd.BuyCompany():            # refused with NOTHING_FOR_SALE once every company is sold
                auction.buy(tx, actor, command.price)
            case cmd.BidOnCompany() if auction_open:
                auction.bid(tx, actor, command.company, command.amount)
            case cmd.SellShares():
                if not selling_allowed:
                    refuse("NO_SALES_YET", "no sales in the first stock round")
                stock.sell(tx, actor, command.corp, command.count)
            case cmd.BuyShare() if not auction_open:
                self._require_compliance(s, actor, selling_allowed)
                stock.buy(tx, actor, command.corp, command.source)
                self._end_turn(tx, actor, passed=False)
            case cmd.LaunchCorporation() if not auction_open:
                self._require_compliance(s, actor, selling_allowed)
                stock.launch(tx, actor, command.corp, command.par)
                self._end_turn(tx, actor, passed=False)
            case cmd.LaunchGrowth() if not auction_open:
                self._require_compliance(s, actor, selling_allowed)
                growth.launch_growth(tx, actor, command.corp, command.independent)
                self._end_turn(tx, actor, passed=False)
            case cmd.Pass():
                self._require_compliance(s, actor, selling_allowed)
                self._end_turn(tx, actor, passed=not s.sold_this_turn)
            case _:
                refuse("NOT_NOW", f"{command.type} is not possible in this part of the stock round")

    @staticmethod
    def _require_compliance(s: State, actor: str, selling_allowed: bool) -> None:
        """5.31 / 5.35: a player over 60 % of a corporation or over the certificate limit complies on the
        next stock turn: every way of ending the turn (a purchase, a launch or a pass) waits for the sales."""
        if selling_allowed and stock.must_still_sell(s, actor):
            refuse("MUST_COMPLY", f"{actor} is over a holding or certificate limit and must sell first "
                                  f"({stock.must_still_sell(s, actor)})")

    def _end_turn(self, tx: Tx, actor: str, passed: bool) -> None:
        s = tx.state
        nxt = auction.left_of(s, actor)
        tx.emit(ev.StockTurnEnded(player=actor, passed=passed, next_player=nxt))
        if s.passes >= len(s.players):
            if auction.available_company(s) is not None and any(s.bids.values()):
                tx.emit(ev.AuctionFlowSet(resolving_all_pass=True))
                auction.resolve_pending(tx)
            else:
                flow.end_stock_round(tx)

    def _operating(self, tx: Tx, command, actor: str) -> None:
        s = tx.state
        op = s.operator
        if s.step == "routes":
            match command:
                case cmd.StartRoute():
                    return routes.start_route(tx, op, command.ship, command.base, command.pilot)
                case cmd.Move():
                    return routes.move(tx, op, command.hex, command.explore)
                case cmd.ChooseTile():
                    return routes.choose_tile(tx, command.tile)
                case cmd.PickUp():
                    return routes.pick_up(tx, op, command.mine)
                case cmd.EndRoute():
                    return routes.end_route(tx, op)
                case cmd.RepurchaseShare():
                    return stock.repurchase(tx, op)
                case cmd.DeclareEarnings() if op != "probe":
                    return earnings.declare(tx, op, command.choice)
                case cmd.FinishOperating() if op == "probe":
                    if s.flight is not None:
                        refuse("ROUTE_IN_PROGRESS", "end the Probe's route first")
                    return flow.finish_operator(tx)
            refuse("NOT_NOW", f"{command.type}: fly routes, then declare earnings")
        match command:
            case cmd.BuyShip():
                purchases.buy_ship(tx, op, command.phase, command.kind)
            case cmd.BuyShipFrom():
                purchases.buy_ship_from(tx, op, command.ship, command.price)
            case cmd.UpgradeShip():
                purchases.upgrade_ship(tx, op, command.ship)
            case cmd.PlaceClaim():
                purchases.place_claim(tx, op, command.hex, command.mine)
            case cmd.BuyIndependentClaim():
                purchases.buy_independent_claim(tx, op, command.hex, command.mine)
            case cmd.PlaceBase():
                purchases.place_base(tx, op, command.hex)
            case cmd.PlaceStation():
                purchases.place_station(tx, op, command.hex)
            case cmd.RepurchaseShare():
                stock.repurchase(tx, op)
            case cmd.BuyPrivate():
                privates.buy_private(tx, op, command.company, command.price)
            case cmd.UsePrivate():
                privates.use_private(tx, op, command.company, command.hex, command.mine)
            case cmd.EmergencySell():
                earnings.emergency_sell(tx, op, actor, command.corp, command.count)
            case cmd.DeclareBankruptcy():
                earnings.bankrupt(tx, op, actor)
            case cmd.FinishOperating():
                if purchases.mandatory_ship_owed(s, op):
                    source = "from the bank" if purchases.cheapest_offer(s) else \
                        f"from another company (BuyShipFrom; e.g. {purchases.ships_it_could_still_buy(s, op)[:3]})"
                    refuse("MUST_BUY_SHIP", f"{op} owns no spaceship and must buy one {source} (7.3)")
                if op.startswith("i:") and league.formed(s) and not s.ships_of(op):
                    refuse("MUST_BUY_OR_MERGE", f"{op} owns no ship: buy one or merge into the League (7.39)")
                flow.finish_operator(tx)
            case cmd.MergeIndependent() if op == f"i:{command.independent}":
                if not league.formed(s) or s.ships_of(op):
                    refuse("NOT_NOW", "an Independent merges while operating only when it has no ship (7.39)")
                league.merge(tx, command.independent, golden=False)
                flow.next_operator(tx)
            case _:
                refuse("NOT_NOW", f"{command.type} is not a purchase")

    # ------------------------------------------------------------------------------------ queries
    def to_act(self, state: State) -> list[str]:
        if state.round in ("over", "setup"):
            return []
        if state.must_discard:
            return sorted({state.controller(h) for h in state.must_discard})
        if state.decisions:
            return [state.decisions.decider()]
        if state.round == "stock":
            if state.auction_company >= 0:
                return [state.auction_bidders[0]]
            return [state.turn]
        if state.operator:
            return [state.controller(state.operator)]
        return []

    def legal_actions(self, state: State, player: str) -> list[dict]:
        from t2038.legal import legal_actions
        return legal_actions(state, player)

    def outcome(self, state: State) -> Outcome | None:
        if state.round != "over":
            return None
        scores = {player: stock.worth(state, player) for player in state.players}
        if state.bankrupt:
            scores[state.bankrupt] = min(scores.values()) - 1
        return Outcome.ranked(scores, reason=state.ended)

    def view(self, state: State, viewer: str | None) -> dict:
        """Everything in 2038 is open (10. Etiquette); the face-down pool is shown only as a count."""
        from dataclasses import asdict
        data = asdict(state)
        data["pool"] = len(state.pool)
        data["pending"] = [list(d) for d in state.pending]        # the decisions owed (kit DecisionQueue)
        if state.flight is not None and not state.flight.choice:     # the route helper's advice (legal.py)
            from t2038.legal import route_proposals
            data["route_proposals"] = [asdict(proposal) for proposal in route_proposals(state)]
        return data

    def redact(self, event, viewer: str | None) -> dict | None:
        return event.model_dump()

    def invariants(self, state: State) -> list[str]:
        return broken_invariants(state)

    def bot_command(self, state: State, player: str, rnd: random.Random):
        from t2038.bots import bot_command
        return bot_command(state, player, rnd)

    def default_command(self, state: State, player: str):
        from t2038.bots import default_command
        return default_command(state, player)


GAME = T2038()
