"""Table options. Rules the reference tags [M] (one source) or [L] (inferred) are options whose default
is the sourced rule, so a table can play the other reading; see docs/trucker.md for each source."""
from __future__ import annotations

from starbase_rules.contract import RuleViolation

DEFAULTS: dict[str, object] = {
    # building
    "hourglass_seconds": 90,              # [M, BGA] length of one run of the sand
    "refuse_flawed_placements": False,    # True: refuse engines/cannons that inspection would flag
    "reserve_in_round_1": True,           # [H] the reference gives every ship board 2 reserve spots; the
                                          # issue's "rounds II and III" reading is this option set False
    "round3_board": "III",                # "IIIa": the long alternative Class III shape
    "lenient_inspection": False,          # [M, ttw] True: components removed in repair go back face up, no cost
    # flight
    "reuse_cards": False,                 # [M, BGA] cards of earlier rounds are not dealt again
    "top_card_of_round_level": True,      # [M, BGA] reshuffle until the top card has the round's level
    "lapped_ship_gives_up": True,         # [M, z2tb8e] a ship lapped by the leader must give up
    "voluntary_give_up": True,            # [M] a player may give up between cards
    "pirates_shared_roll": True,          # [M, BGA] one roll per pirate shot for all beaten ships
    "stardust_from_rear": True,           # [M, BGA] stardust moves the rearmost ship first
    "lone_ship_skips_weakest": True,      # [L] with one ship left, combat zone lines and sabotage are skipped
    "half_value_rounding": "down",        # unresolved in the sources: "down" or "up"
}


def table_options(given: dict | None) -> dict:
    options = dict(DEFAULTS)
    for key, value in (given or {}).items():
        if key not in DEFAULTS:
            raise RuleViolation("UNKNOWN_OPTION", f"Trucker has no option {key!r}; known: {sorted(DEFAULTS)}")
        if type(value) is not type(DEFAULTS[key]) and not (isinstance(DEFAULTS[key], int) and isinstance(value, (int, float))):
            raise RuleViolation("BAD_OPTION", f"option {key!r} must be a {type(DEFAULTS[key]).__name__}")
        options[key] = value
    if options["round3_board"] not in ("III", "IIIa"):
        raise RuleViolation("BAD_OPTION", "round3_board is III or IIIa")
    if options["half_value_rounding"] not in ("down", "up"):
        raise RuleViolation("BAD_OPTION", "half_value_rounding is down or up")
    return options
