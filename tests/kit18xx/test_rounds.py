"""`kit18xx.rounds`: a round is a list of steps, each declaring the commands it accepts, whether it blocks
and when it is skipped; the order questions rules ask; and `Rounds`, where a step's commands are played
by their handlers and anything else is refused with the step's own code and message."""
import dataclasses
from typing import Literal

import pytest

from kit18xx.rounds import Round, Rounds, Step
from starbase_rules.contract import Command, RuleViolation

# 21Moon's operating turn: tiles and token do not block (running early skips them).
OPERATING = Round("operating", (Step("tiles", accepts=("LayTile", "LayTerminal"), blocks=False),
                                Step("token", accepts=("PlaceDepot",), blocks=False),
                                Step("run", accepts=("RunTransports",)),
                                Step("buy", accepts=("BuyTransport",), skipped=lambda state: state == "bank empty")))


def test_each_step_is_followed_by_the_next_and_the_last_by_the_end_of_the_turn():
    assert [OPERATING.after(s) for s in OPERATING.names] == ["token", "run", "buy", None]
    assert OPERATING.first == "tiles"
    assert [OPERATING.is_last(s) for s in OPERATING.names] == [False, False, False, True]


def test_before_compares_positions_in_the_round():
    assert OPERATING.before("tiles", "run") and OPERATING.before("token", "run")
    assert not OPERATING.before("run", "run") and not OPERATING.before("buy", "run")


def test_a_step_with_nothing_to_do_in_this_state_is_skipped():
    assert OPERATING.next_step("run", "bank open") == "buy"
    assert OPERATING.next_step("run", "bank empty") is None          # the turn ends instead
    assert OPERATING.next_step("tiles", "bank empty") == "token"     # a step without `skipped` never is


def test_a_non_blocking_step_lets_later_steps_commands_through_up_to_the_first_blocking_one():
    table = {kind: [OPERATING.allows(step, kind) for step in OPERATING.names]
             for kind in ("LayTile", "LayTerminal", "PlaceDepot", "RunTransports", "BuyTransport", "Pass")}
    assert table == {"LayTile": [True, False, False, False], "LayTerminal": [True, False, False, False],
                     "PlaceDepot": [True, True, False, False], "RunTransports": [True, True, True, False],
                     "BuyTransport": [False, False, False, True],
                     "Pass": [True, True, True, True]}      # a command no step accepts: the whole round's
    assert OPERATING.accepted("tiles") == ("LayTile", "LayTerminal", "PlaceDepot", "RunTransports")
    assert OPERATING.accepted("buy") == ("BuyTransport",)


@pytest.mark.parametrize("names", [(), ("tiles", "tiles")])
def test_a_round_needs_distinct_steps(names):
    with pytest.raises(ValueError) as refused:
        Round("operating", tuple(Step(name) for name in names))
    assert str(refused.value) == f"a round needs distinct steps, not {names!r}"


def test_a_round_is_a_fixed_declaration():
    with pytest.raises(dataclasses.FrozenInstanceError):
        OPERATING.steps = ()


def test_an_unknown_step_is_an_error_naming_it():
    with pytest.raises(ValueError) as refused:
        OPERATING.after("dividends")
    assert str(refused.value) == ("'dividends' is not a step of the operating round "
                                  "('tiles', 'token', 'run', 'buy')")
    for question in (lambda: OPERATING.before("tiles", "dividends"), lambda: OPERATING.allows("dividends", "Pass")):
        with pytest.raises(ValueError, match="'dividends' is not a step"):
            question()


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


def steps() -> Rounds:
    table = Rounds()
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
    assert table.round("stock") == Round("stock", (Step("shares", accepts=("Buy", "Sell")),))


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


def test_a_step_that_does_not_block_plays_the_next_steps_commands_too():
    table, tx = Rounds(), Tx("OR")
    table.step("operating", "tiles", refusal=("WRONG_STEP", lambda state, command: "not now"), blocks=False)
    table.step("operating", "routes", refusal=("RUN_FIRST", lambda state, command: "run routes first"))
    table.step("operating", "buy", refusal=("NOT_NOW", lambda state, command: "buy or pass"))
    table.accepts("operating", "tiles", Buy)(lambda tx, command, actor: tx.played.append(("lay", actor)))
    table.accepts("operating", "routes", Run)(lambda tx, command, actor: tx.played.append(("run", actor)))
    table.accepts("operating", "buy", Sell)(lambda tx, command, actor: tx.played.append(("sell", actor)))
    table.play(("operating", "tiles"), tx, Run(), "ann")                 # running early skips laying
    assert tx.played == [("run", "ann")] and table.accepted(("operating", "tiles")) == ("Buy", "Run")
    with pytest.raises(RuleViolation) as refused:
        table.play(("operating", "tiles"), tx, Sell(), "ann")            # the routes step blocks
    assert (refused.value.code, refused.value.message) == ("WRONG_STEP", "not now")
    with pytest.raises(RuleViolation) as refused:
        table.play(("operating", "routes"), tx, Buy(), "ann")
    assert refused.value.code == "RUN_FIRST" and tx.played == [("run", "ann")]
