"""The 21Moon rules engine (pure): `moon21.game:GAME`, on the engine base (`starbase_rules.Engine`),
implements the Starbase decider contract.

Layout (data first, then one module per concern):

- `data/entities.yaml`, `data/market.yaml` — facts; `rules.py` loads them. `RULINGS.md` — rulings.
- `rules.py` also holds `RULES`, the registry of decide and evolve handlers.
- `state.py` — the dataclasses and `OR_STEPS`; `commands.py`, `events.py` — the pydantic models;
  `evolve.py`, `evolve_operating.py` — events → state.
- `decide.py` — `to_act` and the command handler (which round's rules read a command); decisions run
  on the base's scratchpad (`Tx`); `scratch.py` — a throwaway one for "would this be accepted?" probes.
- `isr.py` (waterfall auction), `stock.py` (stock rounds), `corporate.py` (corporate rounds),
  `trading.py` (selling, buying, presidency shared by all three).
- `operating.py` (tiles, depots, transports, steps), `earnings.py` (runs and payouts), `privates.py`
  (private powers and revenue), `deals.py` (purchases needing consent), `bankruptcy.py` (emergency
  money raising and bankruptcies), `flow.py` (round sequence, automatic steps, receivership, game end).
- `options.py` (every table option, declared once; `INFO`, the game's declaration), `forced.py`
  (passes the engine plays itself).
- `legal.py`, `bots.py`, `view.py`, `checks.py` (invariants), `game.py` (the `GAME` object).
- `site18xx/` — games of 18xx.games: import, setup from the site's seed, export.
- `board/` — the map, tiles and route engine (its own package and owner).
"""
