"""`kit18xx.round_steps`: a round's steps declare the commands they accept; anything else is refused with
the step's own code and message, and an undeclared step accepts nothing."""
from typing import Literal

import pytest

from kit18xx.round_steps import RoundSteps
from starbase_rules.contract import Command, RuleViolation


class Buy(Command):
    type: Literal["Buy"] = "Buy"
    amount: int = 1


class Sell(Command):
    type: Literal["Sell"] = "Sell"


class Run(Command):
    type: Literal["Run"] = "Run"


class Tx:
    def __init__(self, state):
        self.state, self.played = state, []


def steps() -> RoundSteps:
    table = RoundSteps()
    table.step("stock", "shares", refusal=("NOT_NOW", lambda state, command: f"{command.type} in {state}"))
    table.step("operating", "routes", refusal=("RUN_FIRST", lambda state, command: "run routes first"))

    @table.accepts("stock", "shares", Buy, Sell)
    def trade(tx, command, actor):
        tx.played.append(("trade", command.type, actor))

    @table.accepts("operating", "routes", Run)
    def run(tx, command, actor):
        tx.played.append(("run", command.type, actor))
    return table


def test_a_step_plays_the_commands_it_accepts_with_their_handler():
    table, tx = steps(), Tx("SR 1")
    table.play(("stock", "shares"), tx, Buy(amount=3), "ann")
    table.play(("stock", "shares"), tx, Sell(), "bob")
    table.play(("operating", "routes"), tx, Run(), "cy")
    assert tx.played == [("trade", "Buy", "ann"), ("trade", "Sell", "bob"), ("run", "Run", "cy")]
    assert table.accepted(("stock", "shares")) == ("Buy", "Sell")
    assert table.accepted(("operating", "routes")) == ("Run",) and table.accepted(("stock", "none")) == ()
    assert table.steps() == (("stock", "shares"), ("operating", "routes"))


def test_a_command_the_step_does_not_accept_gets_the_steps_refusal():
    table, tx = steps(), Tx("SR 1")
    with pytest.raises(RuleViolation) as refused:
        table.play(("stock", "shares"), tx, Run(), "ann")
    assert (refused.value.code, refused.value.message) == ("NOT_NOW", "Run in SR 1")
    with pytest.raises(RuleViolation) as refused:
        table.play(("operating", "routes"), tx, Buy(), "ann")
    assert (refused.value.code, refused.value.message) == ("RUN_FIRST", "run routes first")
    assert tx.played == []


def test_an_undeclared_step_accepts_nothing():
    with pytest.raises(RuleViolation) as refused:
        steps().play(("operating", ""), Tx("OR"), Run(), "ann")
    assert refused.value.code == "NOT_NOW" and "operating round, step none" in refused.value.message


def test_declaring_twice_or_out_of_order_is_a_programming_error():
    table = steps()
    with pytest.raises(ValueError, match="declared twice"):
        table.step("stock", "shares", refusal=("NOT_NOW", lambda state, command: ""))
    with pytest.raises(ValueError, match="already accepts Buy"):
        table.accepts("stock", "shares", Buy)(lambda tx, command, actor: None)
    with pytest.raises(ValueError, match="declare step"):
        table.accepts("merger", "vote", Buy)
