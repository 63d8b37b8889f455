"""The 21Moon game state: plain dataclasses rebuilt from events (`==` compares whole games).

Holder ids used with the kit: "bank", "pool", "ipo", "removed", "p:<player>", "c:<corp>".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kit18xx.auction import Waterfall
from kit18xx.bank import Ledger
from kit18xx.market import MarketState
from kit18xx.rounds import Round, Step
from kit18xx.shares import ShareRegistry
from kit18xx.turns import StockTurns
from moon21.options import DEFAULTS

BASES = ("LB", "SP")


def P(player: str) -> str:
    return f"p:{player}"


def C(corp: str) -> str:
    return f"c:{corp}"


def name_of(holder: str) -> str:
    return holder.split(":", 1)[1]


@dataclass
class Corp:
    id: str
    started: bool = False
    floated: bool = False
    operated: bool = False                 # has had an operating turn (sales then drop the price)
    receivership: bool = False
    closed: bool = False
    depots_left: list[int] = field(default_factory=list)   # costs of unplaced depot tokens, cheapest first
    transports: dict[str, list[int]] = field(default_factory=lambda: {"LB": [], "SP": []})
    bonus_tokens: list[str] = field(default_factory=list)  # off-board areas collected

    def transport_count(self) -> int:
        return len(self.transports["LB"]) + len(self.transports["SP"])


@dataclass
class CorporateRound:
    order: list[str]
    current: str | None = None
    done: list[str] = field(default_factory=list)
    issued: bool = False                   # current corporation issued this turn (price drop once, no own buy)
    sold_corps: list[str] = field(default_factory=list)   # corps it sold this turn (no buy back)
    bought: bool = False


# The steps of an operating turn (rule 11), in order; passing the last ends the turn. Tiles (and the
# Terminal) are laid in the tile step, a depot before running, runs at the latest in the run step (the
# tile and token steps do not block: running early skips them), transports bought after running;
# anything else at any step.
OR_STEPS = Round("operating", (Step("tiles", accepts=("LayTile", "LayTerminal"), blocks=False),
                               Step("token", accepts=("PlaceDepot",), blocks=False),
                               Step("run", accepts=("RunTransports",)), Step("buy", accepts=("BuyTransport",))))


@dataclass
class OperatingTurn:
    corp: str
    step: str = OR_STEPS.first             # tiles -> token -> run -> buy
    tile_bases: list[str] = field(default_factory=list)
    terminal_laid: bool = False
    token_placed: bool = False
    moved_transport: bool = False
    bought_for: list[str] = field(default_factory=list)   # bases that got a transport this turn
    raising: int = 0                       # emergency money raising: the price of the cheapest bank transport
    pending_un: bool = False               # the UN Contract choice is owed by this corporation's president
    raised: bool = False                   # shares were sold in the emergency (that money buys from the bank only)
    deal: dict | None = None               # a purchase waiting for the other party's consent


@dataclass
class State:
    players: list[str] = field(default_factory=list)       # seat order, clockwise
    bankrupt: list[str] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger)
    shares: ShareRegistry = field(default_factory=ShareRegistry)
    market: MarketState = field(default_factory=MarketState)
    corps: dict[str, Corp] = field(default_factory=dict)
    private_owner: dict[str, str] = field(default_factory=dict)   # private -> holder, "closed" or "auction"
    held_back: str = ""
    minerals: dict[str, str] = field(default_factory=dict)
    phase: str = "2"
    stack: list[int] = field(default_factory=list)          # transports for sale, top first (10s unlimited)
    scrapped: dict[int, int] = field(default_factory=dict)  # type -> copies removed from the game
    supplied: dict[int, int] = field(default_factory=dict)  # type -> copies in the game (UN Contract adjusts)
    bonus_left: dict[str, int] = field(default_factory=dict)
    space_port_value: int = 20
    research_marker: str | None = None
    ols_corp: str | None = None            # the corporation whose depot the OLS token became
    tunnel_used: bool = False
    priority: str = ""
    kind: str = "SETUP"                    # SETUP, ISR, SR, CR, OR, END
    set_no: int = 0
    or_no: int = 0                         # OR number within the set
    auction: Waterfall | None = None
    auction_turn: str | None = None
    ols_pending: str | None = None         # player who bought P1 and must lay the OLS tile
    sr: StockTurns | None = None
    sr_sold: dict[str, list[str]] = field(default_factory=dict)   # player -> corps sold this round
    sr_turn_sold: list[str] = field(default_factory=list)         # corps sold this turn (one drop each)
    swapped: list[str] = field(default_factory=list)              # certificates swapped this round
    sr_turn_took_share: bool = False       # took P6's free share this stock turn (an action, rule 9)
    cr: CorporateRound | None = None
    operated: list[str] = field(default_factory=list)             # corporations done in this OR
    op: OperatingTurn | None = None
    board: Any = None
    ended: str | None = None
    final: list[dict] | None = None
    options: dict = field(default_factory=dict)                   # resolved table options (`moon21.options`)

    # -- helpers -------------------------------------------------------------
    def active_players(self) -> list[str]:
        return [p for p in self.players if p not in self.bankrupt]

    def cash(self, holder: str) -> int:
        return self.ledger.balance(holder)

    def price(self, corp: str) -> int:
        return self.market.price(self.grid, corp)

    @property
    def grid(self):
        from moon21.rules import rules
        return rules().grid

    def president(self, corp: str) -> str | None:
        holder = self.shares.president_of(corp)
        return name_of(holder) if holder.startswith("p:") else None

    def live_corps(self) -> list[str]:
        return [c for c, corp in self.corps.items() if corp.started and not corp.closed]

    def privates_of(self, holder: str) -> list[str]:
        return sorted(p for p, h in self.private_owner.items() if h == holder)

    def owns_private(self, corp: str, private: str) -> bool:
        return self.private_owner.get(private) == C(corp)

    def option(self, key: str):
        """A table option: the recorded value, else the rulebook's (games recorded before options)."""
        return self.options.get(key, DEFAULTS[key])

    def top_transport(self) -> int:
        return self.stack[0] if self.stack else 10
