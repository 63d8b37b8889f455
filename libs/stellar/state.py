"""The game state: plain dataclasses (comparable with ==, cheap to deep-copy), rebuilt only from events.

Money lives in one kit `Ledger` with holders "bank", "liquid:<player>", "frozen:<player>" and
"corp:<id>", so every credit that moves names both ends and the total never changes. The bank starts
with a large float: the rulebook's bank never runs out (ASSUMED I: unlimited bank).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kit18xx.bank import Ledger
from starbase_rules.info import option
from stellar.facts import tables

BANK = "bank"


def liquid(player: str) -> str:
    return f"liquid:{player}"


def frozen(player: str) -> str:
    return f"frozen:{player}"


def treasury(corp: str) -> str:
    return f"corp:{corp}"


TAX_BOX = "tax_box"     # Tax Agents' box (Borders & Taxes); on Alpha it holds only Tax Payments


@dataclass
class Options:
    """The table options, declared once: `GameInfo.options` is made from these fields (docs/stellar.md
    says why each exists). Values alone are checked from the declaration; `setup.option_problems`
    checks the combinations."""
    difficulty: str = option("friendly", "alien start 4 / 7 / 10", choices=("friendly", "adverse", "hostile"))
    first_play: bool = option(False, "drop the 4-chevron tile; the 6 starred powers form the row")
    new_investor_setup: bool = option(False, "skip the initial auction (the printed diagrams)")
    signing_min_alien_planets: int = option(2, "alien planets needed to sign The Agreement", minimum=0)
    wormhole_skip_is_distance_minus_one: bool = option(True, "G-BLD-6: hexes skipped = distance - 1 "
                                                             "(false: the raw distance)")
    spare_parts_automatic: bool = option(False, "Spare Parts keeps a scrapped ship without asking")
    share_value_floor: int = option(0, "G-LIQ-4: lowest liquidation value of a share", minimum=0)
    starting_funds: int | None = option(None, "liquid funds per player (none: 120 / players)", minimum=0)
    starting_cubes: int = option(tables().starting_cubes, "Alien Technology cubes per player at the start",
                                 minimum=0, maximum=4)
    row_zero_pays: bool = option(True, "G-DIV-4: dividend row 0 pays like row 1 (false: nothing)")
    random_auction_order: bool = option(False, "G-SET-2: seeded auction order, first round in reverse")
    auction_opener_may_pass: bool = option(False, "G-AUC-1: the initiator may pass")
    mega_earth_value: str = option("outposts_present", "G-ME-2: how Mega-Earth is valued",
                                   choices=("outposts_present", "lowest_empty_box"))
    icarus_includes_nebulae: bool = option(False, "G-PWR-3: Icarus Experiment also builds on nebulae")
    amethyst_power: str = option("secret_agents", "Amethyst's formation power",
                                 choices=("secret_agents", "tax_agents"))
    tax_payment: int = option(3, "what Tax Agents' Tax Payment costs each corporation", minimum=0)
    # the data file's counts (ASSUMED): `powers_used` in all, `powers_row` of them face up
    powers_face_up: int = option(tables().powers_row, "the row of powers at setup", minimum=0, maximum=13)
    powers_face_down: int = option(tables().powers_used - tables().powers_row, "the face-down pile of powers at setup",
                                   minimum=0, maximum=13)


@dataclass
class Investor:
    cubes: int = 0
    votes: int = 0
    investor_disc: str | None = None      # action the disc sits on; None = off the board
    alien_disc: str | None = None


@dataclass
class Corp:
    id: str
    shares_total: int
    charter: int                          # shares still on the charter
    holders: dict[str, int] = field(default_factory=dict)
    aliens: int = 0
    president: str | None = None
    formed: bool = False
    supply: int = 0                       # unbuilt outposts
    boxed: int = 0                        # outposts returned to the box (Alien Alchemist)
    loans: int = 0
    powers: list[str] = field(default_factory=list)
    wormhole: bool = False
    wormhole_cube: bool = False           # a technology cube on the charter's Wormhole space
    boost_cubes: int = 0
    cargo: int = 0
    ordered: list[int] = field(default_factory=list)
    delivered: list[int] = field(default_factory=list)
    spare_ship: int | None = None         # a ship kept on the Spare Parts tile
    signed: bool = False
    agreement_planets: int = 0
    agents_bonus: int = 0                 # Secret Agents +3s (permanent, ruling G-AME-1)
    taken_over: bool = False

    @property
    def issued(self) -> int:
        return self.shares_total - self.charter


@dataclass
class Auction:
    corp: str
    purpose: str                          # initial | issue | battle | amethyst
    order: list[str]                      # clockwise from the initiator
    turn: int = 0                         # index into order of who bids next
    high_bid: int | None = None
    high_bidder: str | None = None
    passed: list[str] = field(default_factory=list)


@dataclass
class Pending:
    """A decision someone owes before play goes on."""
    kind: str                             # draft_power | sign_offer | agents_choice | choose_home | battle_choice | fine_print | backroom_deal
    player: str
    corp: str | None = None
    hex: str | None = None
    options: list[str] = field(default_factory=list)


@dataclass
class Build:
    corp: str
    mode: str                             # expand | wormhole | contractor | jerry_rig
    builder: str                          # the player who acts (and gains cubes)
    payer: str                            # ledger holder paying the cost
    placed: list[str] = field(default_factory=list)
    penalties: int = 0
    wormhole_cost: int = 0


@dataclass
class CorpTurn:
    corp: str
    step: str                             # issue | build | dividend | ships
    forced_ship: bool = False
    ordered_now: int = 0
    alchemist_used: bool = False
    dismantle_used: bool = False


@dataclass
class InvestorStep:
    step: str                             # fine_print | voting | battle | shenanigans
    seat: int = 0                         # index in the clockwise order from the director
    part: str = "investor"                # investor | alien (shenanigans)
    votes: dict[str, dict[str, int]] = field(default_factory=dict)   # corp -> player -> votes
    shielded: list[str] = field(default_factory=list)
    battle_corp: str | None = None
    votes_removed: int = 0


@dataclass
class State:
    players: list[str] = field(default_factory=list)
    options: Options = field(default_factory=Options)
    ledger: Ledger = field(default_factory=Ledger)
    investors: dict[str, Investor] = field(default_factory=dict)
    corps: dict[str, Corp] = field(default_factory=dict)
    turn_order: list[str] = field(default_factory=list)
    outposts: dict[str, list[str]] = field(default_factory=dict)        # hex -> corporations there
    mega_boxes: dict[str, int] = field(default_factory=dict)            # corporation -> Mega-Earth box (0 = bottom)
    developed: list[str] = field(default_factory=list)                  # neutral planets with a cube
    alien_tiles: dict[str, int] = field(default_factory=dict)           # face-down tile chevrons by hex (secret)
    converted_nebulae: list[str] = field(default_factory=list)          # nebular anomalies now alien planets
    boxed_tiles: list[int] = field(default_factory=list)                # unused agreement tiles (secret)
    shipyard: dict[int, int] = field(default_factory=dict)              # level -> ships left (-1 unlimited)
    shipyard_tiles: dict[int, int] = field(default_factory=dict)        # level -> face-down chevrons (secret)
    agreement_tiles_gone: int = 0                                       # revealed or discarded agreement tiles
    opened_sections: list[int] = field(default_factory=list)            # levels whose first ship has left
    scrapped_levels: list[int] = field(default_factory=list)
    ships_out: dict[int, int] = field(default_factory=dict)             # level -> ships removed from the game
    alien_mc: int = 0
    cube_supply: int = 0
    powers_row: list[str] = field(default_factory=list)
    powers_pile: list[str] = field(default_factory=list)                # face-down (secret)
    director: str | None = None
    era: int = 0
    round: str = "setup"          # setup | initial_auction | corporation | investor | liquidation | over
    corp_index: int = -1          # position in turn_order of the corporation playing
    auction: Auction | None = None
    pending: list[Pending] = field(default_factory=list)
    build: Build | None = None
    corp_turn: CorpTurn | None = None
    inv: InvestorStep | None = None
    auction_queue: list[str] = field(default_factory=list)              # initial auction lots left
    next_initiator: str | None = None                                   # opens the next initial auction
    votes_gone: int = 0                                                 # boardroom votes out of the game
    final_scores: dict[str, int] = field(default_factory=dict)
    share_values: dict[str, int] = field(default_factory=dict)
    end_reason: str = ""

    def corp(self, corp_id: str) -> Corp:
        return self.corps[corp_id]

    def clockwise_from(self, player: str) -> list[str]:
        start = self.players.index(player)
        return self.players[start:] + self.players[:start]

    def next_player(self, player: str) -> str:
        return self.players[(self.players.index(player) + 1) % len(self.players)]
