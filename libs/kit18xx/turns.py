"""Turn order: stock rounds with a priority deal, and operating order by share price.

`StockTurns` tracks whose turn it is clockwise, how many passed in a row (the round ends when every
player has passed consecutively) and the last player to buy or sell (the priority deal goes to their
left at the end of the round; if nobody acted it stays). `next_to_operate` answers the dynamic
operating order: the highest corporation in descending price order that has not operated yet.
"""
from __future__ import annotations

from dataclasses import dataclass

from kit18xx.market import MarketGrid, MarketState
from kit18xx.shares import clockwise_from


@dataclass
class StockTurns:
    seats: list[str]
    current: str
    passes_in_row: int = 0
    last_actor: str | None = None
    priority: str | None = None       # who held the priority deal when the round began

    @classmethod
    def begin(cls, seats: list[str], priority: str) -> "StockTurns":
        return cls(seats=list(seats), current=priority, priority=priority)

    def acted(self, player: str) -> None:
        """A sale or a buy: the player is guaranteed another turn."""
        self.passes_in_row = 0
        self.last_actor = player

    def passed(self) -> None:
        self.passes_in_row += 1

    def advance(self) -> None:
        self.current = self.next_after(self.current)

    def next_after(self, player: str) -> str:
        others = [p for p in clockwise_from(self.seats, player)] if player in self.seats else self.seats
        return others[0] if others else player

    def all_passed(self) -> bool:
        return self.passes_in_row >= len(self.seats)

    def priority_after_round(self) -> str:
        if self.last_actor is None:
            return self.priority if self.priority in self.seats else self.seats[0]
        return self.next_after(self.last_actor)

    def drop_seat(self, player: str) -> None:
        """A bankrupt player leaves the rotation."""
        if player not in self.seats:
            return
        if self.current == player:
            self.current = self.next_after(player)
        self.seats.remove(player)


def next_to_operate(market: MarketState, grid: MarketGrid, eligible, operated) -> str | None:
    for corp in market.price_order(grid, eligible):
        if corp not in operated:
            return corp
    return None
