"""The table decider alone: given a table's events, when a player asks, then events or a refusal."""
import pytest

from lobby import domain
from lobby.exceptions import LobbyError


def table_with(*events) -> domain.Table:
    return domain.fold(list(events))


def open_table(seats=3, private=False, players=("host",)) -> domain.Table:
    events = domain.decide_create("t1", "testjack", {}, seats, 1, 4, private, "code" if private else None, players[0])
    table = domain.fold(events)
    for player in players[1:]:
        table = domain.fold(domain.decide_join(table, player, None, "code"), table)
    return table


def refused(code: str, decide, *args):
    with pytest.raises(LobbyError) as refusal:
        decide(*args)
    assert refusal.value.code == code
    return refusal.value


def test_the_host_takes_seat_zero_when_creating_a_table():
    table = open_table()
    assert table.status == "open" and table.seated == {0: "host"} and table.free_seats == 2


def test_a_seat_count_outside_the_games_player_range_is_refused():
    refused("BAD_SEAT_COUNT", domain.decide_create, "t1", "testjack", {}, 5, 1, 4, False, None, "host")


def test_joiners_take_the_lowest_free_seat_unless_they_name_one():
    table = open_table()
    table = domain.fold(domain.decide_join(table, "ann", 2, None), table)
    table = domain.fold(domain.decide_join(table, "bob", None, None), table)
    assert table.seated == {0: "host", 1: "bob", 2: "ann"}


def test_a_full_table_a_taken_seat_and_a_second_seat_are_refused():
    table = open_table(seats=2, players=("host", "ann"))
    refused("TABLE_FULL", domain.decide_join, table, "bob", None, None)
    refused("ALREADY_SEATED", domain.decide_join, table, "ann", None, None)
    refused("SEAT_TAKEN", domain.decide_join, open_table(), "bob", 0, None)
    refused("NO_SUCH_SEAT", domain.decide_join, open_table(), "bob", 7, None)


def test_a_private_table_wants_its_invite_code():
    table = open_table(private=True)
    refused("TABLE_NOT_FOUND", domain.decide_join, table, "ann", None, "wrong")     # not disclosed
    assert domain.decide_join(table, "ann", None, "code")


def test_the_game_starts_only_when_every_seat_is_filled_and_ready():
    table = open_table(seats=2, players=("host", "ann"))
    refused("NOT_ALL_READY", domain.decide_start, table, "host", "t1")
    table = domain.fold(domain.decide_ready(table, "host", True) + domain.decide_ready(table, "ann", True), table)
    [started] = domain.decide_start(table, "ann", "t1")
    assert started.players == ["host", "ann"]
    assert domain.fold([started], table).status == "playing"
    refused("TABLE_NOT_FULL", domain.decide_start, open_table(), "host", "t1")


def test_a_stranger_cannot_start_leave_or_get_ready():
    table = open_table(players=("host", "ann"))
    refused("NOT_SEATED", domain.decide_start, table, "eve", "t1")
    refused("NOT_SEATED", domain.decide_leave, table, "eve")
    refused("NOT_SEATED", domain.decide_ready, table, "eve", True)


def test_starting_twice_records_one_start():
    table = open_table(seats=1)
    table = domain.fold(domain.decide_ready(table, "host", True), table)
    table = domain.fold(domain.decide_start(table, "host", "t1"), table)
    assert domain.decide_start(table, "host", "t1") == []


def test_a_refused_game_creation_reopens_the_table_and_clears_readiness():
    table = open_table(seats=1)
    table = domain.fold(domain.decide_ready(table, "host", True) + [], table)
    table = domain.fold(domain.decide_start(table, "host", "t1"), table)
    table = domain.fold(domain.decide_start_failed(table, "t1", "BAD_OPTIONS", "no"), table)
    assert table.status == "open" and table.ready == set()


def test_when_the_host_leaves_the_next_seated_player_hosts_and_the_last_one_closes_the_table():
    table = open_table(players=("host", "ann"))
    table = domain.fold(domain.decide_leave(table, "host"), table)
    assert table.host == "ann"
    table = domain.fold(domain.decide_leave(table, "ann"), table)
    assert table.status == "closed"
    refused("TABLE_NOT_OPEN", domain.decide_join, table, "bob", None, None)


def test_nobody_leaves_or_joins_a_table_whose_game_is_running():
    table = open_table(seats=1)
    table = domain.fold(domain.decide_ready(table, "host", True), table)
    table = domain.fold(domain.decide_start(table, "host", "t1"), table)
    refused("TABLE_NOT_OPEN", domain.decide_leave, table, "host")
    refused("TABLE_NOT_OPEN", domain.decide_join, table, "ann", None, None)


def test_chat_is_for_players_and_spectators_and_must_say_something():
    table = open_table()
    refused("NOT_AT_TABLE", domain.check_chat, table, "eve", "hi")
    refused("EMPTY_MESSAGE", domain.check_chat, table, "host", "   ")
    table = domain.fold(domain.decide_spectate(table, "eve", None), table)
    assert domain.check_chat(table, "eve", " hi ") == "hi"


def test_the_game_end_is_recorded_once():
    table = open_table(seats=1)
    table = domain.fold(domain.decide_ready(table, "host", True), table)
    table = domain.fold(domain.decide_start(table, "host", "t1"), table)
    table = domain.fold(domain.decide_finish(table, "t1", [{"player": "host", "rank": 1}]), table)
    assert table.status == "finished" and domain.decide_finish(table, "t1", []) == []


def test_every_table_event_round_trips_through_its_stored_form():
    table = open_table(players=("host", "ann"))
    events = domain.decide_create("t1", "testjack", {"x": 1}, 2, 1, 4, True, "c", "host")
    events += domain.decide_join(table, "bob", None, None) if table.free_seats else []
    assert [domain.parse_table_event(e.model_dump()) for e in events] == events
