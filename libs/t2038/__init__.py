"""2038: Tycoons of the Asteroid Belt rules engine. The decider is `t2038.game:GAME`; see docs/t2038.md."""
