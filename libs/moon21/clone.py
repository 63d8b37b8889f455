"""A fast, independent copy of a game state, for `decide` (which must never touch the caller's state).

`copy.deepcopy` walks every object through its memo and `__reduce_ex__` machinery and dominated the cost
of `decide` (and `legal_actions`, which decides once per candidate). The state is a tree of plain
dataclasses, dicts, lists and atoms with no object reachable twice, so a memo is not needed: the biggest
parts (the board — `Board.copy` —, the certificates, the cash ledger, the corporations) are copied by hand with `dict()`/`list()`, and the
rest by a small type-dispatched walker that also picks up any field added later.

The result shares no mutable object with the original (only atoms, tuples of atoms and frozensets);
`tests/moon21/test_clone.py` checks this, and equality, on every position of bot games.
"""
from __future__ import annotations

from kit18xx.bank import Ledger
from kit18xx.market import MarketState
from kit18xx.shares import ShareRegistry
from moon21.board.state import Board
from moon21.state import Corp, State

ATOMS = frozenset({int, str, float, bool, type(None), frozenset})


def clone(x):
    """Copy of a tree of dicts, lists, tuples and dataclass instances (no shared or cyclic parts)."""
    t = type(x)
    if t in ATOMS:
        return x
    if t is dict:
        return {k: v if type(v) in ATOMS else clone(v) for k, v in x.items()}
    if t is list:
        return [v if type(v) in ATOMS else clone(v) for v in x]
    if t is tuple:
        if all(type(v) in ATOMS for v in x):
            return x                                      # immutable all the way down: share it
        return tuple(v if type(v) in ATOMS else clone(v) for v in x)
    special = _BY_TYPE.get(t)
    if special is not None:
        return special(x)
    if not hasattr(x, "__dataclass_fields__") or getattr(x, "__slots__", None) is not None:
        raise TypeError(f"cannot clone a {t.__name__} held in the game state")
    new = object.__new__(t)
    new.__dict__.update({k: v if type(v) in ATOMS else clone(v) for k, v in x.__dict__.items()})
    return new


def clone_shallow(x, flat: frozenset):
    """Copy of a dataclass but for its `flat` fields, which the caller copies by hand (any other field,
    such as one added later, is cloned)."""
    new = object.__new__(type(x))
    d = new.__dict__
    for k, v in x.__dict__.items():
        if k not in flat:
            d[k] = v if type(v) in ATOMS else clone(v)
    return new


_LEDGER_FLAT = frozenset({"cash"})
_SHARES_FLAT = frozenset({"location", "percent"})
_MARKET_FLAT = frozenset({"positions", "stacks"})
_CORP_FLAT = frozenset({"depots_left", "transports", "bonus_tokens"})


def _clone_ledger(ledger: Ledger) -> Ledger:
    new = clone_shallow(ledger, _LEDGER_FLAT)
    new.cash = dict(ledger.cash)                          # holder -> int
    return new


def _clone_shares(shares: ShareRegistry) -> ShareRegistry:
    new = clone_shallow(shares, _SHARES_FLAT)
    new.location = dict(shares.location)                  # certificate -> holder
    new.percent = dict(shares.percent)                    # certificate -> int
    return new


def _clone_market(market: MarketState) -> MarketState:
    new = clone_shallow(market, _MARKET_FLAT)
    new.positions = dict(market.positions)                # corp -> (row, col), tuples of ints
    new.stacks = {box: list(tokens) for box, tokens in market.stacks.items()}
    return new


def _clone_corp(corp: Corp) -> Corp:
    new = clone_shallow(corp, _CORP_FLAT)
    new.depots_left = list(corp.depots_left)
    new.transports = {base: list(types) for base, types in corp.transports.items()}
    new.bonus_tokens = list(corp.bonus_tokens)
    return new


_BY_TYPE = {Board: Board.copy, Ledger: _clone_ledger, ShareRegistry: _clone_shares,   # Board.copy: by hand too
            MarketState: _clone_market, Corp: _clone_corp}


def clone_state(state: State) -> State:
    """An independent copy of `state`, equal to it (`==`), cheap enough to take on every `decide`."""
    return clone(state)
