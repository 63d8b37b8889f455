"""What the site names that Starbase does not: its transport copies in the order each corporation holds
them (its "choose a train" is an index into that list), its tile copies on the map (a depot is named
by the tile copy it lies on), and where each named certificate lies (a purchase names a certificate,
not where it comes from). Kept beside the replay, fed by the site's actions and by our events for what
happens without an action (phase changes scrapping transports, closures, bankruptcies).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kit18xx.shares import IPO, POOL
from moon21.site18xx.names import cert_corp, train_type


@dataclass
class Shadow:
    trains: dict[str, list[list]] = field(default_factory=dict)   # corp -> [[site id, base], ...]
    tiles: dict[str, str] = field(default_factory=dict)           # site tile copy -> hex
    certs: dict[str, str] = field(default_factory=dict)           # certificate -> holder (IPO if unseen)
    pending_train: str | None = None                               # site id of a purchase being made

    # -- transports ------------------------------------------------------------------------------
    def train_list(self, corp: str) -> list[list]:
        return self.trains.setdefault(corp, [])

    def owner_of(self, train: str) -> tuple[str, str] | None:
        """(corporation, base) holding the site's transport copy, if a corporation holds it."""
        for corp, held in self.trains.items():
            for site_id, base in held:
                if site_id == train:
                    return corp, base
        return None

    def base_of(self, corp: str, train: str) -> str:
        for site_id, base in self.train_list(corp):
            if site_id == train:
                return base
        raise KeyError(f"{corp} holds no transport {train!r}")

    # -- certificates ----------------------------------------------------------------------------
    def cert_at(self, cert: str) -> str:
        return self.certs.get(cert, IPO)

    def moved(self, certs, holder: str) -> None:
        for cert in certs:
            self.certs[cert] = holder

    # -- following our events --------------------------------------------------------------------
    def follow(self, state, events) -> None:
        for event in events:
            handler = getattr(self, f"_on_{event.type}", None)
            if handler:
                handler(state, event)

    def _on_TransportBought(self, state, e) -> None:
        site_id = self.pending_train or f"{e.transport}-?"
        self.pending_train = None
        if e.from_corp:
            held = self.train_list(e.from_corp)
            match = next((t for t in held if t[0] == site_id), None) or \
                next((t for t in held if train_type(t[0]) == e.transport and t[1] == e.from_base), None)
            if match:
                held.remove(match)
        self.train_list(e.corp).append([site_id, e.base])

    def _on_TransportMoved(self, state, e) -> None:
        pass   # the translator flips the chosen copy (it knows which one the site meant)

    def _on_PhaseChanged(self, state, e) -> None:
        if e.removed_type is not None:
            for corp, held in self.trains.items():
                held[:] = [t for t in held if train_type(t[0]) != e.removed_type]

    def _on_CorporationClosed(self, state, e) -> None:
        self.trains[e.corp] = []
        for cert, holder in list(self.certs.items()):
            if holder == f"c:{e.corp}":
                self.certs[cert] = POOL
            if cert_corp(cert) == e.corp:
                self.certs[cert] = "removed"

    def _on_PlayerBankrupt(self, state, e) -> None:
        for cert, holder in list(self.certs.items()):
            if holder == f"p:{e.player}":
                self.certs[cert] = POOL
