"""The waterfall auction of private companies (18Chesapeake style).

Items lie in a line. On a turn a player buys the first item at its price, bids on a later item (at least
`increment` over its price or the high bid; the money is set aside), or passes. After a purchase the next
item is checked: no bid stops the check; one bid sells it to that bidder; two or more start a resolution
auction among its bidders (lowest bidder first, then clockwise, the high bidder skipped, a pass drops out)
and the check goes on. When every player has passed in a row the first item's price drops by `drop`;
at 0 the player due to act takes it free.

`Waterfall` is the state; its methods mutate it (for `evolve`), the functions answer questions.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kit18xx.shares import clockwise_from


@dataclass
class Waterfall:
    line: list[str] = field(default_factory=list)                 # unsold items, in order
    price: dict[str, int] = field(default_factory=dict)            # current price (face value, dropped)
    bids: dict[str, dict[str, int]] = field(default_factory=dict)  # item -> bidder -> amount
    passes_in_row: int = 0
    resolving: str | None = None          # item under a resolution auction
    resolution_out: list[str] = field(default_factory=list)      # bidders who passed in it
    resolution_turn: str | None = None

    @classmethod
    def start(cls, items: list[tuple[str, int]]) -> "Waterfall":
        return cls(line=[i for i, _ in items], price={i: p for i, p in items}, bids={i: {} for i, _ in items})

    # -- questions ---------------------------------------------------------
    @property
    def first(self) -> str | None:
        return self.line[0] if self.line else None

    def high_bid(self, item: str) -> int:
        return max(self.bids[item].values(), default=0)

    def high_bidder(self, item: str) -> str | None:
        bids = self.bids[item]
        return max(bids, key=lambda player: bids[player]) if bids else None

    def min_bid(self, item: str, increment: int) -> int:
        return max(self.price[item], self.high_bid(item)) + increment

    def committed(self, player: str, except_item: str | None = None) -> int:
        return sum(b.get(player, 0) for item, b in self.bids.items() if item != except_item)

    def resolution_bidders(self) -> list[str]:
        assert self.resolving is not None
        return [p for p in self.bids[self.resolving] if p not in self.resolution_out]

    def next_in_resolution(self, seats: list[str], after: str) -> str:
        """Next bidder still in, clockwise after `after`, skipping the high bidder."""
        item = self.resolving
        assert item is not None, "only during a resolution auction"
        high = self.high_bidder(item)
        assert high is not None, "a resolution auction has bids"
        for player in clockwise_from(seats, after):
            if player in self.bids[item] and player not in self.resolution_out and player != high:
                return player
        return high

    def lowest_bidder(self, item: str) -> str:
        bids = self.bids[item]
        return min(bids, key=lambda player: bids[player])

    # -- changes (for evolve) ------------------------------------------------
    def remove_first(self) -> str:
        item = self.line.pop(0)
        self.passes_in_row = 0
        return item

    def sell(self, item: str) -> None:
        """The item leaves the line (bought or resolved); its bids are cleared."""
        self.line.remove(item)
        self.bids[item] = {}
        self.passes_in_row = 0
        self.resolving = None
        self.resolution_out = []
        self.resolution_turn = None

    def place_bid(self, item: str, player: str, amount: int) -> None:
        self.bids[item][player] = amount
        self.passes_in_row = 0

    def record_pass(self) -> None:
        self.passes_in_row += 1

    def drop_price(self, item: str, drop: int) -> None:
        self.price[item] = max(0, self.price[item] - drop)
        self.passes_in_row = 0

    def begin_resolution(self, item: str, first_turn: str) -> None:
        self.resolving = item
        self.resolution_out = []
        self.resolution_turn = first_turn

    def drop_out(self, player: str) -> None:
        self.resolution_out.append(player)


def after_sale(auction: Waterfall) -> tuple[str, object]:
    """What the check of the next item in line yields: ("stop", None), ("sold", (bidder, amount)) or
    ("resolve", lowest bidder who acts first), or ("done", None) when the line is empty."""
    item = auction.first
    if item is None:
        return "done", None
    bids = auction.bids[item]
    if not bids:
        return "stop", None
    if len(bids) == 1:
        (bidder, amount), = bids.items()
        return "sold", (bidder, amount)
    return "resolve", auction.lowest_bidder(item)


def next_seat(seats: list[str], player: str) -> str:
    return clockwise_from(seats, player)[0] if len(seats) > 1 else player


# -- bid tables where only *leading* bids tie up money (1829 family, 2038) ---------------------------
# Some titles never lower prices on an all-pass and let a player reuse money behind bids that were
# overbid. These questions work on any `{item: {bidder: amount}}` table (a `Waterfall.bids` included).

def leader_of(bids: dict[str, int]) -> tuple[str, int]:
    """The leading bidder and amount of one item's bids, ("", 0) when nobody bid. Equal amounts cannot
    arise (each bid must beat the last), so the first highest is the leader."""
    if not bids:
        return "", 0
    leader = max(bids, key=lambda bidder: bids[bidder])
    return leader, bids[leader]


def leading_commitment(table: dict, player: str, except_items: tuple = ()) -> int:
    """Money `player` has tied up in the bids they lead, leaving out `except_items`."""
    total = 0
    for item, bids in table.items():
        leader, amount = leader_of(bids)
        if leader == player and item not in except_items:
            total += amount
    return total


def resolution_order(seats: list[str], bidders, leader: str) -> list[str]:
    """Who acts in a resolution auction: the other bidders clockwise after the leader, the leader last."""
    return [player for player in clockwise_from(seats, leader) if player in bidders] + [leader]
