"""The rulebook's Exploration Data charts, recomputed by the engine from its own tiles and delivery rules."""
import pytest

from t2038 import exploration_data

PRINTED_ORE_TABLE = {   # mines #, mines %, tiles #, tiles %, odds in 2 draws, odds in 4 draws
    "Nickel": (92, 57, 72, 68, 90, 99),
    "Ice": (40, 25, 40, 38, 61, 85),
    "Rare": (30, 19, 30, 28, 49, 74),
    "N=20": (52, 32, 44, 42, 66, 89),
    "I>30": (24, 15, 24, 23, 40, 65),
    "R>20": (18, 11, 18, 17, 31, 53),
}


@pytest.mark.parametrize("ore", PRINTED_ORE_TABLE)
def test_ore_table_row_matches_the_printed_chart(ore):
    row = exploration_data.ore_table()[ore]
    computed = (row["mines"], round(row["mines_pct"]), row["tiles"], round(row["tiles_pct"]),
                round(row["odds_2"]), round(row["odds_4"]))
    assert computed == PRINTED_ORE_TABLE[ore]


def test_average_route_values_by_draws_and_pickups_match_the_printed_chart():
    printed = {"1 draw, 1 pickup": 28, "2 draws, 1 pickup": 32, "1 draw, 2 pickups": 36, "2 draws, 2 pickups": 51}
    assert {line: round(value) for line, value in exploration_data.summary_rows().items()} == printed


def test_detailed_route_lines_match_the_printed_chart():
    printed = [58, 68, 42, 45, 59, 64, 40, 46, 39, 40]
    assert [round(value) for value in exploration_data.detailed_rows().values()] == printed
