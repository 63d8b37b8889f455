"""Trucker's real-time building phase: the live warehouse in Redis (the rules engine decides each move,
one Lua script applies it atomically), an outbox relay into the game's JetStream stream, and a WebSocket
API for players and spectators. See docs/trucker_service.md."""
