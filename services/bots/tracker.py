"""Which moves the bot worker owes, in which game: a fold of the game streams with no I/O.

An unfinished game is folded (`GameRecord`) while it may need the worker: it has a bot seat (from the
start, or a seat a player resigned), or its engine may leave a seat a forced move for the platform to
play. An engine that plays its forced moves itself declares `plays_forced_moves = True` (21Moon's
flow passes for a player who can only pass): a game of it where people hold every seat is not kept
(`ignored`) until a `PlayerResigned` puts a bot in a seat; then it is read and folded from the start.
Folding every game cost the worker a fold, and on each append `legal_actions` for each seat to act,
in games where it never had a move to make. At the game's last seq, for each seat the engine
lists in `to_act` (none in a real-time phase, played by another service):
- a bot-held seat (`bot:<level>`) gets the level's policy's move (`bots.policies`), chosen from the
  seat's view and legal actions only, `played_by` its controller, command id `bot:<seq>:<seat>`;
- any other seat whose only possible move is forced (`starbase_core.forced`) gets it, `played_by`
  "platform", command id `forced:<seq>:<seat>`.
Ids are derived from the stream alone, and a bot's random choices from (game, seq, seat), so every
replica (and a restarted one) makes the same move under the same id: the store applies it once.
A bot's move the game refuses (an engine listing an action it then refuses) is left out of the next
choice at the same seq, under the id `bot:<n>:<seq>:<seat>` (n: the moves refused so far), up to
MAX_REFUSED times; a replica that did not see the refusals meets them again (refusals are final per
command id) and so reaches the same choice under the same id.
"""
from __future__ import annotations

import hashlib
import random
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable

import structlog

from bots.policies import choose, plays_from_seat_state, seat_choice
from starbase_core.envelope import Envelope
from starbase_core.forced import forced_command
from starbase_core.gamestream import GameRecord, RefoldNeeded, replay
from starbase_core.seats import BOT_PREFIX, PLATFORM, is_bot
from starbase_core.transaction import realtime_service
from starbase_core.undo import PLAYER_RESIGNED
from starbase_rules.contract import Game
from starbase_rules.registry import get_game

log = structlog.get_logger(__name__)
FINISHED_KEPT = 100_000          # ids of finished games remembered (so their old appends are not read again)
MAX_REFUSED = 4                  # a bot's refused moves at one decision before it gives up (the game waits)


@dataclass(frozen=True)
class Move:
    game_id: str
    player: str
    command: dict
    command_id: str
    played_by: str
    at_seq: int          # the game's last seq when chosen: sent as expected_seq


class Tracker:
    def __init__(self, games: Callable[[str], Game] = get_game):
        self.games = games
        self.records: dict[str, GameRecord] = {}
        self.finished: OrderedDict[str, None] = OrderedDict()
        self.ignored: OrderedDict[str, None] = OrderedDict()    # unfinished games that owe the worker nothing
        # game → (seq, seat) → the bot's commands refused at that decision (dropped once the game moves on)
        self.refused: dict[str, dict[tuple[int, str], list[dict]]] = {}

    def refuse(self, move: Move) -> bool:
        """Remember a bot's refused move; False when the bot has had too many refused at that decision."""
        tried = self.refused.setdefault(move.game_id, {}).setdefault((move.at_seq, move.player), [])
        tried.append(move.command)
        return len(tried) < MAX_REFUSED

    def last_seq(self, game_id: str) -> int | None:
        record = self.records.get(game_id)
        return record.last_seq if record is not None else None

    def is_finished(self, game_id: str) -> bool:
        return game_id in self.finished

    def wants(self, game_id: str, envelopes: list[Envelope]) -> bool:
        """Whether an append concerns the worker: its game is not finished, and is followed or gets a bot
        seat now (a resignation)."""
        if game_id in self.finished:
            return False
        if game_id in self.ignored:
            if not any(envelope.type == PLAYER_RESIGNED for envelope in envelopes):
                return False
            del self.ignored[game_id]
        return True

    def start(self, game_id: str, envelopes: list[Envelope]) -> None:
        """Fold a game from its whole stream (seq 1 on)."""
        self.records.pop(game_id, None)
        self._keep(game_id, replay(game_id, envelopes, self.games))

    def fold(self, game_id: str, envelopes: list[Envelope]) -> bool:
        """Fold envelopes that follow the record's last seq (older ones are skipped). False when the
        record cannot take them (an undo of what it folded, a gap): read the whole stream, `start`."""
        record = self.records.get(game_id)
        if record is None:
            return False
        newer = [e for e in envelopes if e.seq > record.last_seq]
        if newer and newer[0].seq != record.last_seq + 1:
            return False
        try:
            record.apply(newer)
        except RefoldNeeded:
            del self.records[game_id]
            return False
        self._keep(game_id, record)
        return True

    def _keep(self, game_id: str, record: GameRecord) -> None:
        if record.ended is None and owes_moves(record):
            self.records[game_id] = record
            return
        self.records.pop(game_id, None)
        remembered = self.finished if record.ended is not None else self.ignored
        remembered[game_id] = None
        while len(remembered) > FINISHED_KEPT:
            remembered.popitem(last=False)

    def moves(self, game_id: str) -> list[Move]:
        record = self.records.get(game_id)
        if record is None or record.ended is not None or realtime_service(record) is not None:
            return []
        refused = {key: tried for key, tried in self.refused.pop(game_id, {}).items() if key[0] == record.last_seq}
        if refused:
            self.refused[game_id] = refused
        found = []
        for player in record.engine.to_act(record.state):
            try:
                move = self.move_for(record, player, refused.get((record.last_seq, player), []))
            except Exception as problem:   # an engine's bug must not stop the worker for other games
                log.error("bot_move_failed", game_id=game_id, player=player, problem=repr(problem))
                move = None
            if move is not None:
                found.append(move)
        return found

    @staticmethod
    def move_for(record: GameRecord, player: str, refused: list[dict] | None = None) -> Move | None:
        controller = record.seats.controllers.get(player, player)
        seq = record.last_seq
        if is_bot(controller):
            refused = refused or []
            if len(refused) >= MAX_REFUSED:
                return None
            rnd = random.Random(f"{record.game_id}:{seq}:{player}:{len(refused)}")
            command = Tracker.bot_choice(record, player, controller.removeprefix(BOT_PREFIX), rnd, refused)
            if command is None:
                log.warning("bot_found_no_move", game_id=record.game_id, player=player, seq=seq)
                return None
            kind = f"bot:{len(refused)}" if refused else "bot"
            return Move(record.game_id, player, command, command_id(kind, seq, player), controller, seq)
        forced = forced_command(record.engine, record.state, player)
        if forced is None:
            return None
        return Move(record.game_id, player, forced, command_id("forced", seq, player), PLATFORM, seq)

    @staticmethod
    def bot_choice(record: GameRecord, player: str, level: str, rnd: random.Random,
                   refused: list[dict]) -> dict | None:
        """Only what the seat's own player may know reaches the policy (see `bots.policies`): the engine's
        level bot on the seat's state, or (a level the engine does not play, or its choice refused) a
        choice among the legal actions from the seat's view."""
        engine, state = record.engine, record.state
        if plays_from_seat_state(engine, level):
            command = seat_choice(engine, level, state, player, rnd)
            if command is not None and command not in refused:
                return command
        legal = [action for action in engine.legal_actions(state, player) if action not in refused]
        return choose(engine, level, engine.view(state, player), legal, player, rnd)


def owes_moves(record: GameRecord) -> bool:
    """A game may owe the worker moves: a bot holds a seat, or its engine leaves forced moves to the platform."""
    return any(is_bot(controller) for controller in record.seats.controllers.values()) \
        or not getattr(record.engine, "plays_forced_moves", False)


def command_id(kind: str, seq: int, player: str) -> str:
    """`<kind>:<seq>:<seat>`; a seat id that is not a printable token is hashed (ids travel in headers)."""
    candidate = f"{kind}:{seq}:{player}"
    if len(candidate) <= 200 and all("!" <= ch <= "~" for ch in candidate):
        return candidate
    return f"{kind}:{seq}:h{hashlib.sha256(player.encode()).hexdigest()[:24]}"
