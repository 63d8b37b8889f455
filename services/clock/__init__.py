"""The decision clock: a player who owes a decision past the table's time limit gets the engine's default."""
