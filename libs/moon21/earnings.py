"""Running transports (11.4) and distributing earnings (11.5): the runs must earn the most possible;
local-base earnings go to the treasury, Space Port earnings are paid as dividends and move the price.
East-West runs take the areas' bonus tokens (11.4.2)."""
from __future__ import annotations

from moon21 import board as bd
from moon21 import events as E
from starbase_rules.scratch import Tx, refuse
from moon21.state import C, OR_STEPS, State
from moon21.trading import move_price


def best_turn(s: State, corp: str) -> dict:
    c = s.corps[corp]
    return bd.best_turn_runs(s.board, corp, {b: list(c.transports[b]) for b in ("LB", "SP")},
                             sp_value=s.space_port_value, phase=s.phase, second_run=s.option("second_run_token"))


def validate(s: State, corp: str, runs: dict[str, list[dict]]) -> dict:
    """Check both bases' runs together and price them (11.4: no piece of road used by two of the
    corporation's runs this turn, whichever base runs them; the board traces both bases jointly)."""
    c = s.corps[corp]
    unknown = set(runs) - {"LB", "SP"}
    if unknown:
        refuse("UNKNOWN_BASE", f"runs are given per base LB and SP, not {sorted(unknown)}")
    return bd.validate_turn_runs(s.board, corp, {b: list(runs.get(b, [])) for b in ("LB", "SP")},
                                 {b: list(c.transports[b]) for b in ("LB", "SP")},
                                 sp_value=s.space_port_value, phase=s.phase,
                                 second_run=s.option("second_run_token"))


def submit_runs(tx: Tx[State], corp: str, runs: dict[str, list[dict]]) -> None:
    s = tx.state
    if not OR_STEPS.allows(s.op.step, "RunTransports"):
        refuse("WRONG_STEP", "transports have already run this turn")
    result = validate(s, corp, runs)
    if s.option("maximum_revenue") == "enforced" and result["revenue"] < best_turn(s, corp)["revenue"]:
        best = best_turn(s, corp)
        refuse("NOT_MAXIMUM_REVENUE",
               f"these runs earn ₡{result['revenue']}; the transports can earn ₡{best['revenue']}")
    pay(tx, corp, result)


def run_and_pay(tx: Tx[State], corp: str, runs: dict | None) -> None:
    """Automatic runs: no transports, or a corporation in receivership (the bank runs the best)."""
    s = tx.state
    pay(tx, corp, best_turn(s, corp) if runs is None else validate(s, corp, runs))


def pay(tx: Tx[State], corp: str, result: dict) -> None:
    s = tx.state
    if s.op.step != "run":
        tx.emit(E.StepFinished(corp=corp, step=s.op.step, next_step="run"))
    receivership = s.corps[corp].receivership
    for base in ("LB", "SP"):
        part = result[base]
        if s.corps[corp].transports[base]:
            tx.emit(E.TransportsRun(corp=corp, base=base, runs=part["runs"], revenue=part["revenue"]))
    lb, sp = result["LB"]["revenue"], result["SP"]["revenue"]
    if lb:
        tx.emit(E.EarningsPaid(corp=corp, base="LB", revenue=lb, payouts={C(corp): lb}))
    if sp:
        payouts = {C(corp): sp} if receivership else dividends(s, corp, sp)
        tx.emit(E.EarningsPaid(corp=corp, base="SP", revenue=sp, payouts=payouts))
    _take_bonus_tokens(tx, corp, result)
    price = s.price(corp)
    if receivership or sp == 0:
        move_price(tx, corp, "left", reason="no dividend")
    elif sp >= 2 * price:
        move_price(tx, corp, "right", 2, reason="dividend at least twice the price")
    elif 2 * sp >= price:
        move_price(tx, corp, "right", reason="dividend at least half the price")
    if not tx.state.corps[corp].closed:
        tx.emit(E.StepFinished(corp=corp, step="run", next_step="buy"))


def dividends(s: State, corp: str, revenue: int) -> dict[str, int]:
    """10 % of the earnings per share to each player or corporation holding it; IPO and pool get nothing."""
    out = {}
    for holder, percent in sorted(s.shares.holdings(corp).items()):
        if holder.startswith(("p:", "c:")) and percent:
            out[holder] = revenue * percent // 100
    return {h: a for h, a in out.items() if a}


def _take_bonus_tokens(tx: Tx[State], corp: str, result: dict) -> None:
    s = tx.state
    areas: list[str] = []
    for base in ("LB", "SP"):
        for run in result[base]["runs"]:
            if run.get("east_west"):
                for area in run.get("areas", []):
                    if area not in s.corps[corp].bonus_tokens and area not in areas and s.bonus_left.get(area, 0) > 0:
                        areas.append(area)
    if areas:
        tx.emit(E.BonusTokensTaken(corp=corp, areas=areas))
