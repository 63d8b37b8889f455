"""Prometheus metrics of the Trucker service (served on /metrics)."""
from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

MOVES = Counter("trucker_moves_total", "Player moves by operation and outcome", ["op", "outcome"])
MOVE_SECONDS = Histogram("trucker_move_seconds", "From a move's arrival to its acknowledgement", ["op"],
                         buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5))
CONNECTIONS = Gauge("trucker_connections", "Open table sockets")
REBUILDS = Counter("trucker_warehouse_rebuilds_total", "Warehouses rebuilt from the event store")
