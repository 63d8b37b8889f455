"""The player's loop in the lobby: my games and who owes a decision, "your turn" pushes, presence,
quick play, review at a past position, readable logs and the outside audit's export (docs/api.md)."""
