"""Choices the rules leave to the owner: which battery components pay, which goods go among goods of
equal value, and how cargo is arranged when goods are gained. Given ships in flight, when the owner
chooses (or lets the clock run out), then the events; every refusal changes nothing."""
from trucker_rules import flight_messages as f
from trucker_rules.game import GAME
from tests.trucker_rules.trucker_helpers import FlightTable, crewed, ship_of

MISS = (1, 1)


def cabin_only(cabin="start-green"):
    return crewed(ship_of({}, cabin=cabin))


def refused_changes_nothing(table, actor, command, code):
    before = repr(table.state)
    table.refused(actor, command, code)
    assert repr(table.state) == before


# ------------------------------------------------------------------------------- batteries
def _engine_ship(batteries):
    # a double engine and two battery components: bat2-01 at (8, 7), bat3-04 at (7, 6)
    return crewed(ship_of({(7, 8): ("eng-19", 0), (6, 7): ("deng-06", 0), (8, 7): ("bat2-01", 0),
                           (7, 6): ("bat3-04", 3)}), batteries=batteries)


def test_the_owner_names_the_battery_that_powers_a_double_engine():
    table = FlightTable({"ann": _engine_ship({(8, 7): 2, (7, 6): 3}), "bob": cabin_only()},
                        {"ann": 0, "bob": -2}, "I-01")
    table.do("ann", f.PowerEngines(count=1, batteries=[(8, 7)]))      # not the fullest one
    assert table.of("BatteriesSpent") == [f.BatteriesSpent(player="ann", squares=[(8, 7)])]
    assert table.of("ShipMoved", player="ann") == [f.ShipMoved(player="ann", days=3, position=3)]


def test_left_unnamed_the_fullest_battery_pays():
    table = FlightTable({"ann": _engine_ship({(8, 7): 2, (7, 6): 3}), "bob": cabin_only()},
                        {"ann": 0, "bob": -2}, "I-01")
    table.do("ann", f.PowerEngines(count=1))
    assert table.of("BatteriesSpent") == [f.BatteriesSpent(player="ann", squares=[(7, 6)])]


def test_naming_batteries_wrongly_is_refused_and_changes_nothing():
    table = FlightTable({"ann": _engine_ship({(8, 7): 0, (7, 6): 3}), "bob": cabin_only()},
                        {"ann": 0, "bob": -2}, "I-01")
    refused_changes_nothing(table, "ann", f.PowerEngines(count=1, batteries=[]), "WRONG_BATTERY_COUNT")
    refused_changes_nothing(table, "ann", f.PowerEngines(count=0, batteries=[(7, 6)]), "WRONG_BATTERY_COUNT")
    refused_changes_nothing(table, "ann", f.PowerEngines(count=1, batteries=[(6, 7)]), "NOT_A_BATTERY")
    refused_changes_nothing(table, "ann", f.PowerEngines(count=1, batteries=[(8, 7)]), "BATTERY_EMPTY")
    assert table.ask["kind"] == "engines" and not table.of("BatteriesSpent")


def test_two_tokens_from_one_battery_must_be_there():
    ann = crewed(ship_of({(7, 6): ("dcan-01", 0), (6, 7): ("dcan-01", 0), (8, 7): ("bat2-01", 0),
                          (7, 8): ("bat3-04", 0)}), batteries={(8, 7): 1, (7, 8): 3})
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-17")
    both = [(6, 7), (7, 6)]
    refused_changes_nothing(table, "ann", f.FireCannons(squares=both, batteries=[(8, 7), (8, 7)]), "BATTERY_EMPTY")
    table.do("ann", f.FireCannons(squares=both, batteries=[(8, 7), (7, 8)]))
    assert table.of("BatteriesSpent", player="ann") == [f.BatteriesSpent(player="ann", squares=[(8, 7), (7, 8)])]


def _shielded(batteries):
    return crewed(ship_of({(8, 7): ("cab-01", 0), (6, 7): ("shd-02", 3), (7, 8): ("bat2-01", 1),
                           (7, 6): ("bat3-04", 3)}), batteries=batteries)


def test_a_shield_is_paid_by_the_named_battery_and_by_the_fullest_when_the_clock_runs_out():
    dice = [4, 4] + list(MISS) * 3                          # a small meteor from the front on column 8
    table = FlightTable({"ann": _shielded({(7, 8): 2, (7, 6): 1}), "bob": _shielded({(7, 8): 1, (7, 6): 3})},
                        {"ann": 0, "bob": -2}, "I-14", dice=dice)
    refused_changes_nothing(table, "ann", f.Defend(use=True, batteries=[(7, 8), (7, 6)]), "WRONG_BATTERY_COUNT")
    refused_changes_nothing(table, "ann", f.Defend(use=False, batteries=[(7, 6)]), "WRONG_BATTERY_COUNT")
    table.do("ann", f.Defend(use=True, batteries=[(7, 6)]))                          # not her fullest
    timed_out = GAME.default_command(table.state, "bob")
    assert timed_out == f.Defend(use=True, batteries=[(7, 6)])                       # bob's fullest
    table.do("bob", timed_out)
    assert table.of("BatteriesSpent") == [f.BatteriesSpent(player="ann", squares=[(7, 6)]),
                                          f.BatteriesSpent(player="bob", squares=[(7, 6)])]
    assert [e.result for e in table.of("HazardMet") if e.line == 8] == ["shielded", "shielded"]


# ------------------------------------------------------------------------------------ goods lost
def _smuggled():
    """Smugglers (I-17, firepower 4, 2 goods lost) beat ann: a yellow goes, then one of two greens
    in different holds: hers to choose."""
    ann = crewed(ship_of({(7, 6): ("can-01", 0), (8, 7): ("crg2-01", 0), (6, 7): ("crg2-01", 2)}),
                 goods={(8, 7): ["yellow", "green"], (6, 7): ["green", "blue"]})
    return FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-17")


def test_the_owner_chooses_which_hold_loses_goods_of_equal_value():
    table = _smuggled()
    assert table.ask == {"player": "ann", "kind": "goods_loss", "key": "beaten/ann/goods",
                         "options": {"goods": ["green", "yellow"],
                                     "cargo": [[[6, 7], ["green", "blue"]], [[8, 7], ["yellow", "green"]]]}}
    table.do("ann", f.ChooseGoodsLoss(losses=[((8, 7), "yellow"), ((8, 7), "green")]))
    assert table.of("CargoSet", player="ann") == [f.CargoSet(player="ann", cargo=[((6, 7), ["green", "blue"])])]


def test_a_goods_choice_breaking_the_rules_is_refused_and_changes_nothing():
    table = _smuggled()
    refused_changes_nothing(table, "ann", f.ChooseGoodsLoss(losses=[((8, 7), "yellow")]), "WRONG_GOODS_COUNT")
    refused_changes_nothing(table, "ann", f.ChooseGoodsLoss(losses=[((8, 7), "yellow"), ((6, 7), "blue")]),
                            "NOT_MOST_VALUABLE")
    refused_changes_nothing(table, "ann", f.ChooseGoodsLoss(losses=[((6, 7), "yellow"), ((6, 7), "green")]),
                            "NO_SUCH_GOODS")
    refused_changes_nothing(table, "bob", f.ChooseGoodsLoss(losses=[((8, 7), "yellow"), ((8, 7), "green")]),
                            "NOT_YOUR_DECISION")
    assert table.ask["kind"] == "goods_loss" and not table.of("CargoSet")


def test_when_the_clock_runs_out_the_first_hold_gives_up_its_goods():
    table = _smuggled()
    timed_out = GAME.default_command(table.state, "ann")
    assert timed_out == f.ChooseGoodsLoss(losses=[((8, 7), "yellow"), ((6, 7), "green")])
    table.do("ann", timed_out)
    assert table.of("CargoSet", player="ann") == [f.CargoSet(player="ann", cargo=[((6, 7), ["blue"]),
                                                                                  ((8, 7), ["green"])])]


def test_no_goods_choice_is_asked_when_every_good_of_the_value_goes():
    ann = crewed(ship_of({(7, 6): ("can-01", 0), (8, 7): ("crg2-01", 0), (6, 7): ("crg2-01", 2)}),
                 goods={(8, 7): ["yellow", "blue"], (6, 7): ["yellow", "blue"]})
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-17")
    assert not table.of("DecisionRequested", kind="goods_loss")
    assert table.of("CargoSet", player="ann") == [f.CargoSet(player="ann", cargo=[((6, 7), ["blue"]),
                                                                                  ((8, 7), ["blue"])])]


# ------------------------------------------------------------------------------ rearranging cargo
def _on_a_planet(holds):
    """ann lands on I-06's first planet (green, green) with a blue aboard; bob passes."""
    ann = crewed(ship_of(holds), goods={(8, 7): ["blue"]})
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-06")
    table.do("ann", f.ChoosePlanet(planet=0))
    table.do("bob", f.ChoosePlanet(planet=None))
    return table


TWO_HOLDS = {(8, 7): ("crg2-01", 0), (6, 7): ("crg2-01", 2)}


def test_gaining_goods_that_all_fit_the_owner_may_rearrange_the_whole_cargo():
    table = _on_a_planet(TWO_HOLDS)
    assert table.ask == {"player": "ann", "kind": "cargo", "key": "load/ann/cargo", "options": {
        "goods": ["blue", "green", "green"], "holds": [[[6, 7], 2, False], [[8, 7], 2, False]]}}
    table.do("ann", f.ArrangeCargo(cargo=[((6, 7), ["blue", "green"]), ((8, 7), ["green"])]))   # the blue moves
    assert table.of("CargoSet") == [f.CargoSet(player="ann", cargo=[((6, 7), ["blue", "green"]),
                                                                    ((8, 7), ["green"])])]


def test_a_rearrangement_breaking_the_rules_is_refused_and_changes_nothing():
    table = _on_a_planet(TWO_HOLDS)
    for cargo in ([((6, 7), ["green", "green", "blue"])],              # more than the hold takes
                  [((7, 7), ["green"])],                                # not a hold
                  [((6, 7), ["green"]), ((6, 7), ["green"])],           # a hold named twice
                  [((6, 7), ["yellow"])]):                              # a good that is not there
        refused_changes_nothing(table, "ann", f.ArrangeCargo(cargo=cargo), "BAD_CARGO")
    assert table.ask["kind"] == "cargo" and not table.of("CargoSet")


def test_when_the_clock_runs_out_the_cargo_takes_the_best_arrangement():
    table = _on_a_planet(TWO_HOLDS)
    timed_out = GAME.default_command(table.state, "ann")
    assert timed_out == f.ArrangeCargo(cargo=[((6, 7), ["green", "green"]), ((8, 7), ["blue"])])
    table.do("ann", timed_out)
    assert table.of("CargoSet") == [f.CargoSet(player="ann", cargo=[((6, 7), ["green", "green"]),
                                                                    ((8, 7), ["blue"])])]


def test_with_one_hold_and_room_for_everything_the_goods_are_stowed_at_once():
    table = _on_a_planet({(8, 7): ("crg3-01", 0)})
    assert not table.of("DecisionRequested", kind="cargo")
    assert table.of("CargoSet") == [f.CargoSet(player="ann", cargo=[((8, 7), ["green", "green", "blue"])])]
