"""The shared 18xx kit: game-neutral machinery that 21Moon and 2038 build on, parameterised by data.

Modules (each says what it offers in its own docstring):

- `bank`      cash held by named holders; every move names its source and destination (money is conserved)
- `shares`    certificates and where each one lies; holdings, presidency and its clockwise tie-break
- `limits`    certificate and holding limits
- `market`    the stock-market grid, token stacks, movement with data-driven edge rules, price order
- `auction`   the waterfall auction of private companies with resolution auctions and all-pass drops;
              bid tables where only leading bids tie up money (no price drops: 1829 family, 2038)
- `turns`     stock-round turn order (priority deal, all passed consecutively) and operating order
- `emergency` emergency money raising: how many shares may be sold, what can be raised
- `bankruptcy` what happens to certificates when a player or a corporation goes bankrupt
- `unit_shares` presidency and certificate counts for shares kept as units per holder
- `decisions` a queue of out-of-turn decisions (consents, merge offers, optional formations)
- `rounds`    rounds as lists of steps, each declaring the commands it accepts (its legal-move kinds),
              whether it blocks and when it is skipped; the order (next, earlier, last); who plays each
              command of each step

Holders are plain strings chosen by the game (e.g. "bank", "pool", "ipo", "p:ann", "c:VH") so states
stay JSON-friendly and comparable. Kit functions either answer questions (pure) or mutate the small
dataclasses they are given (for a game's `evolve`); they raise `RuleViolation` for refusals.
"""
