"""Stellar Ventures: a pure rules engine (decider) for 3–5 players on the Alpha map.

`stellar.game.GAME` implements `starbase_rules.contract.Game`; see docs/stellar.md for the rules
covered, the table options, the ASSUMED data and the rulings.
"""
