"""Cash held by named holders. Every move names both ends, so the total never changes.

`Ledger.move(source, destination, amount)` is the only way money moves; `total()` is the conserved
quantity a game's invariants check. A source that would go negative raises INSUFFICIENT_FUNDS, unless
the move says `may_owe=True` (a broken bank that keeps paying in titles that play on).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from starbase_rules.contract import RuleViolation

BANK = "bank"


@dataclass
class Ledger:
    cash: dict[str, int] = field(default_factory=dict)

    def balance(self, holder: str) -> int:
        return self.cash.get(holder, 0)

    def open(self, holder: str, amount: int = 0) -> None:
        """Create a holder. Opening with money takes it from nowhere: only use this for the bank."""
        self.cash.setdefault(holder, 0)
        self.cash[holder] += amount

    def can_pay(self, holder: str, amount: int) -> bool:
        return self.balance(holder) >= amount

    def move(self, source: str, destination: str, amount: int, may_owe: bool = False) -> None:
        """Move money. `may_owe` lets the source go below zero (e.g. a broken bank paying on credit in
        titles that play on after the bank breaks); the total stays conserved either way."""
        if amount < 0:
            raise ValueError(f"negative amount {amount}")
        if amount == 0 or source == destination:
            return
        if not may_owe and self.balance(source) < amount:
            raise RuleViolation("INSUFFICIENT_FUNDS",
                                f"{source} has ₡{self.balance(source)} and cannot pay ₡{amount}")
        self.cash[source] -= amount
        self.cash[destination] = self.balance(destination) + amount

    def empty_into(self, source: str, destination: str) -> int:
        """Move everything `source` holds to `destination`; returns the amount moved."""
        amount = self.balance(source)
        self.move(source, destination, amount)
        return amount

    def total(self) -> int:
        return sum(self.cash.values())

    def negative_holders(self) -> list[str]:
        return [holder for holder, amount in self.cash.items() if amount < 0]
