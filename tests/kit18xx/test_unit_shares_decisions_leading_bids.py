"""Kit pieces first needed by 2038: presidency on share units, the decision queue, leading-bid tables."""
import pytest

from kit18xx.auction import leader_of, leading_commitment, resolution_order
from kit18xx.decisions import DecisionQueue
from kit18xx.unit_shares import certificates_for_units, president_after_sale, takes_presidency
from starbase_rules.contract import RuleViolation

SEATS = ["ann", "bob", "cy", "dee"]


def test_a_president_selling_below_a_holder_of_two_units_hands_over_to_the_first_clockwise():
    # given ann (President) sold down to 2 units; cy and dee hold 3 each
    holdings = {"ann": 2, "bob": 1, "cy": 3, "dee": 3}
    # then the certificate goes to cy, first clockwise from ann among the largest holders
    assert president_after_sale(holdings, "ann", SEATS) == "cy"


def test_a_president_keeps_the_certificate_when_nobody_else_holds_its_two_units():
    # given ann sold down to 1 unit and everyone else holds 1
    holdings = {"ann": 1, "bob": 1, "cy": 1, "dee": 0}
    assert president_after_sale(holdings, "ann", SEATS) is None
    # a bigger President's certificate raises the bar: 3 units needed
    assert president_after_sale({"ann": 0, "bob": 2}, "ann", SEATS, president_units=3) is None
    assert president_after_sale({"ann": 0, "bob": 3}, "ann", SEATS, president_units=3) == "bob"


def test_equal_holdings_after_a_sale_leave_the_president_in_place():
    assert president_after_sale({"ann": 3, "bob": 3}, "ann", SEATS) is None


def test_a_buyer_takes_the_presidency_only_by_holding_strictly_more():
    assert takes_presidency({"ann": 3, "bob": 3}, "ann", "bob") is False
    assert takes_presidency({"ann": 3, "bob": 4}, "ann", "bob") is True
    assert takes_presidency({"ann": 5}, "ann", "ann") is False
    assert takes_presidency({"bob": 2}, None, "bob") is False


def test_the_presidents_certificate_counts_once_for_its_units():
    assert certificates_for_units(4, is_president=True) == 3
    assert certificates_for_units(4, is_president=False) == 4
    assert certificates_for_units(5, is_president=True, president_units=3) == 3
    assert certificates_for_units(0, is_president=False) == 0


def test_decisions_are_answered_in_order_by_their_decider_then_play_resumes():
    # given two merge offers queued at a formation, resuming the operating round afterwards
    queue = DecisionQueue()
    queue.add([["merge", "bob", 3, "formation"], ["merge", "cy", 5, "formation"]], then="operating")
    assert queue and queue.decider() == "bob" and queue.then == "operating"
    # when cy tries to answer first, then it is refused
    with pytest.raises(RuleViolation) as refused:
        queue.require_decider("cy")
    assert refused.value.code == "NOT_YOUR_TURN"
    # when bob answers, cy is next; the resume point stays until the last answer
    assert queue.require_decider("bob") == ["merge", "bob", 3, "formation"]
    assert queue.resolve() == ["merge", "bob", 3, "formation"]
    assert queue.decider() == "cy" and queue.then == "operating"
    queue.resolve()
    assert not queue and queue.then == "" and queue.decider() is None


def test_later_decisions_queue_behind_waiting_ones_and_an_empty_queue_refuses():
    queue = DecisionQueue()
    with pytest.raises(RuleViolation) as refused:
        queue.require_decider("ann")
    assert refused.value.code == "NO_DECISION"
    queue.add([["deal", "ann", 0, {"ship": "s4"}]], then="operating")
    queue.add([["form", "dee", 11, ""]])
    assert [d[1] for d in queue.waiting] == ["ann", "dee"] and queue.then == "operating"


def test_only_leading_bids_tie_up_money_and_resolution_starts_left_of_the_leader():
    table = {4: {"ann": 60, "bob": 65}, 5: {"ann": 90}, 6: {"cy": 80, "ann": 85}}
    assert leader_of(table[4]) == ("bob", 65) and leader_of({}) == ("", 0)
    # ann leads 5 and 6, not 4 (bob overbid her)
    assert leading_commitment(table, "ann") == 175
    assert leading_commitment(table, "ann", except_items=(6,)) == 90
    assert leading_commitment(table, "dee") == 0
    # bidders on 6 are cy and ann, ann leads: cy acts first, the leader last
    assert resolution_order(SEATS, table[6], "ann") == ["cy", "ann"]
    assert resolution_order(SEATS, {"ann": 1, "bob": 2, "dee": 3}, "bob") == ["dee", "ann", "bob"]
