"""Certificate and holding limits.

`certificate_count` counts the certificates a holder has (optionally plus private companies, which
count in most 18xx titles); `may_buy_more` checks the holding cap (e.g. 50 %, 60 % with two players).
"""
from __future__ import annotations

from kit18xx.shares import ShareRegistry


def certificate_count(registry: ShareRegistry, holder: str, privates: int = 0,
                      exempt_corps: frozenset[str] = frozenset()) -> int:
    return privates + sum(1 for c in registry.certs_held(holder) if c.rsplit("_", 1)[0] not in exempt_corps)


def within_certificate_limit(registry: ShareRegistry, holder: str, limit: int, privates: int = 0,
                             adding: int = 1) -> bool:
    return certificate_count(registry, holder, privates) + adding <= limit


def may_buy_more(registry: ShareRegistry, corp: str, holder: str, holding_cap_percent: int) -> bool:
    """A holder may buy a share only while holding less than the cap (they may end exactly at it)."""
    return registry.held_percent(corp, holder) < holding_cap_percent


def pool_room(registry: ShareRegistry, corp: str, pool: str, pool_cap_percent: int) -> int:
    """How many more percent of `corp` the bank pool may take."""
    return pool_cap_percent - registry.held_percent(corp, pool)
