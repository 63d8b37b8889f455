"""The decider contract shared by every Starbase rules engine.

Rules packages depend on this package only (plus pydantic): no I/O, no clock, no global random.
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
from starbase_rules.fair import FairRng, commitment

__all__ = [
    "Command", "Event", "Game", "Outcome", "RuleViolation", "Standing", "fold", "parse_command",
    "FairRng", "commitment",
]
