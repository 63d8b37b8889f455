"""The stock market: a grid of price boxes, token stacks, movement and descending price order.

`MarketGrid` is data: the rows of prices (None where no box), the par boxes, the closed box(es) and
what a blocked left/right move does instead (`edge_rules`, e.g. {"left": "down", "right": "up"}).
A blocked up/down move does not move. A token that enters a box goes to the *bottom* of its stack.
`MarketState` holds each corporation's box and the stacks (top first); `price_order` sorts
corporations highest price first, then the box further right, then higher in the stack.
"""
from __future__ import annotations

from dataclasses import dataclass, field

STEP = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


@dataclass(frozen=True)
class MarketGrid:
    rows: tuple[tuple[int | None, ...], ...]
    edge_rules: tuple[tuple[str, str], ...] = (("left", "down"), ("right", "up"))
    closed_boxes: frozenset[tuple[int, int]] = frozenset()
    par_boxes: tuple[tuple[int, int], ...] = ()

    @classmethod
    def from_data(cls, data: dict) -> "MarketGrid":
        rows = tuple(tuple(cell for cell in row) for row in data["grid"])
        edges = tuple(sorted((data.get("edge_rules") or {"left": "down", "right": "up"}).items()))
        closed = frozenset((b["row"], b["col"]) for b in data.get("closed_boxes", []))
        pars = tuple((b["row"], b["col"]) for b in data.get("par_boxes", []))
        return cls(rows, edges, closed, pars)

    def exists(self, row: int, col: int) -> bool:
        return 0 <= row < len(self.rows) and 0 <= col < len(self.rows[row]) and self.rows[row][col] is not None

    def price(self, row: int, col: int) -> int:
        value = self.rows[row][col]
        if value is None:
            raise ValueError(f"no market box at {row},{col}")
        return value

    def is_closed(self, row: int, col: int) -> bool:
        return (row, col) in self.closed_boxes

    def par_box(self, price: int) -> tuple[int, int] | None:
        return next(((r, c) for r, c in self.par_boxes if self.rows[r][c] == price), None)

    def step(self, row: int, col: int, direction: str) -> tuple[int, int]:
        """One step; at an edge follow the edge rule for left/right, stay for up/down."""
        dr, dc = STEP[direction]
        if self.exists(row + dr, col + dc):
            return row + dr, col + dc
        instead = dict(self.edge_rules).get(direction)
        if instead and direction in ("left", "right"):
            dr, dc = STEP[instead]
            if self.exists(row + dr, col + dc):
                return row + dr, col + dc
        return row, col


def _key(row: int, col: int) -> str:
    return f"{row},{col}"


@dataclass
class MarketState:
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    stacks: dict[str, list[str]] = field(default_factory=dict)   # "row,col" -> tokens, top first

    def place(self, corp: str, row: int, col: int) -> None:
        """Put a token into a box, under any tokens already there."""
        self.remove(corp)
        self.positions[corp] = (row, col)
        self.stacks.setdefault(_key(row, col), []).append(corp)

    def remove(self, corp: str) -> None:
        if corp in self.positions:
            row, col = self.positions.pop(corp)
            stack = self.stacks[_key(row, col)]
            stack.remove(corp)
            if not stack:
                del self.stacks[_key(row, col)]

    def move(self, grid: MarketGrid, corp: str, direction: str, steps: int = 1) -> tuple[int, int]:
        """Move a token; it lands at the bottom of its new box's stack. An unmoved token keeps its place.
        Stops early in a closed box (the corporation is finished)."""
        row, col = start = self.positions[corp]
        for _ in range(steps):
            row, col = grid.step(row, col, direction)
            if grid.is_closed(row, col):
                break
        if (row, col) != start:
            self.place(corp, row, col)
        return row, col

    def price(self, grid: MarketGrid, corp: str) -> int:
        return grid.price(*self.positions[corp])

    def stack_depth(self, corp: str) -> int:
        return self.stacks[_key(*self.positions[corp])].index(corp)

    def price_order(self, grid: MarketGrid, corps, right_first: bool = True) -> list[str]:
        """Descending share price order: price, then (with `right_first`) the box further right, then
        higher in the stack."""
        placed = [c for c in corps if c in self.positions]
        return sorted(placed, key=lambda c: (-self.price(grid, c), -self.positions[c][1] if right_first else 0,
                                             self.stack_depth(c)))
