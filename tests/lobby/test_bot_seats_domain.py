"""Bot seats, resignations and substitutes in the table decider alone (no I/O)."""
import pytest

from lobby import domain
from lobby.exceptions import LobbyError
from lobby.seating import check_take, decide_resigned, decide_substitute


def with_bots(bots, seats=3) -> domain.Table:
    return domain.fold(domain.decide_create("t1", "testjack", {}, seats, 1, 4, False, None, "host", bots))


def refused(code, decide, *args):
    with pytest.raises(LobbyError) as refusal:
        decide(*args)
    assert refusal.value.code == code


def test_bot_seats_are_seated_and_ready_at_creation_and_not_free():
    table = with_bots({2: "strong"}, seats=4)
    assert table.seated == {0: "host", 2: "bot-t1-2"} and "bot-t1-2" in table.ready
    assert table.free_seats == 2 and table.bots == {2: "strong"}
    joined = domain.fold(domain.decide_join(table, "ann", None, None), table)
    assert joined.seated[1] == "ann"
    refused("SEAT_TAKEN", domain.decide_join, joined, "bob", 2, None)


def test_bot_seats_outside_one_to_seats_minus_one_are_refused():
    refused("NO_SUCH_SEAT", domain.decide_create, "t1", "testjack", {}, 3, 1, 4, False, None, "host", {0: "easy"})
    refused("NO_SUCH_SEAT", domain.decide_create, "t1", "testjack", {}, 3, 1, 4, False, None, "host", {3: "easy"})


def test_bots_alone_do_not_keep_a_table_open_nor_become_its_host():
    table = with_bots({1: "easy"})
    alone = domain.fold(domain.decide_leave(table, "host"), table)
    assert alone.status == "closed"
    table = with_bots({1: "easy"})
    table = domain.fold(domain.decide_join(table, "ann", None, None), table)
    left = domain.fold(domain.decide_leave(table, "host"), table)
    assert left.status == "open" and left.host == "ann"


def playing(players=("host", "ann", "bob")) -> domain.Table:
    table = domain.fold(domain.decide_create("t1", "testjack", {}, len(players), 1, 4, False, None, players[0]))
    for player in players[1:]:
        table = domain.fold(domain.decide_join(table, player, None, None), table)
    return domain.fold([domain.GameStarted(game_id="t1", players=list(players))], table)


def test_a_resigned_seat_is_offered_then_played_by_its_substitute():
    table = playing()
    refused("SEAT_NOT_OFFERED", check_take, table, 1, "cyd")
    table = domain.fold(decide_resigned(table, 1, "ann"), table)
    assert decide_resigned(table, 1, "ann") == []                   # a retry records nothing more
    assert table.played_seat("ann") == (1, "ann", None)             # the game itself refuses her now
    refused("ALREADY_IN_GAME", check_take, table, 1, "bob")
    refused("ALREADY_IN_GAME", check_take, table, 1, "ann")
    refused("NO_SUCH_SEAT", check_take, table, 7, "cyd")
    check_take(table, 1, "cyd")
    table = domain.fold(decide_substitute(table, 1, "cyd"), table)
    assert table.played_seat("cyd") == (1, "ann", "cyd") and table.abandoned == {}
    assert table.may_see("cyd")
    refused("SEAT_NOT_OFFERED", check_take, table, 1, "dan")


def test_only_a_running_games_seats_are_taken():
    table = playing()
    table = domain.fold(decide_resigned(table, 1, "ann"), table)
    finished = domain.fold([domain.GameFinished(game_id="t1")], table)
    refused("GAME_NOT_RUNNING", check_take, finished, 1, "cyd")
