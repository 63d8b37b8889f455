"""Prometheus metrics of the Trucker service (served on /metrics of its metrics port).

The relay's figures (`trucker_relay_*`) are kept by `trucker.observe`: a move waits, after its events
are in Redis's outbox, until the relay has written them to the game's stream; the moves waiting and the
age of the oldest are the relay's backlog (a stream that does not take appends shows as a growing age).
"""
from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

MOVES = Counter("trucker_moves_total", "Player moves by operation and outcome", ["op", "outcome"])
MOVE_SECONDS = Histogram("trucker_move_seconds", "From a move's arrival to its acknowledgement", ["op"],
                         buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5))
CONNECTIONS = Gauge("trucker_connections", "Open table sockets")
BOT_MOVES = Counter("trucker_bot_moves_total", "Building moves of bot seats: played, refused", ["outcome"])
REBUILDS = Counter("trucker_warehouse_rebuilds_total", "Warehouses rebuilt from the event store")

RELAY_WAITING = Gauge("trucker_relay_waiting_moves", "Moves whose events wait to be written to the stream")
RELAY_OLDEST = Gauge("trucker_relay_oldest_wait_seconds",
                     "How long the oldest move still waiting for the stream has waited (0: none waits)")
RELAY_WAIT_SECONDS = Histogram("trucker_relay_wait_seconds", "How long a move waited for its events to be durable",
                               buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30))
RELAY_APPENDS = Counter("trucker_relay_appends_total",
                        "Relay appends to the stream: appended, found (another relay stored them), failed",
                        ["result"])
RELAY_BATCH_EVENTS = Histogram("trucker_relay_batch_events", "Events written by one relay append",
                               buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256))
