"""2038's table options, declared once for the engine base (types, bounds, defaults, one line each), and
the rules' own `Options` read back from what `GameStarted` recorded.

Three ASSUMED facts could once be changed per table as maps (`base_bonuses`, `transshipment_values`,
`ship_limits`); a declared option is a bounded scalar, so they are no longer table options. Games that
recorded them keep them: `state_options` reads every key a `GameStarted` ever held.
"""
from __future__ import annotations

from dataclasses import dataclass

from starbase_rules.info import option
from t2038.state import TRANSSHIPMENT_HIGH_FROM_PHASE, VP_RARE_BONUS, Options


@dataclass
class TableOptions:
    variant: str = option("full", "the Full game, or the Short game ($4,000 money, no group C, lower limits)",
                          choices=("full", "short"))
    two_player: bool = option(False, "optional rule: a game of 2 players ($900 each; limits 33 Full, 26 Short)")
    weaker_tsi: int | None = option(None, "Full game optional rule: TSI par and capital 89/890, 78/780 or 67/670",
                                    choices=(None, 89, 78, 67))
    cutthroat: bool = option(False, "optional rule: four Phase IV ships, not five")
    stock_repurchases: bool = option(False, "optional rule: corporations repurchase their shares (5.3, 7.2, 7.4)")
    transshipment_high_from_phase: int = option(TRANSSHIPMENT_HIGH_FROM_PHASE, "ASSUMED: the phase from which "
                                                "transshipment points pay their higher value (7: never)",
                                                minimum=1, maximum=7)
    vp_rare_bonus: int = option(VP_RARE_BONUS, "ASSUMED: Venus Prospectors' base bonus per Rare",
                                minimum=0, maximum=200)
    certificate_limit: int | None = option(None, "ASSUMED: certificates per player (none: the chart's value)",
                                           minimum=1, maximum=60)
    money_total: int | None = option(None, "ASSUMED: all the money in the game, bank and players (none: $10,000 "
                                           "Full, $4,000 Short)", minimum=2000, maximum=100000)


def option_problems(options: dict, players: list[str]) -> list[str]:
    if options["weaker_tsi"] is not None and options["variant"] == "short":
        return ["Weaker TSI is a Full game rule"]
    return []


def state_options(recorded: dict) -> Options:
    """The rules' options from a `GameStarted`'s record (v2: the complete table options)."""
    data = dict(recorded)
    return Options(short=data.pop("variant") == "short", **data)
