"""Round sequencing: stock round → two operating rounds → … and the end of the game (4, 6, 9)."""
from __future__ import annotations

from kit18xx.shares import clockwise_from
from starbase_rules.scratch import Tx
from t2038 import events as ev
from t2038 import market
from t2038.payments import pay
from t2038.ships import PROBE
from t2038.state import INDEPENDENTS, PRIVATES, State, c, i
from t2038.tables import entities


def end_stock_round(tx: Tx) -> None:
    from t2038.stock import all_shares_held_rise
    s = tx.state
    all_shares_held_rise(tx)
    if s.last_actor:
        first = clockwise_from(s.players, s.last_actor)[0]
    else:
        first = s.first_player
    tx.emit(ev.RoundStarted(kind="operating", set_number=s.set_number, or_number=1, first_player=first))
    start_operating_round(tx, first)


def start_operating_round(tx: Tx, first: str) -> None:
    """League choices owed at the start of an operating round come first (8), then income."""
    from t2038 import league
    s = tx.state
    decisions = []
    if league.may_offer_formation(s):
        decisions.append(["form", league.founder(s), 11, ""])
    elif league.formed(s):
        decisions += league.merge_offers(s, "later")
    if decisions:
        tx.emit(ev.DecisionsQueued(decisions=decisions, then="operating"))
        return
    begin_operating(tx)


def begin_operating(tx: Tx) -> None:
    s = tx.state
    for number in PRIVATES:
        owner = s.company_owner.get(number, "")
        if owner.startswith(("p:", "c:")):
            pay(tx, "bank", owner, entities()["privates"][number]["income"], why=f"income of {number}")
    fast_buck, income = s.company_owner.get(1, ""), entities()["independents"][1]["income"]
    if fast_buck.startswith("p:"):
        pay(tx, "bank", i(1), income, why="Fast Buck")
    elif fast_buck.startswith("pilot:"):
        pay(tx, "bank", c(fast_buck[6:]), income, why="Fast Buck pilot")
    next_operator(tx)


def operating_order(state: State) -> list[str]:
    """Who still operates this round, in order: Independents 1-6, the Probe (TSI inactive), then
    corporations by stock price, recomputed each time so forced sales can change it (6)."""
    order = [i(n) for n in INDEPENDENTS if state.company_owner.get(n, "").startswith("p:")]
    probe = state.ships.get(PROBE)
    if ("TSI" not in state.active and probe is not None and probe.owner == "c:TSI"
            and state.company_owner.get(10, "").startswith("p:")):
        order.append("probe")
    order += [c(corp) for corp in market.order(state.market, [x for x in state.active])]
    return [who for who in order if who not in state.done_operators]


def next_operator(tx: Tx) -> None:
    s = tx.state
    if s.round == "over":
        return
    remaining = operating_order(s)
    if remaining:
        who = remaining[0]
        price = market.price(s.market, who[2:]) if who.startswith("c:") else 0
        tx.emit(ev.OperatorStarted(operator=who, price=price))
        return
    if s.or_number == 1:
        tx.emit(ev.RoundStarted(kind="operating", set_number=s.set_number, or_number=2,
                                first_player=s.first_player))
        start_operating_round(tx, s.first_player)
        return
    if s.bank_broken:
        tx.emit(ev.GameFinished(reason="the bank ran out of money"))
        return
    tx.emit(ev.RoundStarted(kind="stock", set_number=s.set_number + 1, first_player=s.first_player))
    from t2038 import league
    if league.may_offer_formation(s):
        tx.emit(ev.DecisionsQueued(decisions=[["form", league.founder(s), 11, ""]]))


def finish_operator(tx: Tx) -> None:
    tx.emit(ev.OperatorFinished(operator=tx.state.operator))
    next_operator(tx)
