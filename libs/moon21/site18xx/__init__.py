"""21Moon games of 18xx.games, the game's most-played online home: read, replay, write back.

- `gamefile`: the site's saved-game JSON (players, seed, actions with undo and redo) checked and
  reduced to the actions that count (`effective_moves`).
- `setup`: the minerals and the held-back corporation, placed from the site's seed as the site does.
- `names`: the site's identifiers (companies, tile copies, depots, trains, share prices) and ours.
- `importer`: each action mapped to Starbase commands and submitted through the engine (`import_game`).
- `exporter`: a game played here written as the site's actions (`export_game`).

Pure like the engine (no I/O): the `starbase import 18xx` / `starbase export --format 18xx` commands
(`starbase_cli.site18xx`) read and write the files. Facts about the site's format and rules were read
from its public code (tobymao/18xx) and its saved games; see `docs/moon21.md`.
"""
