"""21Moon's table options, declared once as the fields of `Options` (`starbase_rules.option`).

A table chooses a `ruleset` — `"rulebook"` (the default: the rulebook as `RULINGS.md` reads it) or
`"18xx.games"` (the readings of 21Moon's most-played online home, so its recorded games replay) — and
may then override any single option. Every known difference between the two is one option, so a
table can mix them. `docs/moon21.md` quotes the rule text on both sides of each.

Each field's default is the rulebook's value; `SITE` holds 18xx.games' values. `Moon21Info` (the
game's `GameInfo`) checks a table's options against the declaration like every engine's (unknown key:
UNKNOWN_OPTION; wrong type or not one of the choices: BAD_OPTION), then fills each option the table
left out from its ruleset, not from the rulebook. The result, every option explicit, is what
`GameSetUp` records (so a stored game never depends on later defaults).
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from moon21.board.lays import TERRAIN_COST
from moon21.rules import rules
from starbase_rules.info import GameInfo, option, options_of

RULEBOOK, SITE_RULESET = "rulebook", "18xx.games"
SITE = SITE_RULESET            # the ruleset's name, as the importer and the tests call it
RULESETS = (RULEBOOK, SITE_RULESET)
RULESET_KEY = "ruleset"


@dataclass(frozen=True)
class Options:
    ruleset: str = option(RULEBOOK, "rulebook readings, or those of 18xx.games (the default of every "
                          "option below)", choices=RULESETS)
    ols_hexes: str = option(
        "three_from_space_port", "6.1.1 / P1 card: hexes the Old Landing Site may be placed on: at least "
        "three hexes from the Space Port (the card), or any mineral resource hex (6.1.1)",
        choices=("three_from_space_port", "any_mineral_hex"))
    mineral_lay_cost: int = option(
        0, "11.2.1: terrain cost of the first tile in a mineral hex (the rulebook names costs for hills "
        "and mountains only)", choices=(0, 20))
    # the rulebook's value is the map's (map.yaml terrain_cost), the other choice 18xx.games' reading
    tunnel_mountain_cost: int = option(
        TERRAIN_COST["tunnel_mountain"], "6.1.6: terrain cost of a mountain for a corporation owning P6 "
        "(6.1.6: reduced to 10; 18xx.games: 10 off the 40)", choices=(TERRAIN_COST["tunnel_mountain"], 30))
    # the rulebook's values are the data file's (entities.yaml), the other choice each rule's alternative
    certificate_limit_2p: int = option(rules()["certificate_limit"][2], "9.3: certificate limit with two players",
                                       choices=(rules()["certificate_limit"][2], 18))
    pool_cap_2p: int = option(
        rules()["pool_cap_percent"], "9.1 / 14: most of a corporation's shares the bank pool may hold with two "
        "players (9.1: 50; the summary in 14: 60); 18xx.games keeps 50", choices=(rules()["pool_cap_percent"], 60))
    second_run_token: str = option(
        "base_or_depot_token", "11.4: which token a base's second run must include: the base's own "
        "token or a depot token, or any token of the corporation (the other base's included)",
        choices=("base_or_depot_token", "any_token"))
    maximum_revenue: str = option(
        "enforced", "11.4: whether submitted runs must earn the most the transports can (18xx.games "
        "checks it only through its router: an import of a game played with automatic routing off "
        "sets not_enforced)", choices=("enforced", "not_enforced"))
    build_reach: str = option(
        "route", "11.1 / 11.2.2: what counts as reaching a place to build: a legal route (no road "
        "reused, no reversing at a plain junction), or the site's road network, which may reverse "
        "through old road", choices=("route", "network"))
    bankruptcy: str = option(
        "after_selling", "11.7 / 11.8.1: when a president may declare bankruptcy: after selling every "
        "share the rules let them sell, or as soon as cash plus sellable shares cannot pay (the shares "
        "are then sold)", choices=("after_selling", "when_short"))


RULE_KEYS = tuple(f.name for f in fields(Options) if f.name != RULESET_KEY)   # the rule readings
# 18xx.games' readings, where they differ from the rulebook's (the field defaults).
SITE_READINGS: dict[str, Any] = {
    "ols_hexes": "any_mineral_hex", "mineral_lay_cost": 20, "tunnel_mountain_cost": 30,
    "certificate_limit_2p": 18, "second_run_token": "any_token", "build_reach": "network",
    "bankruptcy": "when_short",
}


def preset(ruleset: str) -> dict[str, Any]:
    """Every option's value under a ruleset (one of `RULESETS`)."""
    readings = {f.name: f.default for f in fields(Options)}
    if ruleset == SITE_RULESET:
        readings.update(SITE_READINGS)
    return {**readings, RULESET_KEY: ruleset}


class Moon21Info(GameInfo):
    """21Moon's declaration: the base's checks, then the options left out taken from the ruleset."""

    def check_options(self, raw: dict) -> dict[str, Any]:
        checked = super().check_options(raw)
        return {**preset(checked[RULESET_KEY]), **{key: raw[key] for key in raw}}


DEFAULTS = preset(RULEBOOK)

INFO = Moon21Info(
    name="moon21", title="21Moon", min_players=rules()["players"]["min"], max_players=rules()["players"]["max"],
    options=options_of(Options),
    round_field="kind", over="END",
    # No timeout_preference: `Moon21.default_command` declines a deal, leaves the UN Contract unused,
    # else passes when that is legal (the base would take the first listed action, which may accept).
)


def table_options(given: dict | None) -> dict[str, Any]:
    """The full option set of a table (the importer's and the tests' way in; `setup` does the same)."""
    return INFO.check_options(dict(given or {}))
