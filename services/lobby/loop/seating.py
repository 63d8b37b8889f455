"""Quick play's table decisions, pure: make a table's stream hold the players Redis matched to it.

Redis (`quickplay.py`) decides who goes where, atomically across replicas; the table's stream is then
brought to agree by `decide_sync`, whoever runs it (the player's own request, another player's, or the
sweeper after a replica died half-way): it opens the table if it does not exist yet, seats the matched
players who are not seated (lowest free seat, in the order they were matched), stands up those who are
seated but no longer matched (a table merged into another), and starts the game once every seat is
taken: everyone seated by quick play counts as ready. Every step is idempotent, so running it twice, or
on two replicas at once (the store's expected seq decides), gives the same table.
"""
from __future__ import annotations

import copy

from lobby.domain import GameStarted, PlayerLeft, PlayerSeated, Table, TableCreated, TableEvent, evolve


def decide_sync(table: Table, table_id: str, game: str, seats: int, rated: bool,
                members: list[str]) -> list[TableEvent]:
    if table.exists and table.status != "open":
        return []                   # started, finished or closed: nothing to bring in line
    if not table.exists and not members:
        return []
    work = copy.deepcopy(table)
    events: list[TableEvent] = []

    def add(event: TableEvent) -> None:
        events.append(event)
        evolve(work, event)

    if not work.exists:
        add(TableCreated(table_id=table_id, game=game, options={}, seats=seats, host=members[0],
                         quickplay=True, rated=rated))
    joining = [player for player in members if work.seat_of(player) is None]
    leaving = [player for player in work.players if player not in members]
    for player in list(joining):            # first into free seats, so the table never empties on the way
        if _free(work):
            add(PlayerSeated(player=player, seat=_free(work)[0]))
            joining.remove(player)
    for player in leaving:
        add(PlayerLeft(player=player, seat=work.seat_of(player)))
    for player in joining:
        if _free(work) and work.status == "open":
            add(PlayerSeated(player=player, seat=_free(work)[0]))
    if work.status == "open" and len(work.seated) == work.seats:
        add(GameStarted(game_id=table_id, players=work.players))
    return events


def _free(table: Table) -> list[int]:
    return [seat for seat in range(table.seats) if seat not in table.seated]
