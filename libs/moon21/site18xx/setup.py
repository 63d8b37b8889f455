"""The setup of a game of the site, re-derived from its seed as the site derives it.

The site's saved games record no mineral cubes: its engine draws them at setup from the game's seed
with a linear congruential generator (state <- (1103515245 * state + 12345) mod 2**31, starting from
seed mod 2**31). The first 17 draws go to the mineral hexes in the site's fixed order; sorted by draw,
the hexes take 3 Source-X, 4 Helium-3, 4 Regolith, 4 Armalcolite and 2 Lithium. The next 7 draws go
to the corporations in the site's order; the smallest is held back until stock round 3. The seat
order is the file's player order. (Facts from the site's public code; see docs/moon21.md.)
"""
from __future__ import annotations

from moon21 import events as E
from moon21.rules import rules

ORIGIN = "18xx.games"
A, C, M = 1_103_515_245, 12_345, 2**31
SITE_MINERAL_HEXES = ("A7", "A9", "B4", "B12", "D10", "E15", "F2", "H10", "I7", "J2", "J10", "K5", "K13",
                      "L10", "H2", "E5", "G13")
SITE_CORPORATIONS = ("SSF", "SWP", "HMQ", "VH", "ITC", "LG", "KR")
MINERALS_BY_DRAW = (("Source-X", 3), ("Helium-3", 4), ("Regolith", 4), ("Armalcolite", 4), ("Lithium", 2))


def draws(seed: int, count: int) -> list[int]:
    state, out = seed % M, []
    for _ in range(count):
        state = (A * state + C) % M
        out.append(state)
    return out


def site_setup(seed: int) -> tuple[dict[str, str], str]:
    """(minerals by hex, held-back corporation) as the site places them for `seed`."""
    drawn = draws(seed, len(SITE_MINERAL_HEXES) + len(SITE_CORPORATIONS))
    by_draw = sorted(zip(drawn, SITE_MINERAL_HEXES))       # Ruby's sort_by: stable, and draws differ
    cubes = [name for name, count in MINERALS_BY_DRAW for _ in range(count)]
    minerals = {hex_id: cube for (_, hex_id), cube in zip(by_draw, cubes)}
    corp_draws = drawn[len(SITE_MINERAL_HEXES):]
    held_back = SITE_CORPORATIONS[corp_draws.index(min(corp_draws))]
    return minerals, held_back


def setup_events(players: list[str], resolved_options: dict, origin: dict) -> list:
    """The engine's setup events for an imported game (seats as given; no draws of our own): from the
    site's seed (`origin["seed"]`), or as a Starbase export recorded it (`origin["setup"]`)."""
    if "setup" in origin:
        given = origin["setup"]
        minerals, held_back = dict(given["minerals"]), str(given["held_back"])
    else:
        minerals, held_back = site_setup(int(origin["seed"]))
    return [E.GameSetUp(players=list(players), held_back=held_back, minerals=dict(sorted(minerals.items())),
                        starting_cash=rules()["starting_cash"][len(players)], options=resolved_options),
            E.RoundStarted(kind="ISR")]
