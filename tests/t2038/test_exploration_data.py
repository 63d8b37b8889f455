"""The rulebook's Exploration Data charts and tile manifest, recomputed by the engine from its own tile
pool, survey payment and delivery rules. Each printed line is asserted on its own."""
from collections import Counter

import pytest

from t2038 import exploration_data, tiles

PRINTED_ORE_TABLE = {   # mines #, mines %, tiles #, tiles %, odds in 2 draws, odds in 4 draws
    "Nickel": (92, 57, 72, 68, 90, 99),
    "Ice": (40, 25, 40, 38, 61, 85),
    "Rare": (30, 19, 30, 28, 49, 74),
    "N=20": (52, 32, 44, 42, 66, 89),
    "I>30": (24, 15, 24, 23, 40, 65),
    "R>20": (18, 11, 18, 17, 31, 53),
}

# (Average Value, Explor. Bonus) as printed, in the order of the charts.
PRINTED_SUMMARY = [(28, 10), (32, 20), (36, 10), (51, 20)]
PRINTED_DETAILED = [(58, 10), (68, 10), (46, 20), (42, 10), (39, 20), (45, 10), (40, 20), (59, 10), (64, 10),
                    (40, 20)]

PRINTED_SINGLES = {"N10": 12, "N20": 12, "I30": 2, "I40": 4, "I50": 8, "R20": 2, "R30": 4, "R40": 6}
PRINTED_DOUBLES = {"N10+N20": 12, "N10+I30": 6, "N10+I40": 4, "N10+R20": 4, "N10+R30": 2,
                   "N20+N20": 8, "N20+I30": 4, "N20+I40": 4, "N20+R20": 2, "N20+R30": 2,
                   "I30+R20": 2, "I30+R30": 2, "I40+R20": 2, "I40+R30": 2}


@pytest.mark.parametrize("ore", PRINTED_ORE_TABLE)
def test_ore_table_row_matches_the_printed_chart(ore):
    row = exploration_data.ore_table()[ore]
    computed = (row["mines"], round(row["mines_pct"]), row["tiles"], round(row["tiles_pct"]),
                round(row["odds_2"]), round(row["odds_4"]))
    assert computed == PRINTED_ORE_TABLE[ore]


def test_the_tile_pool_is_the_printed_manifest():
    assert Counter(tiles.tile_kinds()) == Counter({**PRINTED_SINGLES, **PRINTED_DOUBLES})


@pytest.mark.parametrize("line, printed", list(zip(exploration_data.SUMMARY_LINES, PRINTED_SUMMARY)),
                         ids=[line.text for line in exploration_data.SUMMARY_LINES])
def test_summary_line_average_and_exploration_bonus_match_the_print(line, printed):
    assert (round(line.average()), line.exploration_bonus()) == printed


@pytest.mark.parametrize("line, printed", list(zip(exploration_data.DETAILED_LINES, PRINTED_DETAILED)),
                         ids=[line.ship for line in exploration_data.DETAILED_LINES])
def test_detailed_line_average_and_exploration_bonus_match_the_print(line, printed):
    assert (round(line.average()), line.exploration_bonus()) == printed


def test_ice_finder_and_drill_hound_place_the_second_tile_not_a_choice_of_two():
    # given the alternative reading (choose the better of the two drawn tiles, as Lucky does),
    # then the Ice Finder 3/2 and Drill Hound 3/2 averages would leave the printed 68 and 42
    lucky_like_if = exploration_data.one_hex_route(2, "i:2", ["O11"], choose_either=True)
    lucky_like_dh = exploration_data.one_hex_route(2, "i:3", ["D14"], choose_either=True)
    assert round(lucky_like_if) != 68 and round(lucky_like_dh) != 42


def test_lines_without_a_printed_threshold_use_the_threshold_that_pays_best():
    # given Ore Crusher's 5/1 (its line prints "@1st if $40+"), then $40 is also its best threshold,
    # so the rule used for the unprinted lines agrees with the printed one
    threshold, average = exploration_data.best_two_hex_route(1, "i:4", ["O1"])
    assert threshold == 40 and round(average) == 40
