"""Money moving in a decision: the one place that refuses an overdraft and notices the bank breaking."""
from __future__ import annotations

from kit18xx.bank import BANK
from starbase_rules.scratch import Tx, refuse
from t2038 import events as ev


def pay(tx: Tx, source: str, destination: str, amount: int, why: str = "") -> None:
    """`source` pays `destination`; nothing for a non-positive amount. Only the bank may run dry: the
    payment that empties it first emits `BankBroke` (this round sequence is the last, 9)."""
    if amount <= 0:
        return
    state = tx.state
    if source != BANK and state.cash(source) < amount:
        refuse("INSUFFICIENT_FUNDS", f"{source} has ${state.cash(source)} and cannot pay ${amount}")
    if source == BANK and not state.bank_broken and state.cash(BANK) - amount <= 0:
        tx.emit(ev.BankBroke())
    tx.emit(ev.CashMoved(source=source, destination=destination, amount=amount, why=why))
