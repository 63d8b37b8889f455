"""21Moon's table options, all declared here: key, type, allowed values, default, and what each reads.

A table chooses a `ruleset` — `"rulebook"` (the default: the rulebook as `RULINGS.md` reads it) or
`"18xx.games"` (the readings of 21Moon's most-played online home, so its recorded games replay) — and
may then override any single option. Every known difference between the two is one option, so a
table can mix them. `docs/moon21.md` quotes the rule text on both sides of each.

`table_options(given)` resolves what a table asked for into the full, explicit set that `GameSetUp`
records (so a stored game never depends on later defaults); unknown keys are refused with
`UNKNOWN_OPTION`, bad values with `BAD_OPTION`. `OPTIONS` is the declaration a generic engine base can
read to build forms and validate (`describe()` gives it as plain data).
"""
from __future__ import annotations

from dataclasses import dataclass

from starbase_rules.contract import RuleViolation

RULEBOOK, SITE = "rulebook", "18xx.games"
RULESETS = (RULEBOOK, SITE)


@dataclass(frozen=True)
class Option:
    key: str
    type: type
    allowed: tuple
    rulebook: object          # the default, and the rulebook ruleset's value
    site: object              # the 18xx.games ruleset's value
    rule: str                 # where the rulebook speaks
    summary: str


OPTIONS: dict[str, Option] = {o.key: o for o in (
    Option("ols_hexes", str, ("three_from_space_port", "any_mineral_hex"), "three_from_space_port",
           "any_mineral_hex", "6.1.1 / P1 card",
           "hexes the Old Landing Site may be placed on: the card's 'at least three hexes from the "
           "Space Port', or 6.1.1's 'any mineral resource hex'"),
    Option("mineral_lay_cost", int, (0, 20), 0, 20, "11.2.1",
           "terrain cost of the first tile in a mineral hex (the rulebook names costs for hills and "
           "mountains only)"),
    Option("tunnel_mountain_cost", int, (10, 30), 10, 30, "6.1.6",
           "terrain cost of a mountain for a corporation owning P6 (6.1.6: reduced to 10; "
           "18xx.games: 10 off the 40)"),
    Option("certificate_limit_2p", int, (15, 18), 15, 18, "9.3",
           "certificate limit with two players"),
    Option("pool_cap_2p", int, (50, 60), 50, 50, "9.1 / 14",
           "most of a corporation's shares the bank pool may hold with two players (9.1: 50; the "
           "summary in 14: 60). 18xx.games keeps 50"),
    Option("second_run_token", str, ("base_or_depot_token", "any_token"), "base_or_depot_token",
           "any_token", "11.4",
           "which token a base's second run must include: the base's own token or a depot token, "
           "or any token of the corporation (the other base's included)"),
    Option("maximum_revenue", str, ("enforced", "not_enforced"), "enforced", "enforced", "11.4",
           "whether submitted runs must earn the most the transports can (18xx.games checks it "
           "only through its router: an import of a game played with automatic routing off "
           "sets not_enforced)"),
    Option("build_reach", str, ("route", "network"), "route", "network", "11.1 / 11.2.2",
           "what counts as reaching a place to build: a legal route (no road reused, no reversing "
           "at a plain junction), or the site's road network, which may reverse through old road"),
    Option("bankruptcy", str, ("after_selling", "when_short"), "after_selling", "when_short",
           "11.7 / 11.8.1",
           "when a president may declare bankruptcy: after selling every share the rules let them "
           "sell, or as soon as cash plus sellable shares cannot pay (the shares are then sold)"),
)}

RULESET_KEY = "ruleset"


def preset(ruleset: str) -> dict:
    """Every option's value under a ruleset."""
    if ruleset not in RULESETS:
        raise RuleViolation("BAD_OPTION", f"ruleset must be one of {list(RULESETS)}, not {ruleset!r}")
    return {RULESET_KEY: ruleset,
            **{o.key: (o.rulebook if ruleset == RULEBOOK else o.site) for o in OPTIONS.values()}}


def table_options(given: dict | None) -> dict:
    """The full option set for a table: its ruleset's values, then its own overrides."""
    given = dict(given or {})
    unknown = sorted(set(given) - set(OPTIONS) - {RULESET_KEY})
    if unknown:
        raise RuleViolation("UNKNOWN_OPTION", f"21Moon has no option {unknown[0]!r}; known: "
                                              f"{sorted([RULESET_KEY, *OPTIONS])}")
    resolved = preset(given.pop(RULESET_KEY, RULEBOOK))
    for key, value in given.items():
        option = OPTIONS[key]
        if type(value) is not option.type or value not in option.allowed:
            raise RuleViolation("BAD_OPTION", f"option {key!r} must be one of {list(option.allowed)}, "
                                              f"not {value!r}")
        resolved[key] = value
    return resolved


DEFAULTS = preset(RULEBOOK)


def describe() -> list[dict]:
    """The declaration as plain data (for a lobby form or a generic engine base)."""
    ruleset = {"key": RULESET_KEY, "type": "str", "allowed": list(RULESETS), "default": RULEBOOK,
               "rule": "", "summary": "rulebook readings, or those of 18xx.games (see each option)"}
    return [ruleset] + [{"key": o.key, "type": o.type.__name__, "allowed": list(o.allowed),
                         "default": o.rulebook, "18xx.games": o.site, "rule": o.rule, "summary": o.summary}
                        for o in OPTIONS.values()]
