"""One seated player through one game: the game's socket open all along, a move whenever it owes one.

The player keeps its own socket on the game (`sockets.LiveSocket`) and decides from what it shows:
- with the engine's bot (games that hide nothing), it folds its pushes and acts when the engine says
  it owes a decision (`to_act`);
- otherwise it asks the lobby for its legal actions whenever something happened (an empty list: not
  its turn), and plays one; Trucker players play building moves on the real-time socket
  (`realtime.RealtimeSocket`) with a person's habits (`choosers.TruckerHands`), the rest through the lobby.

Before each move it thinks (`pace`). After an accepted command it waits until its own socket shows
the command's events (timed: `command -> own socket`; Trucker's building moves too, relayed to the
game's stream once acknowledged), as a person waits for the board to change. A
refused move is followed by a choice from the lobby's legal actions (the engine's bot would only choose
the same again). A game with no event for `abandon` seconds is given up.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from starbase_load.choosers import CannotFold, EngineChooser, TruckerHands, pick_action, realtime
from starbase_load.journal import ACKNOWLEDGED, REFUSED, JournalFile
from starbase_load.lobby import Lobby
from starbase_load.metrics import PLAYER_SOCKET, Metrics
from starbase_load.pace import Pace
from starbase_load.realtime import RealtimeSocket
from starbase_load.sockets import LiveSocket

PUSH_TIMEOUT = 30.0       # an accepted move not on the player's own socket by then is a failure
QUIET_LOOK = 5.0          # with nothing new this long, look again anyway (a refusal, a missed wake-up)
FINISHED, ABANDONED = "finished", "abandoned"
ARRIVED = "arrived"       # a StartBuilding answered by connecting to the real-time service


@dataclass
class Game:
    """What a player knows of the game it sits in."""
    name: str                         # the engine's name: moon21, t2038, stellar, trucker, …
    game_id: str
    ws_base: str                      # ws://host:port of the lobby
    realtime_url: str | None = None   # the table's real-time service (Trucker's building), if any


class Seat:
    def __init__(self, lobby: Lobby, metrics: Metrics, journal: JournalFile | None, game: Game,
                 engine: Any, pace: Pace, rnd: random.Random, abandon: float, moves_on_socket: bool = True):
        self.lobby, self.metrics, self.journal, self.game = lobby, metrics, journal, game
        self.moves_on_socket = moves_on_socket      # moves on the game socket (else by POST)
        self.pace, self.rnd, self.abandon = pace, rnd, abandon
        self.socket = LiveSocket(f"{game.ws_base}/games/{game.game_id}/ws", PLAYER_SOCKET, metrics, lobby.protocols)
        self.engine_bot = EngineChooser(engine, lobby.player_id, rnd) if engine is not None else None
        self.hands = TruckerHands(rnd) if game.realtime_url else None
        self.realtime: RealtimeSocket | None = None
        self._building = False

    def play(self) -> str:
        self.socket.start()
        refused_last, quiet_since = False, time.monotonic()
        try:
            while True:
                if self.socket.ended:
                    return FINISHED
                if self.socket.refused:
                    return ABANDONED
                command = self._choose(engine_allowed=not refused_last)
                if command is None:
                    if self.socket.wait_news(QUIET_LOOK):
                        quiet_since = time.monotonic()
                    elif time.monotonic() - quiet_since > self.abandon:
                        self.metrics.problem("game", f"no event for {self.abandon:.0f} s: given up")
                        return ABANDONED
                    refused_last = False
                    continue
                time.sleep(self.pace.real_time() if realtime(command) else self.pace.turn())
                refused_last = self._send(command) == REFUSED
        finally:
            self.close()

    def _choose(self, engine_allowed: bool) -> dict | None:
        if self.engine_bot is not None and engine_allowed:
            try:
                return self.engine_bot.choose(self.socket.events)
            except CannotFold:
                self.engine_bot = None          # this game hides something after all: ask the lobby from now on
            except Exception:                   # noqa: BLE001
                # The pushes of one command arrive one by one, so the folded state can sit between two
                # events of a single decision, where a bot may find nothing it expects: ask the lobby once.
                pass
        actions = self.lobby.actions(self.game.game_id)
        if not actions:
            return None
        building = self.hands is not None and any(realtime(a) for a in actions)
        if self.hands is not None and building != self._building:
            self._building = building
            self.hands.new_round()
        return self.hands.pick(actions) if building and self.hands else pick_action(actions, self.rnd)

    def _send(self, command: dict) -> str:
        if self.game.realtime_url and realtime(command):
            if command["type"] == "StartBuilding":       # arriving starts it: connect, then wait for the start
                self._realtime().arrive()
                self.socket.wait_news(QUIET_LOOK)
                return ARRIVED
            sent = self._realtime().move(command)
            if sent.outcome == ACKNOWLEDGED and self.hands is not None:
                self.hands.accepted(command)
        else:
            sent = self.lobby.command(self.game.name, self.game.game_id, command,
                                      socket=self.socket if self.moves_on_socket else None)
        if sent.outcome == ACKNOWLEDGED and sent.events:
            # Decide the next move on a board that shows this one, as a person would.
            seqs = [event["seq"] for event in sent.events]
            self.socket.expect(seqs, sent.sent_at)
            if not self.socket.wait_for(max(seqs), PUSH_TIMEOUT):
                self.metrics.socket_problem(self.socket.kind, f"my move was not pushed to me within {PUSH_TIMEOUT:.0f} s")
        return sent.outcome

    def _realtime(self) -> RealtimeSocket:
        if self.realtime is None:
            assert self.game.realtime_url
            self.realtime = RealtimeSocket(self.game.realtime_url, self.lobby.protocols, self.metrics, self.journal,
                                           self.lobby.player_id, self.game.game_id, self.lobby.client_tag)
        return self.realtime

    def close(self) -> None:
        self.socket.close()
        if self.realtime is not None:
            self.realtime.close()
