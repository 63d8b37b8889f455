"""A small test table for 21Moon: given events, when a command, then events or a refusal."""
from __future__ import annotations

import pytest

from moon21 import events as E
from moon21.board.geometry import mineral_cubes
from moon21.game import GAME
from moon21.options import table_options
from moon21.rules import rules
from starbase_rules.contract import RuleViolation, fold


def default_minerals() -> dict[str, str]:
    return dict(zip(rules()["mineral_hexes"], mineral_cubes()))


class Table:
    def __init__(self, players=("ann", "bob", "cy"), held_back="KR", cash=None, options=None):
        self.players = list(players)
        cash = cash if cash is not None else rules()["starting_cash"][len(players)]
        resolved = table_options(options) if options is not None else {}
        self.state = fold(GAME, [E.GameSetUp(players=self.players, held_back=held_back,
                                             minerals=default_minerals(), starting_cash=cash, options=resolved)])

    def given(self, *events) -> "Table":
        for event in events:
            self.state = GAME.evolve(self.state, event)
            broken = GAME.invariants(self.state)
            assert not broken, broken
        return self

    def do(self, actor: str, command) -> list:
        if isinstance(command, dict):
            command = GAME.parse_command(command)
        events = GAME.decide(self.state, command, actor, None)
        self.given(*events)
        return events

    def refused(self, actor: str, command) -> str:
        if isinstance(command, dict):
            command = GAME.parse_command(command)
        before = GAME.view(self.state, None)
        with pytest.raises(RuleViolation) as refusal:
            GAME.decide(self.state, command, actor, None)
        assert GAME.view(self.state, None) == before, "a refused command changed the state"
        return refusal.value.code

    def cash(self, holder: str) -> int:
        return self.state.cash(holder)

    def price(self, corp: str) -> int:
        return self.state.price(corp)

    # -- common situations -------------------------------------------------------------------
    def stock_round(self, set_no: int = 1) -> "Table":
        return self.given(E.RoundStarted(kind="SR", set_no=set_no))

    def start(self, player: str, corp: str, par: int, extra_shares: int = 0) -> "Table":
        self.given(E.CorporationStarted(player=player, corp=corp, par=par))
        for n in range(1, extra_shares + 1):
            self.given(E.ShareBought(buyer=f"p:{player}", cert=f"{corp}_{n}", source="ipo", price=par))
        return self

    def hand(self, holder: str, corp: str, numbers, source="ipo") -> "Table":
        for n in numbers:
            self.given(E.ShareBought(buyer=holder, cert=f"{corp}_{n}", source=source,
                                     price=self.state.price(corp)))
        return self


@pytest.fixture
def table():
    return Table
