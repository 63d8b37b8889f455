"""Given-when-then helpers: a real game from setup, then arranged by small, count-keeping edits.

Arranging moves pieces from their supplies (outposts, ships, cash from the bank) so the engine's
invariants still hold, and `when` checks that a refused command leaves the state untouched.
"""
from __future__ import annotations

import copy

import pytest

from starbase_rules.contract import RuleViolation, fold
from starbase_rules.fair import FairRng
from stellar.game import GAME
from stellar.state import BANK, CorpTurn, InvestorStep, liquid, treasury


class Table:
    def __init__(self, players=("ann", "bob", "cy"), options=None, seed=b"given"):
        self.rng = FairRng(seed)
        self.events = GAME.setup(list(players), dict(options or {}), self.rng)
        self.state = fold(GAME, self.events)

    # -- when ----------------------------------------------------------------------------------
    def do(self, actor, command):
        new = GAME.decide(self.state, command, actor, self.rng)
        self.events += new
        for event in new:
            self.state = GAME.evolve(self.state, event)
            assert GAME.invariants(self.state) == [], (event, GAME.invariants(self.state))
        return new

    def refused(self, actor, command, code):
        before = copy.deepcopy(self.state)
        with pytest.raises(RuleViolation) as caught:
            GAME.decide(self.state, command, actor, self.rng)
        assert caught.value.code == code, caught.value
        assert caught.value.message
        assert self.state == before
        return caught.value

    # -- given ---------------------------------------------------------------------------------
    def corp(self, corp_id):
        return self.state.corps[corp_id]

    def cash(self, holder, amount):
        """Set a holder's cash to `amount` (moving the difference to or from the bank)."""
        ledger = self.state.ledger
        difference = amount - ledger.balance(holder)
        if difference > 0:
            ledger.move(BANK, holder, difference)
        elif difference < 0:
            ledger.move(holder, BANK, -difference)

    def treasury(self, corp_id, amount):
        self.cash(treasury(corp_id), amount)

    def liquid(self, player, amount):
        self.cash(liquid(player), amount)

    def outpost(self, corp_id, *hexes):
        for hex_key in hexes:
            self.state.outposts.setdefault(hex_key, []).append(corp_id)
            self.state.corps[corp_id].supply -= 1
            if hex_key == "mega_earth":     # the bottom-most empty box
                taken = set(self.state.mega_boxes.values())
                self.state.mega_boxes[corp_id] = min(set(range(5)) - taken)

    def shares(self, corp_id, president=None, aliens=0, **holders):
        corp = self.corp(corp_id)
        for player, count in list(corp.holders.items()):
            corp.charter += count
        corp.holders = {}
        for player, count in holders.items():
            corp.holders[player] = count
            corp.charter -= count
        corp.charter -= aliens
        corp.aliens += aliens
        corp.signed = corp.signed or aliens > 0      # the alien share comes from signing The Agreement
        corp.president = president or max(holders, key=holders.get)

    def ship(self, corp_id, level, delivered=True):
        s = self.state
        if s.shipyard[level] > 0:
            s.shipyard[level] -= 1
        else:                       # an emptied section: the ship was counted as gone
            s.ships_out[level] -= 1
        (s.corps[corp_id].delivered if delivered else s.corps[corp_id].ordered).append(level)
        if delivered:
            s.corps[corp_id].cargo = min(13, s.corps[corp_id].cargo + level)

    def empty_section(self, level):
        s = self.state
        s.ships_out[level] += s.shipyard[level]
        s.shipyard[level] = 0
        s.opened_sections.append(level)

    def cubes(self, player, count):
        s = self.state
        s.cube_supply -= count - s.investors[player].cubes
        s.investors[player].cubes = count

    def power(self, corp_id, *powers):
        """Give `corp_id` exactly these powers, taking each from wherever it was (row, pile, a corporation)."""
        s = self.state
        for power in powers:
            for where in [s.powers_row, s.powers_pile] + [c.powers for c in s.corps.values()]:
                if power in where and power not in ("alien_explorers", "secret_agents"):
                    where.remove(power)
        self.corp(corp_id).powers = list(powers)

    def corporation_turn(self, corp_id, step="issue", forced_ship=False):
        s = self.state
        s.pending, s.auction, s.build, s.inv = [], None, None, None
        s.round = "corporation"
        s.corp_index = s.turn_order.index(corp_id)
        s.corp_turn = CorpTurn(corp_id, step, forced_ship=forced_ship)

    def investor_step(self, step, seat=0, part="investor"):
        s = self.state
        s.pending, s.auction, s.build, s.corp_turn = [], None, None, None
        s.round = "investor"
        s.inv = InvestorStep(step, seat=seat, part=part)


def types(events):
    return [e.type for e in events]


def of_type(events, kind):
    return [e for e in events if e.type == kind]


def auction_table(players=("ann", "bob", "cy"), options=None):
    """A table after setup: the initial auction is open."""
    return Table(players, options)


def started_table(players=("ann", "bob", "cy"), options=None):
    """A table past the initial auction (New Investor Setup), in era 1's first corporation turn."""
    return Table(players, {"new_investor_setup": True, **(options or {})})
