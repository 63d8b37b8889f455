"""Table options, declared once (`starbase_rules.option`): the base checks every table against them and
records them all, defaults filled in, in GameStarted. Rules the reference tags [M] (one source) or [L]
(inferred) are options whose default is the sourced rule, so a table can play the other reading; see
docs/trucker.md for each source."""
from __future__ import annotations

from dataclasses import dataclass

from starbase_rules.info import option

from trucker_rules import catalog


@dataclass
class Options:
    # building
    # the defaults that are printed facts come from the data files (one source for each fact)
    hourglass_seconds: float = option(catalog.hourglass_seconds(), "[M, BGA] seconds of one run of the sand",
                                      minimum=0.1, maximum=3600)
    refuse_flawed_placements: bool = option(False, "refuse engines and cannons that inspection would flag")
    reserve_in_round_1: bool = option(True, "[H] Class I boards have reserve spots too (false: rounds II and III only)")
    round3_board: str = option(catalog.ship_class_for_round(3),
                               "round 3 ship board (IIIa: the long alternative Class III shape)", choices=("III", "IIIa"))
    lenient_inspection: bool = option(False, "[M, ttw] components removed in repair go back face up, at no cost")
    # flight
    reuse_cards: bool = option(False, "[M, BGA] cards of earlier rounds may be dealt again")
    top_card_of_round_level: bool = option(True, "[M, BGA] reshuffle until the top card has the round's level")
    lapped_ship_gives_up: bool = option(True, "[M, z2tb8e] a ship lapped by the leader must give up")
    voluntary_give_up: bool = option(True, "[M] a player may give up between cards")
    pirates_shared_roll: bool = option(True, "[M, BGA] one roll per pirate shot for all beaten ships")
    stardust_from_rear: bool = option(True, "[M, BGA] stardust moves the rearmost ship first")
    lone_ship_skips_weakest: bool = option(True, "[L] with one ship left, combat zone lines and sabotage are skipped")
    half_value_rounding: str = option("down", "halves of odd values: unresolved in the sources",
                                      choices=("down", "up"))
