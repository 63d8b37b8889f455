"""The state of one 2038 game: plain dataclasses rebuilt from the events alone (compared with `==`).

Holders of money and certificates are strings: "bank", "p:<player>", "c:<corp>" (a corporation's
treasury), "i:<number>" (an Independent's treasury). Shares are counted in 10 % units; the President's
certificate is 2 units held by the player named in `president`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kit18xx.bank import Ledger
from kit18xx.decisions import DecisionQueue
from kit18xx.market import MarketState
from t2038.tables import map_data

INDEPENDENTS = (1, 2, 3, 4, 5, 6)
PRIVATES = (0, 7, 8, 9, 10, 11)
CORPS = ("TSI", "RU", "LE", "MM", "VP", "OPC", "RCC", "AL")
# Two ASSUMED facts of map.yaml that a table may change (options): their defaults are the data file's.
TRANSSHIPMENT_HIGH_FROM_PHASE: int = map_data()["transshipment_high_from_phase"]
VP_RARE_BONUS: int = map_data()["base_ore_bonus"]["J2"]["R"]       # Venus Prospectors' base J2


def p(player: str) -> str:
    return f"p:{player}"


def c(corp: str) -> str:
    return f"c:{corp}"


def i(number: int) -> str:
    return f"i:{number}"


@dataclass
class Options:
    short: bool = False
    weaker_tsi: int | None = None          # 89, 78 or 67 (Full game optional rule)
    cutthroat: bool = False
    transshipment_high_from_phase: int = TRANSSHIPMENT_HIGH_FROM_PHASE  # ASSUMED; 7 = never
    vp_rare_bonus: int = VP_RARE_BONUS      # ASSUMED (at least 20 is derived)
    two_player: bool = False                # optional rule: 2 players, $900 each, limits 33 / 26
    # ASSUMED facts a table may change (None: the sourced default in data/*.yaml, see docs/t2038.md)
    base_bonuses: dict | None = None        # {"J2": {"R": 20}, ...}: per-ore bonus of each base hex
    transshipment_values: dict | None = None  # {"H10": [30, 60], ...}: low and high values
    ship_limits: dict | None = None         # {"1": 4, ...}: ships a company may own per phase
    certificate_limit: int | None = None    # per player, replacing the chart's value
    money_total: int | None = None          # all money in the game (bank + players)
    stock_repurchases: bool = False         # optional rule (5.3, 7.2, 7.4 modified)


@dataclass
class Ship:
    phase: int                 # 0 is the Probe
    kind: str = ""             # "scout", "tug", "freighter", "probe"; "" while never bought
    owner: str = "bank"        # "bank", a company holder ("c:TSI", "i:3"), or "gone"
    movement: int = 0
    holds: int = 0
    new: bool = True           # never bought yet (phase triggers count only new cards)


@dataclass
class Flight:
    ship: str
    hex: str
    movement: int              # points left
    start_movement: int
    holds: int
    cargo: list = field(default_factory=list)      # [hex, mine index, value, ore]
    refuelled: list = field(default_factory=list)  # station hexes used this route
    choice: list = field(default_factory=list)     # Lucky's two drawn tiles awaiting a choice
    choice_hex: str = ""
    pilot: str = ""            # whose abilities the ship flies with: the Independent itself or a pilot


@dataclass
class State:
    players: list[str] = field(default_factory=list)     # seating order, clockwise
    options: Options = field(default_factory=Options)
    ledger: Ledger = field(default_factory=Ledger)
    bank_broken: bool = False
    # companies 0..11: owner holder ("p:ann", "c:TSI") or "" (unsold) or "closed"
    company_owner: dict[int, str] = field(default_factory=dict)
    independent_claims_left: dict[int, int] = field(default_factory=dict)
    # corporations
    launched: list[str] = field(default_factory=list)
    active: list[str] = field(default_factory=list)
    operated: list[str] = field(default_factory=list)    # has operated at least once
    par: dict[str, int] = field(default_factory=dict)
    shares: dict[str, dict[str, int]] = field(default_factory=dict)   # corp → holder → units
    president: dict[str, str] = field(default_factory=dict)
    market: MarketState = field(default_factory=MarketState)
    counters_left: dict[str, dict[str, int]] = field(default_factory=dict)  # corp → base/refuel/claim
    # board
    tiles: dict[str, int] = field(default_factory=dict)          # explored hex → tile id
    pool: list[int] = field(default_factory=list)                 # face-down tile ids
    bases: dict[str, str] = field(default_factory=dict)           # hex → owner symbol (printed + placed)
    flipped: list[str] = field(default_factory=list)              # hexes whose tile shows its base side
    stations: dict[str, str] = field(default_factory=dict)        # base hex → corp symbol
    claims: dict[str, str] = field(default_factory=dict)          # "hex/mine" → holder
    used_mines: list[str] = field(default_factory=list)           # "hex/mine" this operating round
    # ships
    ships: dict[str, Ship] = field(default_factory=dict)
    phase: int = 1
    # sequence
    round: str = "setup"            # "auction", "stock", "operating", "over"
    set_number: int = 1
    or_number: int = 0
    first_player: str = ""
    turn: str = ""                  # stock round / auction: the player whose turn it is
    passes: int = 0
    last_actor: str = ""            # last player to buy or sell on their own turn
    sold_this_round: list[str] = field(default_factory=list)     # "player/corp"
    sold_this_turn: list[str] = field(default_factory=list)      # corps already dropped this turn
    # initial auction
    bids: dict[int, dict[str, int]] = field(default_factory=dict)  # company → player → amount
    auction_company: int = -1                                      # resolution auction running
    auction_bidders: list[str] = field(default_factory=list)       # still in, next to act first
    auction_high: int = 0
    auction_leader: str = ""
    resume_after: str = ""          # the buyer whose left neighbour plays once pending bids are resolved
    resolving_all_pass: bool = False
    # operating round
    done_operators: list[str] = field(default_factory=list)
    operator: str = ""              # "i:3", "c:TSI", "probe"
    step: str = ""                  # "routes", "purchases"
    flown: list[str] = field(default_factory=list)                 # ships that ran this operating round
    pilots_used: list[str] = field(default_factory=list)           # pilots assigned this operating round
    flight: Flight | None = None
    earnings: int = 0
    bought_this_turn: dict[str, int] = field(default_factory=dict)  # claims/base/refuel counts
    ships_refused: list[str] = field(default_factory=list)         # declined for the buyer's whole treasury
    must_discard: list[str] = field(default_factory=list)           # holders over their ship limit
    corp_kind: dict[str, str] = field(default_factory=dict)         # "public", "growth", "league"
    started_at: dict[str, int] = field(default_factory=dict)        # corp → price when it began operating
    decisions: DecisionQueue = field(default_factory=DecisionQueue)  # owed: [kind, player, number, when]
    private_used: list[int] = field(default_factory=list)    # privates 7-9 whose free counter is placed
    ended: str = ""                 # reason, once over
    bankrupt: str = ""

    # ---- small queries used everywhere
    @property
    def pending(self) -> list:
        """Decisions owed before play goes on (the kit's queue): [kind, player, number, when]."""
        return self.decisions.waiting

    @property
    def pending_then(self) -> str:
        return self.decisions.then

    def cash(self, holder: str) -> int:
        return self.ledger.balance(holder)

    def controller(self, holder: str) -> str:
        """The player who decides for a company holder (owner of an Independent, President of a corp)."""
        if holder.startswith("i:"):
            return self.company_owner[int(holder[2:])][2:]
        if holder.startswith("c:"):
            return self.president[holder[2:]]
        if holder == "probe":
            return self.company_owner[10][2:]
        return holder[2:]

    def ships_of(self, holder: str) -> list[str]:
        return [sid for sid, ship in self.ships.items() if ship.owner == holder]

    def units(self, corp: str, holder: str) -> int:
        return self.shares.get(corp, {}).get(holder, 0)
