"""Think times: how long a simulated person takes before a move (seconds; no I/O here).

People do not answer in 0 ms. The figures are our assumptions, stated so they can be argued with:

- **turn-based games** (21Moon, 2038, Stellar Ventures): log-normal with a median of 3 s and σ = 0.8
  (a quarter of decisions under 1.8 s — passing, an obvious buy —, one in ten over 8.4 s — a route, a
  bid war), never over 60 s (`make run`'s decision clock would play for a player after 120 s). Log-normal
  because decision times are skewed: many quick ones, a long tail of slow ones.
- **Trucker's building** is a race: a person grabs, glances at the tile and places it in about a second
  or two: median 1.2 s, σ = 0.5, at most 6 s.
- **between games** a person reads the result and looks for the next table: 2-10 s, uniform.

`scale` multiplies every think time: 1 is the pace above, 0.1 ten times faster, 0 flat out (no think
time at all: the load is then bounded only by the round trips, as `starbase load --flat-out` runs).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Habit:
    median: float      # seconds
    sigma: float       # of the underlying normal: how spread out
    most: float        # never longer than this

    def draw(self, rnd: random.Random) -> float:
        return min(self.most, rnd.lognormvariate(math.log(self.median), self.sigma))


TURN_BASED = Habit(median=3.0, sigma=0.8, most=60.0)
REAL_TIME = Habit(median=1.2, sigma=0.5, most=6.0)
BETWEEN_GAMES = (2.0, 10.0)


class Pace:
    def __init__(self, scale: float, rnd: random.Random):
        if scale < 0 or not math.isfinite(scale):
            raise ValueError(f"a think-time scale is a number from 0 (flat out) up, not {scale}")
        self.scale, self.rnd = scale, rnd

    def turn(self) -> float:
        return self.scale and self.scale * TURN_BASED.draw(self.rnd)

    def real_time(self) -> float:
        return self.scale and self.scale * REAL_TIME.draw(self.rnd)

    def between_games(self) -> float:
        return self.scale and self.scale * self.rnd.uniform(*BETWEEN_GAMES)
