"""Share certificates and where each one lies; holdings and presidency.

A certificate id is "<CORP>_<n>": n = 0 is the president's certificate, 1.. are ordinary ones. Each lies
with exactly one holder (the game names them: "ipo", "pool", "p:ann", "c:VH", "removed").

Presidency (18xx rule): it changes only when someone holds *more* than the president; the new president
is the largest holder, ties broken by the seat closest to the outgoing president's left (clockwise).
The swap gives the president's certificate to the new president and enough ordinary certificates back
to the outgoing one (`swap_presidency`). `successor_by_holdings` applies the same rule to plain numbers
(percent or share units per player) for games that keep holdings their own way.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

IPO = "ipo"
POOL = "pool"
REMOVED = "removed"


def cert_id(corp: str, number: int) -> str:
    return f"{corp}_{number}"


@lru_cache(maxsize=4096)     # asked of every certificate a holding question walks past; ids are few
def corp_of(cert: str) -> str:
    return cert.rsplit("_", 1)[0]


@lru_cache(maxsize=4096)
def _number(cert: str) -> int:
    return int(cert.rsplit("_", 1)[1])


def is_president_cert(cert: str) -> bool:
    return cert.rsplit("_", 1)[1] == "0"


@dataclass
class ShareRegistry:
    location: dict[str, str] = field(default_factory=dict)   # certificate -> holder
    percent: dict[str, int] = field(default_factory=dict)    # certificate -> its share of the company

    def add_corporation(self, corp: str, president_percent: int = 20, share_percent: int = 10,
                        ordinary: int = 8, holder: str = IPO) -> None:
        self.location[cert_id(corp, 0)] = holder
        self.percent[cert_id(corp, 0)] = president_percent
        for number in range(1, ordinary + 1):
            self.location[cert_id(corp, number)] = holder
            self.percent[cert_id(corp, number)] = share_percent

    # -- questions ---------------------------------------------------------
    def certs(self, corp: str, holder: str) -> list[str]:
        return sorted((c for c, h in self.location.items() if h == holder and corp_of(c) == corp), key=_number)

    def certs_held(self, holder: str) -> list[str]:
        return sorted(c for c, h in self.location.items() if h == holder)

    def held_percent(self, corp: str, holder: str) -> int:
        return sum(self.percent[c] for c in self.certs(corp, holder))

    def ordinary_certs(self, corp: str, holder: str) -> list[str]:
        return [c for c in self.certs(corp, holder) if not is_president_cert(c)]

    def president_of(self, corp: str) -> str:
        return self.location[cert_id(corp, 0)]

    def corporations(self) -> list[str]:
        return sorted({corp_of(c) for c in self.location})

    def holdings(self, corp: str) -> dict[str, int]:
        result: dict[str, int] = {}
        for cert, holder in self.location.items():
            if corp_of(cert) == corp:
                result[holder] = result.get(holder, 0) + self.percent[cert]
        return result

    def total_percent(self, corp: str) -> int:
        return sum(p for c, p in self.percent.items() if corp_of(c) == corp and self.location[c] != REMOVED)

    # -- changes -----------------------------------------------------------
    def move(self, cert: str, holder: str) -> None:
        self.location[cert] = holder

    def swap_presidency(self, corp: str, outgoing: str, incoming: str) -> list[str]:
        """Incoming takes the president's certificate and hands ordinary ones worth as much to the outgoing
        holder. Returns the certificates handed back."""
        president = cert_id(corp, 0)
        needed = self.percent[president]
        handed: list[str] = []
        for cert in self.ordinary_certs(corp, incoming):
            if needed <= 0:
                break
            handed.append(cert)
            needed -= self.percent[cert]
        if needed > 0:
            raise ValueError(f"{incoming} holds too little of {corp} to take the presidency")
        for cert in handed:
            self.location[cert] = outgoing
        self.location[president] = incoming
        return handed


def clockwise_from(seats: list[str], start: str) -> list[str]:
    """The other seats in clockwise order beginning with the one to `start`'s left."""
    i = seats.index(start)
    return seats[i + 1:] + seats[:i]


def successor_by_holdings(holdings: dict[str, int], seats: list[str], outgoing: str, minimum: int = 0,
                          outgoing_may_keep: bool = True) -> str | None:
    """The same rule on plain numbers (percent or share units per player name): the outgoing president
    keeps it unless someone holds strictly more; the largest other holder wins, ties to the outgoing
    president's left; nobody below `minimum` qualifies (None)."""
    candidates = clockwise_from(seats, outgoing)
    best = max((holdings.get(p, 0) for p in candidates), default=0)
    if outgoing_may_keep and holdings.get(outgoing, 0) >= best:
        return outgoing
    if best < max(minimum, 1):
        return None
    return next(p for p in candidates if holdings.get(p, 0) == best)


def presidency_successor(registry: ShareRegistry, corp: str, seats: list[str], holder_of: dict[str, str],
                         outgoing: str, minimum_percent: int = 0, outgoing_may_keep: bool = True) -> str | None:
    """Who should hold the presidency now, or None if nobody qualifies.

    `seats` is the clockwise seat order of the player names, `holder_of` maps a player name to its
    holder id. With `outgoing_may_keep`, the outgoing president keeps it unless someone holds strictly
    more (rule: equal holdings never change presidency). Otherwise (bankruptcy) only the others count.
    """
    percent = {p: registry.held_percent(corp, holder_of[p]) for p in seats}
    return successor_by_holdings(percent, seats, outgoing, minimum_percent, outgoing_may_keep)
