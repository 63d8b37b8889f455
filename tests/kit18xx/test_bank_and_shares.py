import pytest

from kit18xx.bank import BANK, Ledger
from kit18xx.bankruptcy import corporation_removal, successor_after_bankruptcy
from kit18xx.limits import certificate_count, may_buy_more, pool_room
from kit18xx.shares import IPO, POOL, REMOVED, ShareRegistry, presidency_successor
from starbase_rules import RuleViolation


def test_cash_moves_between_named_holders_and_total_is_conserved():
    ledger = Ledger()
    ledger.open(BANK, 1000)
    ledger.move(BANK, "p:ann", 300)
    ledger.move("p:ann", "c:VH", 120)
    assert (ledger.balance(BANK), ledger.balance("p:ann"), ledger.balance("c:VH")) == (700, 180, 120)
    assert ledger.total() == 1000


def test_a_holder_cannot_pay_more_than_it_has():
    ledger = Ledger({"p:ann": 10})
    with pytest.raises(RuleViolation) as refusal:
        ledger.move("p:ann", BANK, 11)
    assert refusal.value.code == "INSUFFICIENT_FUNDS"
    assert ledger.balance("p:ann") == 10


def registry_with(holdings: dict[str, list[int]]) -> ShareRegistry:
    registry = ShareRegistry()
    registry.add_corporation("VH")
    for holder, numbers in holdings.items():
        for n in numbers:
            registry.move(f"VH_{n}", holder)
    return registry


def test_a_corporation_has_a_twenty_percent_presidents_certificate_and_eight_tens():
    registry = registry_with({})
    assert registry.held_percent("VH", IPO) == 100
    assert registry.percent["VH_0"] == 20 and registry.percent["VH_8"] == 10


def test_equal_holdings_do_not_change_presidency():
    registry = registry_with({"p:a": [0, 1], "p:b": [2, 3, 4]})
    seats = ["a", "b", "c"]
    holder = {p: f"p:{p}" for p in seats}
    assert presidency_successor(registry, "VH", seats, holder, "a") == "a"


def test_presidency_passes_clockwise_on_tie_from_outgoing_presidents_left():
    # a (president) holds 20, d and b hold 30 each: b sits closer to a's left than d.
    registry = registry_with({"p:a": [0], "p:b": [1, 2, 3], "p:d": [4, 5, 6]})
    seats = ["a", "b", "c", "d"]
    holder = {p: f"p:{p}" for p in seats}
    assert presidency_successor(registry, "VH", seats, holder, "a") == "b"
    seats = ["a", "d", "c", "b"]
    assert presidency_successor(registry, "VH", seats, holder, "a") == "d"


def test_presidency_swap_exchanges_two_tens_for_the_presidents_certificate():
    registry = registry_with({"p:a": [0], "p:b": [1, 2, 3]})
    handed = registry.swap_presidency("VH", "p:a", "p:b")
    assert registry.president_of("VH") == "p:b"
    assert handed == ["VH_1", "VH_2"]
    assert registry.held_percent("VH", "p:a") == 20 and registry.held_percent("VH", "p:b") == 30


def test_limits_count_certificates_and_cap_holdings():
    registry = registry_with({"p:a": [0, 1, 2], POOL: [4, 5]})
    assert certificate_count(registry, "p:a", privates=2) == 5
    assert may_buy_more(registry, "VH", "p:a", 50)
    registry.move("VH_3", "p:a")
    assert not may_buy_more(registry, "VH", "p:a", 50)
    assert pool_room(registry, "VH", POOL, 50) == 30


def test_bankrupt_presidents_successor_needs_twenty_percent_and_ties_go_left():
    registry = registry_with({"p:a": [0, 1], "p:b": [2], "p:c": [3, 4], "p:d": [5, 6]})
    seats = ["a", "b", "c", "d"]
    holder = {p: f"p:{p}" for p in seats}
    assert successor_after_bankruptcy(registry, "VH", seats, holder, "a") == "c"
    registry = registry_with({"p:a": [0, 1], "p:b": [2]})
    assert successor_after_bankruptcy(registry, "VH", seats, holder, "a") is None


def test_closed_corporation_certificates_leave_the_game_and_its_holdings_go_to_pool():
    registry = registry_with({"p:a": [0]})
    registry.add_corporation("SSF")
    registry.move("SSF_3", "c:VH")
    moves = dict(corporation_removal(registry, "VH", "c:VH"))
    assert moves["SSF_3"] == POOL
    assert all(moves[f"VH_{n}"] == REMOVED for n in range(9))


def test_a_broken_bank_may_pay_on_credit_and_money_stays_conserved():
    ledger = Ledger({BANK: 10, "p:a": 0})
    ledger.move(BANK, "p:a", 30, may_owe=True)
    assert ledger.balance(BANK) == -20 and ledger.total() == 10


def test_successor_by_holdings_works_on_plain_units():
    from kit18xx.shares import successor_by_holdings
    seats = ["a", "b", "c", "d"]
    assert successor_by_holdings({"a": 2, "b": 3, "d": 3}, seats, "a") == "b"
    assert successor_by_holdings({"a": 3, "b": 3}, seats, "a") == "a"
    assert successor_by_holdings({"a": 5, "c": 1}, seats, "a", minimum=2, outgoing_may_keep=False) is None
