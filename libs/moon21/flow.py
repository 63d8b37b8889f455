"""The round sequence and everything that happens without a player's decision: round starts and ends,
OR events and private revenue, skipping steps with nothing to do, receivership turns, the game end."""
from __future__ import annotations

from kit18xx.turns import next_to_operate
from starbase_rules.contract import Outcome
from moon21 import events as E
from moon21.corporate import end_of_corporate_round
from moon21.earnings import run_and_pay
from starbase_rules.scratch import Tx
from moon21.forced import buy_step_has_choice, corporate_turn_has_choice, stock_turn_has_choice
from moon21.operating import bank_price, has_depot_option, must_buy, open_bases, phase_change
from moon21.privates import pay_private_revenue
from moon21.rules import rules
from moon21.state import C, State


def advance(tx: Tx[State]) -> None:
    """Emit automatic events until a player owes a decision or the game is over."""
    for _ in range(10_000):
        s = tx.state
        if s.ended or s.ols_pending:
            return
        if len(s.active_players()) <= 1 and s.kind != "SETUP":
            return end_game(tx, "all players but one are bankrupt")
        if not _step(tx):
            return
    raise RuntimeError("advance did not settle")


def _step(tx: Tx[State]) -> bool:
    s = tx.state
    if s.kind == "SR":
        if s.sr.all_passed():
            tx.emit(E.PriorityDealt(player=s.sr.priority_after_round()))
            order = s.market.price_order(s.grid, s.live_corps())
            tx.emit(E.RoundStarted(kind="CR", set_no=s.set_no, order=order))
            return True
        if not stock_turn_has_choice(s, s.sr.current):          # a forced pass (18xx.games skips it too)
            tx.emit(E.StockTurnEnded(player=s.sr.current, passed=not s.sr_turn_sold and not s.sr_turn_took_share))
            return True
        return False
    if s.kind == "CR":
        return _corporate(tx)
    if s.kind == "OR":
        return _operating(tx)
    return False


def _corporate(tx: Tx[State]) -> bool:
    s = tx.state
    if s.cr.current is not None:
        if corporate_turn_has_choice(s, s.cr.current):
            return False
        tx.emit(E.CorporateTurnEnded(corp=s.cr.current))             # nothing to issue, sell or buy
        return True
    pending = [c for c in s.cr.order if c not in s.cr.done and not s.corps[c].closed]
    if not pending:
        end_of_corporate_round(tx)
        start_operating_round(tx, tx.state.set_no, 1)
        return True
    corp = pending[0]
    tx.emit(E.CorporateTurnStarted(corp=corp))
    if s.corps[corp].receivership or tx.state.president(corp) is None:
        tx.emit(E.CorporateTurnEnded(corp=corp))
    return True


def start_operating_round(tx: Tx[State], set_no: int, or_no: int) -> None:
    tx.emit(E.RoundStarted(kind="OR", set_no=set_no, or_no=or_no))
    s = tx.state
    if or_no == 1:
        value = rules()["space_port_value"].get(set_no)
        if value and value != s.space_port_value:
            tx.emit(E.SpacePortValueChanged(value=value))
        if set_no == rules()["privates_close_at_set"]:
            for private, owner in sorted(s.private_owner.items()):
                if owner != "closed":
                    tx.emit(E.PrivateClosed(private=private, reason="OR 4.1"))
    pay_private_revenue(tx)


def _operating(tx: Tx[State]) -> bool:
    s = tx.state
    if s.op is None:
        floated = [c for c in s.live_corps() if s.corps[c].floated]
        corp = next_to_operate(s.market, s.grid, floated, set(s.operated))
        if corp is None:
            _end_operating_round(tx)
            return True
        tx.emit(E.OperatingTurnStarted(corp=corp))
        if s.corps[corp].receivership:
            _receivership_turn(tx, corp)
        return True
    return _skip_empty_step(tx)


def _end_operating_round(tx: Tx[State]) -> None:
    s = tx.state
    per_set = rules()["ors_per_set"]
    if s.or_no < per_set[s.set_no - 1]:
        start_operating_round(tx, s.set_no, s.or_no + 1)
    elif s.set_no >= len(per_set):
        end_game(tx, f"operating round {s.set_no}.{s.or_no} finished")
    else:
        tx.emit(E.RoundStarted(kind="SR", set_no=s.set_no + 1))


def _skip_empty_step(tx: Tx[State]) -> bool:
    s = tx.state
    op = s.op
    corp = op.corp
    if op.pending_un or op.deal:
        return False
    if op.step == "tiles":
        if len(op.tile_bases) == 2 and not (s.owns_private(corp, "P5") and not op.terminal_laid):
            tx.emit(E.StepFinished(corp=corp, step="tiles", next_step="token"))
            return True
        return False
    if op.step == "token":
        if op.token_placed or not has_depot_option(s, corp):
            tx.emit(E.StepFinished(corp=corp, step="token", next_step="run"))
            return True
        return False
    if op.step == "run":
        if s.corps[corp].transport_count() == 0:
            run_and_pay(tx, corp, {"LB": [], "SP": []})
            return True
        return False
    if op.step == "buy":
        if must_buy(s, corp) and open_bases(s, corp):
            if s.cash(C(corp)) < bank_price(s) and not op.raising:
                tx.emit(E.EmergencyBegan(corp=corp, need=bank_price(s)))
                return True
            return False
        if not buy_step_has_choice(s, corp):
            tx.emit(E.OperatingTurnEnded(corp=corp))
            return True
    return False


def _receivership_turn(tx: Tx[State], corp: str) -> None:
    """Rule 11.8.2: no tiles, tokens or moves; best run withheld; price left; buy from the bank or close."""
    tx.emit(E.StepFinished(corp=corp, step="tiles", next_step="run"))
    run_and_pay(tx, corp, None)
    s = tx.state
    if s.corps[corp].closed:
        return
    if s.corps[corp].transport_count() == 0:
        price = bank_price(s)
        if s.cash(C(corp)) >= price:
            transport = s.top_transport()
            tx.emit(E.TransportBought(corp=corp, base="SP", transport=transport, price=price))
            phase_change(tx, transport)
        else:
            tx.emit(E.CorporationClosed(corp=corp, reason="bankrupt in receivership: no transport"))
            return
    tx.emit(E.OperatingTurnEnded(corp=corp))


def standings(s: State) -> list[dict]:
    bonus = rules()["end_game_bonus_token_value"]
    wealth = {}
    for player in s.players:
        total = s.cash(f"p:{player}")
        for corp in s.live_corps():
            value = s.price(corp) + bonus * len(s.corps[corp].bonus_tokens)
            total += s.shares.held_percent(corp, f"p:{player}") // 10 * value
        wealth[player] = 0 if player in s.bankrupt else total
    # A bankrupt player ranks below every solvent one, whatever the wealth.
    key = {p: (p not in s.bankrupt, wealth[p]) for p in s.players}
    return [row.model_dump() for row in Outcome.ranked(wealth, key).standings]


def end_game(tx: Tx[State], reason: str) -> None:
    tx.emit(E.GameFinished(reason=reason, standings=standings(tx.state)))
