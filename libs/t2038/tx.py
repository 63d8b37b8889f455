"""A decision in progress: a private copy of the state plus the events emitted so far.

`decide` logic emits events one at a time and reads their consequences from `tx.state`, so later rules
(phase changes, presidency, the next operator) see what earlier events did. The caller's state is never
touched: a refused command leaves nothing behind.
"""
from __future__ import annotations

from kit18xx.bank import BANK
from starbase_rules.contract import RuleViolation
from t2038 import events as ev
from t2038.evolve import evolve
from t2038.state import State


class Tx:
    def __init__(self, state: State, rng=None):
        self.state = state.copy()
        self.events: list = []
        self.rng = rng

    def emit(self, event) -> None:
        self.events.append(event)
        evolve(self.state, event)

    def pay(self, source: str, destination: str, amount: int, why: str = "") -> None:
        if amount <= 0:
            return
        if source != BANK and self.state.cash(source) < amount:
            raise RuleViolation("INSUFFICIENT_FUNDS",
                                f"{source} has ${self.state.cash(source)} and cannot pay ${amount}")
        if source == BANK and not self.state.bank_broken and self.state.cash(BANK) - amount <= 0:
            self.emit(ev.BankBroke())          # the bank runs out: this round sequence is the last (9)
        self.emit(ev.CashMoved(source=source, destination=destination, amount=amount, why=why))


def refuse(code: str, message: str):
    raise RuleViolation(code, message)
