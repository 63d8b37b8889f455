"""Bankruptcy helpers: where certificates go when a player or a corporation is out.

`player_certificates_to_pool` lists the moves that put all of a bankrupt player's certificates in the
bank pool (no sale, no price move), handing each presidency they held to the next president first
(`presidency_successor` with the bankrupt player excluded) or leaving it in the pool (receivership).
`corporation_removal` lists the moves for a closed corporation: its own certificates leave the game,
the certificates it held in others go to the pool.
"""
from __future__ import annotations

from kit18xx.shares import POOL, REMOVED, ShareRegistry, cert_id, corp_of, presidency_successor


def corporation_removal(registry: ShareRegistry, corp: str, corp_holder: str) -> list[tuple[str, str]]:
    moves = [(c, REMOVED) for c in registry.location if corp_of(c) == corp and registry.location[c] != REMOVED]
    moves += [(c, POOL) for c in registry.certs_held(corp_holder) if corp_of(c) != corp]
    return moves


def successor_after_bankruptcy(registry: ShareRegistry, corp: str, seats: list[str], holder_of: dict[str, str],
                               bankrupt: str, minimum_percent: int = 20) -> str | None:
    """The player with the most shares (at least `minimum_percent`), ties to the bankrupt player's left."""
    return presidency_successor(registry, corp, seats, holder_of, bankrupt,
                                minimum_percent=minimum_percent, outgoing_may_keep=False)


def president_cert(corp: str) -> str:
    return cert_id(corp, 0)
