"""Each adventure card's effects, given ships in flight, when the card is resolved, then the events.
Dice come from a scripted rng so every roll is chosen by the test."""
from trucker_rules import flight_messages as f
from trucker_rules import track
from trucker_rules.game import GAME
from tests.trucker_rules.trucker_helpers import BLOCK, FlightTable, crewed, ship_of

MISS = (1, 1)   # a total of 2 misses every Class I line


def cabin_only(cabin="start-green"):
    return crewed(ship_of({}, cabin=cabin))


# ------------------------------------------------------------------------------------ open space
def test_open_space_moves_each_ship_by_its_engine_strength_and_a_ship_without_engines_gives_up():
    ann = crewed(ship_of({(7, 8): ("eng-19", 0), (6, 7): ("deng-06", 0), (8, 7): ("bat2-01", 0)}))
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-01")
    assert table.ask["player"] == "ann" and table.ask["kind"] == "engines" and table.ask["options"] == {"max": 1}
    table.refused("ann", f.PowerEngines(count=2), "TOO_MANY_ENGINES")
    table.refused("bob", f.PowerEngines(count=0), "NOT_YOUR_DECISION")
    table.refused("ann", f.ChoosePlanet(planet=0), "WRONG_DECISION")
    table.do("ann", f.PowerEngines(count=1))
    assert table.of("BatteriesSpent") == [f.BatteriesSpent(player="ann", squares=[(8, 7)])]
    assert table.of("ShipMoved") == [f.ShipMoved(player="ann", days=3, position=3)]   # 1 + 2 for the double
    assert table.of("ShipGaveUp") == [f.ShipGaveUp(player="bob", reason="no_engines")]


def test_moving_jumps_over_occupied_spaces_without_counting_them():
    table = FlightTable({"ann": cabin_only("start-blue"), "bob": cabin_only()}, {"ann": 0, "bob": 2}, "I-20")
    table.state.seats["ann"].gave_up = table.state.seats["bob"].gave_up = False
    table.state.seats["ann"].position, table.state.seats["bob"].position = 0, 2
    assert track.move(table.state, "ann", 3) == 4
    assert track.move(table.state, "bob", -2) == -1


# --------------------------------------------------------------------------------------- planets
def test_planets_are_chosen_in_flight_order_red_goods_only_in_red_holds_and_days_lost_from_the_rear():
    ann = crewed(ship_of({(8, 7): ("red1-02", 0), (6, 7): ("crg2-01", 2)}))
    bob = crewed(ship_of({(8, 7): ("crg2-01", 0)}, cabin="start-green"))     # no red container
    table = FlightTable({"ann": ann, "bob": bob}, {"ann": 0, "bob": -2}, "I-05")   # [r r] [r b b] [y], 2 days
    assert table.ask["options"]["free"] == [0, 1, 2]
    table.do("ann", f.ChoosePlanet(planet=1))
    table.refused("bob", f.ChoosePlanet(planet=1), "PLANET_NOT_FREE")
    table.do("bob", f.ChoosePlanet(planet=0))
    # ann's goods all fit, but she has two holds to arrange them in (her default: the best arrangement)
    assert table.ask == {"player": "ann", "kind": "cargo", "key": "load/ann/cargo", "options": {
        "goods": ["blue", "blue", "red"], "holds": [[[8, 7], 1, True], [[6, 7], 2, False]]}}
    table.do("ann", GAME.default_command(table.state, "ann"))
    # bob's red goods cannot go in a plain hold: he decides
    assert table.ask["kind"] == "cargo" and table.ask["options"] == {"goods": ["red", "red"],
                                                                     "holds": [[[8, 7], 2, False]]}
    table.refused("bob", f.ArrangeCargo(cargo=[((8, 7), ["red"])]), "BAD_CARGO")
    table.refused("bob", f.ArrangeCargo(cargo=[((6, 7), [])]), "BAD_CARGO")
    table.do("bob", f.ArrangeCargo(cargo=[]))
    cargo = {e.player: dict(e.cargo) for e in table.of("CargoSet")}
    assert cargo == {"ann": {(8, 7): ["red"], (6, 7): ["blue", "blue"]}, "bob": {}}
    assert [(e.player, e.position) for e in table.of("ShipMoved")] == [("bob", -4), ("ann", -2)]


# ------------------------------------------------------------------------- abandoned ship/station
def test_abandoned_ship_goes_to_the_first_who_accepts_and_last_humans_mean_giving_up():
    table = FlightTable({"ann": cabin_only("start-blue"), "bob": crewed(ship_of({(8, 7): ("cab-01", 0)}, cabin="start-green"))},
                        {"ann": 0, "bob": -2}, "I-09")                      # 2 crew, 3 credits, 1 day
    assert table.ask["player"] == "ann"
    table.do("ann", f.AnswerOffer(accept=True))
    assert table.of("CreditsPaid") == [f.CreditsPaid(player="ann", amount=3, reason="abandoned_ship")]
    assert table.of("CrewLost")[0].losses == [((7, 7), "human"), ((7, 7), "human")]
    assert table.of("ShipGaveUp") == [f.ShipGaveUp(player="ann", reason="no_humans")]
    assert not table.of("DecisionRequested", player="bob")                   # only one player can accept


def test_abandoned_ship_is_offered_only_to_ships_with_enough_crew():
    table = FlightTable({"ann": cabin_only("start-blue"), "bob": crewed(ship_of({(8, 7): ("cab-01", 0)}, cabin="start-green"))},
                        {"ann": 0, "bob": -2}, "I-10")                      # needs 3 crew: ann has 2
    assert table.ask["player"] == "bob"
    table.do("bob", f.AnswerOffer(accept=False))
    assert not table.of("CreditsPaid")


def test_abandoned_station_needs_the_crew_and_loads_its_goods():
    bob = crewed(ship_of({(8, 7): ("cab-01", 0), (6, 7): ("cab-16", 0), (7, 8): ("crg2-09", 1)}, cabin="start-green"))
    table = FlightTable({"ann": cabin_only("start-blue"), "bob": bob}, {"ann": 0, "bob": -2}, "I-11")  # 5 crew
    assert table.ask["player"] == "bob"
    table.do("bob", f.AnswerOffer(accept=True))
    assert dict(table.of("CargoSet")[0].cargo) == {(7, 8): ["yellow", "green"]}
    assert table.of("ShipMoved") == [f.ShipMoved(player="bob", days=-1, position=-3)]


# --------------------------------------------------------------------------------- meteor swarms
def test_a_small_meteor_bounces_off_a_smooth_side_barrels_included():
    ann = crewed(ship_of({(7, 6): ("can-01", 0)}))
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-14",
                        dice=[3, 4] + list(MISS) * 3)                           # small from the front on column 7
    assert table.of("HazardMet", player="ann")[0].result == "bounced"


def test_a_small_meteor_on_an_exposed_connector_destroys_the_component_unless_a_shield_covers_it():
    def ship():
        return crewed(ship_of({(8, 7): ("cab-01", 0), (6, 7): ("shd-02", 3), (7, 8): ("bat2-01", 1)}))
    dice = [4, 4] + list(MISS) * 3                                              # column 8: cab-01's double top
    table = FlightTable({"ann": ship(), "bob": ship()}, {"ann": 0, "bob": -2}, "I-14", dice=dice)
    assert table.ask == {"player": "ann", "kind": "defend", "key": "meteor0/ann/defend",
                         "options": {"hazard": "small_meteor", "square": [8, 7], "by": "shield"}}
    table.do("ann", f.Defend(use=True))
    table.do("bob", f.Defend(use=False))
    assert [(e.player, e.result) for e in table.of("HazardMet") if e.line == 8] == \
        [("ann", "shielded"), ("bob", "destroyed")]
    assert table.of("BatteriesSpent") == [f.BatteriesSpent(player="ann", squares=[(7, 8)])]
    assert table.of("ComponentDestroyed") == [f.ComponentDestroyed(player="bob", square=(8, 7), component="cab-01")]


def test_one_roll_per_meteor_for_every_ship():
    table = FlightTable({"ann": cabin_only("start-blue"), "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-14",
                        dice=list(MISS) * 4)
    assert len(table.of("DiceRolled")) == 4 and len(table.of("HazardMet")) == 8


def test_a_large_meteor_is_shot_down_by_a_cannon_in_its_column_or_destroys_what_it_hits():
    ann = crewed(ship_of({(7, 6): ("can-01", 0), (8, 7): ("bat2-01", 0)}))
    bob = crewed(ship_of({(8, 7): ("bat2-01", 0)}, cabin="start-green"))
    table = FlightTable({"ann": ann, "bob": bob}, {"ann": 0, "bob": -2}, "I-13",
                        dice=[3, 4] + list(MISS) * 2)                           # large from the front, column 7
    assert [(e.player, e.result) for e in table.of("HazardMet") if e.line == 7] == \
        [("ann", "shot_down"), ("bob", "destroyed")]
    assert table.of("ShipGaveUp") == [f.ShipGaveUp(player="bob", reason="no_humans")]   # its cabin was hit


def test_a_ship_broken_in_two_keeps_the_part_its_owner_chooses():
    ann = crewed(ship_of({(8, 7): ("str-02", 0), (8, 8): ("cab-09", 0)}))
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-13",
                        dice=[4, 4] + list(MISS) * 2)                           # large meteor on column 8
    assert table.ask["kind"] == "keep_part" and table.ask["options"]["parts"] == [[[7, 7]], [[8, 8]]]
    table.refused("ann", f.KeepPart(square=(8, 7)), "NOT_A_PART")
    table.do("ann", f.KeepPart(square=(8, 8)))
    assert table.of("PartKept") == [f.PartKept(player="ann", lost=[(7, 7)])]
    assert not table.of("ShipGaveUp", player="ann")                             # humans remain in cab-09
    assert f.CreditsPaid(player="ann", amount=-2, reason="lost_components") in table.events


# ---------------------------------------------------------------------------------- combat zone
def test_combat_zone_tie_goes_to_the_ship_furthest_ahead():
    table = FlightTable({"ann": cabin_only("start-blue"), "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-16",
                        dice=list(MISS) * 2)
    first, second, third = (table.of("Progressed", marker=f"zone{j}/weakest")[0].value for j in range(3))
    assert first == "ann"                                                       # equal crew: the leader loses
    assert table.of("ShipMoved")[0] == f.ShipMoved(player="ann", days=-3, position=-4)   # jumps over bob
    assert second == "bob"                                                      # bob is ahead now
    assert table.of("CrewLost")[0].player == "bob"


def test_combat_zone_is_skipped_for_a_lone_ship():
    table = FlightTable({"ann": cabin_only("start-blue"), "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-16",
                        gave_up=["bob"])
    assert not table.of("Progressed") and not table.of("ShipMoved")


def test_a_lapped_ship_gives_up():
    table = FlightTable({"ann": cabin_only("start-blue"), "bob": cabin_only()}, {"ann": 0, "bob": -41}, "II-20")
    assert table.of("ShipGaveUp") == [f.ShipGaveUp(player="bob", reason="lapped")]


# -------------------------------------------------------------------------------------- enemies
def _gunship(cabin):
    row = {(c, 7): (BLOCK, 0) for c in (5, 6, 8, 9)}
    guns = {(c, 6): ("can-01", 0) for c in (5, 6, 7, 8, 9)}
    return crewed(ship_of({**row, **guns}, board="III", cabin=cabin))             # firepower 5


def test_smugglers_take_the_most_valuable_goods_from_the_weaker_and_reward_the_stronger():
    ann = crewed(ship_of({(7, 6): ("can-01", 0), (8, 7): ("red1-02", 0), (6, 7): ("crg2-01", 2)}),
                 goods={(8, 7): ["red"], (6, 7): ["yellow", "blue"]})
    table = FlightTable({"ann": ann, "bob": _gunship("start-green")}, {"ann": 0, "bob": -2}, "I-17")  # firepower 4
    assert dict(table.of("CargoSet", player="ann")[0].cargo) == {(6, 7): ["blue"]}
    assert table.ask["player"] == "bob" and table.ask["kind"] == "offer"
    table.do("bob", f.AnswerOffer(accept=True))
    assert table.of("ShipMoved") == [f.ShipMoved(player="bob", days=-1, position=-3)]
    assert table.of("Progressed", marker="defeated")


def test_smugglers_take_batteries_when_goods_run_out():
    ann = crewed(ship_of({(7, 6): ("can-01", 0), (8, 7): ("bat3-04", 0)}))
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-17")
    assert table.of("BatteriesSpent", player="ann") == [f.BatteriesSpent(player="ann", squares=[(8, 7), (8, 7)])]


def test_slavers_take_crew_from_every_weaker_ship_they_meet():
    ann = crewed(ship_of({(8, 7): ("cab-01", 0)}))
    table = FlightTable({"ann": ann, "bob": crewed(ship_of({}, cabin="start-green"))}, {"ann": 0, "bob": -2}, "I-18")
    # slavers' firepower 6 beats both: ann chooses which 3 of her 4 crew go
    assert table.ask["kind"] == "crew" and table.ask["options"] == {
        "count": 3, "humans": [[[7, 7], 2], [[8, 7], 2]], "aliens": []}
    table.refused("ann", f.ChooseCrewLoss(losses=[((7, 7), "human")] * 3), "BAD_CREW_CHOICE")
    table.refused("ann", f.ChooseCrewLoss(losses=[((7, 7), "human")]), "BAD_CREW_CHOICE")
    table.refused("ann", f.ChooseCrewLoss(losses=[((7, 7), "human"), ((8, 7), "purple"), ((8, 7), "human")]),
                  "BAD_CREW_CHOICE")
    table.do("ann", f.ChooseCrewLoss(losses=[((8, 7), "human"), ((8, 7), "human"), ((7, 7), "human")]))
    # bob has only 2 crew: no choice to make, all of them go, and he has no humans left
    assert [(e.player, len(e.losses)) for e in table.of("CrewLost")] == [("ann", 3), ("bob", 2)]
    assert table.of("ShipGaveUp") == [f.ShipGaveUp(player="bob", reason="no_humans")]


def test_equal_firepower_stops_nothing_and_the_enemy_moves_on():
    table = FlightTable({"ann": _gunship("start-blue"), "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-19",
                        dice=list(MISS) * 3)                                   # pirates 5 against 5
    assert not table.of("DecisionRequested", player="ann")
    assert table.of("Progressed", marker="beaten/bob") and not table.of("Progressed", marker="beaten/ann")


def test_pirates_fire_at_every_beaten_ship_with_one_roll_per_shot():
    ann = crewed(ship_of({(7, 6): ("can-01", 0)}))
    bob = crewed(ship_of({(7, 6): ("can-02", 0)}, cabin="start-green"))
    table = FlightTable({"ann": ann, "bob": bob}, {"ann": 0, "bob": -2}, "I-19", dice=[3, 4] + list(MISS) * 2)
    assert len(table.of("DiceRolled")) == 3
    assert [(e.player, e.hazard, e.square, e.result) for e in table.of("HazardMet")][:2] == \
        [("ann", "light_fire", (7, 6), "destroyed"), ("bob", "light_fire", (7, 6), "destroyed")]


# ------------------------------------------------------------------------ stardust, epidemic, sabotage
def test_stardust_costs_a_day_per_exposed_connector_starting_with_the_rearmost_ship():
    table = FlightTable({"ann": cabin_only("start-blue"), "bob": cabin_only()}, {"ann": 0, "bob": -1}, "I-20")
    assert [(e.player, e.position) for e in table.of("ShipMoved")] == [("bob", -5), ("ann", -4)]


def test_epidemic_strikes_occupied_cabins_joined_to_each_other():
    ann = crewed(ship_of({(8, 7): ("cab-01", 0)}))
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "II-20")
    assert table.of("CrewLost") == [f.CrewLost(player="ann", losses=[((7, 7), "human"), ((8, 7), "human")])]


def test_sabotage_hits_the_ship_with_the_fewest_crew():
    ann = crewed(ship_of({(8, 7): ("cab-01", 0)}))
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "III-20", dice=[3, 4, 3, 4])
    assert table.of("ComponentDestroyed") == [f.ComponentDestroyed(player="bob", square=(7, 7), component="start-green")]
    assert table.of("ShipGaveUp") == [f.ShipGaveUp(player="bob", reason="no_humans")]


def test_sabotage_fails_after_three_misses():
    table = FlightTable({"ann": cabin_only("start-blue"), "bob": cabin_only()}, {"ann": 0, "bob": -2}, "III-20",
                        dice=list(MISS) * 6)
    assert len(table.of("DiceRolled")) == 6 and not table.of("ComponentDestroyed")


# -------------------------------------------------------------------------------- giving up
def test_a_player_may_give_up_and_it_counts_when_the_card_is_resolved():
    ann = crewed(ship_of({(8, 7): ("crg2-01", 0)}))
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-06")
    table.do("bob", f.GiveUp())
    table.refused("bob", f.GiveUp(), "ALREADY_GIVING_UP")
    table.do("ann", f.ChoosePlanet(planet=None))
    table.do("bob", f.ChoosePlanet(planet=None))
    assert table.of("ShipGaveUp") == [f.ShipGaveUp(player="bob", reason="chose_to")]
    table.refused("ann", f.PowerEngines(count=0), "NO_DECISION_OWED")


def test_stardust_can_start_with_the_leader_as_a_table_option():
    table = FlightTable({"ann": cabin_only("start-blue"), "bob": cabin_only()}, {"ann": 0, "bob": -1}, "I-20",
                        options={"stardust_from_rear": False})
    assert [(e.player, e.position) for e in table.of("ShipMoved")] == [("ann", -5), ("bob", -6)]


def test_double_cannons_cost_a_battery_each_and_count_half_when_not_facing_front():
    ann = crewed(ship_of({(7, 6): ("dcan-01", 0), (6, 7): ("dcan-01", 3), (8, 7): ("bat2-01", 0)}),
                 batteries={(8, 7): 1})
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-17")
    assert table.ask["kind"] == "cannons" and table.ask["options"] == {"double_cannons": [[6, 7], [7, 6]], "max": 1}
    table.refused("ann", f.FireCannons(squares=[(6, 7), (7, 6)]), "NOT_ENOUGH_BATTERIES")
    table.refused("ann", f.FireCannons(squares=[(7, 6), (7, 6)]), "NOT_A_DOUBLE_CANNON")
    table.refused("ann", f.FireCannons(squares=[(8, 7)]), "NOT_A_DOUBLE_CANNON")
    table.do("ann", f.FireCannons(squares=[(6, 7)]))
    assert table.of("Progressed", marker="fp/ann")[0].value == 1        # a side-facing double cannon: 1
    assert table.of("BatteriesSpent", player="ann") == [f.BatteriesSpent(player="ann", squares=[(8, 7)])]


def test_a_purple_alien_adds_two_firepower_only_to_a_ship_that_has_some():
    from trucker_rules.shipvalues import engine_strength, firepower
    armed = ship_of({(7, 6): ("can-01", 0)})
    armed.aliens = {(8, 7): "purple", (6, 7): "brown"}
    assert firepower(armed, []) == 3 and engine_strength(armed, 0) == 0
    bare = ship_of({})
    bare.aliens = {(8, 7): "purple"}
    assert firepower(bare, []) == 0


def test_giving_up_is_refused_to_ships_not_flying_or_when_the_table_forbids_it():
    table = FlightTable({"ann": cabin_only("start-blue"), "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-06",
                        gave_up=["bob"], options={"voluntary_give_up": False})
    table.refused("bob", f.GiveUp(), "NOT_FLYING")
    table.refused("ann", f.GiveUp(), "GIVING_UP_NOT_ALLOWED")


def test_when_goods_must_be_thrown_away_the_owner_chooses_what_to_keep():
    ann = crewed(ship_of({(8, 7): ("crg2-01", 0)}), goods={(8, 7): ["blue", "green"]})
    table = FlightTable({"ann": ann, "bob": cabin_only()}, {"ann": 0, "bob": -2}, "I-06")   # [g g] [y] [b b b]
    table.do("ann", f.ChoosePlanet(planet=1))
    table.do("bob", f.ChoosePlanet(planet=None))
    assert table.ask["options"] == {"goods": ["blue", "green", "yellow"], "holds": [[[8, 7], 2, False]]}
    table.refused("ann", f.ArrangeCargo(cargo=[((8, 7), ["yellow", "yellow"])]), "BAD_CARGO")
    table.refused("ann", f.ArrangeCargo(cargo=[((8, 7), ["yellow", "green", "blue"])]), "BAD_CARGO")
    assert GAME.default_command(table.state, "ann") == f.ArrangeCargo(cargo=[((8, 7), ["yellow", "green"])])
    table.do("ann", f.ArrangeCargo(cargo=[((8, 7), ["yellow", "blue"])]))           # her choice, not the best
    assert table.of("CargoSet") == [f.CargoSet(player="ann", cargo=[((8, 7), ["yellow", "blue"])])]
