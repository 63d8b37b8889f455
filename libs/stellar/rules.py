"""The registry of Stellar Ventures' handlers: each command's decide handler and each event's evolve
handler register here (`@RULES.decides(...)`, `@RULES.evolves(...)`); `game.py` imports the modules."""
from starbase_rules.handlers import Rules

RULES = Rules()
