"""Multiplayer ratings with openskill's Plackett–Luce model: pure, deterministic, no I/O.

A rating is (mu, sigma); leaderboards rank by the conservative `ordinal` = mu − 3·sigma, so a newcomer
with few games does not top the board on one lucky win. Ties share a rank and are rated as ties.
"""
from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def as_dict(self) -> dict:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}

    @classmethod
    def initial(cls) -> "Rating":
        fresh = MODEL.rating()
        return cls(fresh.mu, fresh.sigma)

    @classmethod
    def from_dict(cls, data: dict | None) -> "Rating":
        return cls(float(data["mu"]), float(data["sigma"])) if data else cls.initial()


def rate(before: dict[str, Rating], standings: list[dict]) -> dict[str, Rating]:
    """New ratings of the players in `standings` ([{player, rank}], rank 1 best), from `before`."""
    if len(standings) < 2:
        return {s["player"]: before.get(s["player"], Rating.initial()) for s in standings}
    players = [s["player"] for s in standings]
    teams = [[MODEL.rating(mu=before.get(p, Rating.initial()).mu, sigma=before.get(p, Rating.initial()).sigma)]
             for p in players]
    rated = MODEL.rate(teams, ranks=[float(s["rank"]) for s in standings])
    return {player: Rating(team[0].mu, team[0].sigma) for player, team in zip(players, rated)}
