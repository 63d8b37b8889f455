"""The decider contract shared by every Starbase rules engine, and the base they are built on.

Rules packages depend on this package only (plus pydantic): no I/O, no clock, no global random.
See docs/engine-base.md (the base's API) and docs/adding-a-game.md (a walk through a new game).
"""
from starbase_rules.contract import (
    Command,
    Event,
    Game,
    Outcome,
    RuleViolation,
    Standing,
    fold,
    parse_command,
)
from starbase_rules.copying import copy_state, register_copier
from starbase_rules.engine import Engine
from starbase_rules.fair import FairRng, commitment
from starbase_rules.handlers import Rules
from starbase_rules.info import GameInfo, OptionSpec, option, options_of
from starbase_rules.redaction import HIDDEN, OWN_ENTRY, seen_by
from starbase_rules.scratch import DeferredTx, Tx, refuse

__all__ = [
    "Command", "Event", "Game", "Outcome", "RuleViolation", "Standing", "fold", "parse_command",
    "FairRng", "commitment",
    "Engine", "GameInfo", "OptionSpec", "option", "options_of", "Rules", "Tx", "DeferredTx", "refuse",
    "copy_state", "register_copier", "HIDDEN", "OWN_ENTRY", "seen_by",
]
