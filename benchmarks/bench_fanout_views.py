"""The lobby's cost per pushed event when a game's sockets hold several views: 21Moon and Stellar
Ventures, each seat watching with one socket and two spectators, side by side:

- `per view`: every event redacted and JSON-encoded once per distinct view (each seat's, the
  spectators'), as the lobby did before the shared pushes of events that every viewer sees alike;
- `alike`: the lobby's Watch as it is (`lobby.games.watch_game`): an event whose type has no secret
  (and a platform envelope) encoded once for every view, the rest once per view.

The events are a seeded bot game's (`starbase_rules.playout`), as stored envelopes; each is delivered
through a `lobby.channel.Channel` to its sockets (outlets that take the frame and keep nothing), so the
figure is the lobby's own Python per event (redaction, JSON, framing, the audience's walk), without
the kernel's send. CPU time per event (`time.process_time`), the two ways alternating ROUNDS times on
the same events; min / median / max, and alike / per view round by round. Figures only, nothing judged.
"""
from __future__ import annotations

import os
import statistics
import time

from bench_fanout import Discard     # same directory: run as a script
from lobby.channel import Channel, Sink
from lobby.games import watch_game
from lobby.service import load_engine
from starbase_core.envelope import Envelope
from starbase_rules.playout import playout

GAMES = {"moon21": ["ann", "bob", "cy"], "stellar": ["ann", "bob", "cy", "dan"]}
SPECTATORS = 2
ROUNDS = int(os.environ.get("BENCH_FANOUT_VIEWS_ROUNDS", 5))


def envelopes_of(game: str, players: list[str]) -> list[Envelope]:
    played = playout(load_engine(game), players, seed=1, check=False)
    return [Envelope(stream="game.g", seq=seq, type=event.type, data=event.model_dump(mode="json"), time="t",
                     prev_hash="", hash="") for seq, event in enumerate(played.events, start=1)]


def per_event(game: str, players: list[str], envelopes: list[Envelope], shared: bool) -> float:
    """CPU seconds per event, delivering every envelope to every socket through a fresh channel."""
    engine = load_engine(game)
    watches = [watch_game(engine, "g", 0, player) for player in players] + \
              [watch_game(engine, "g", 0, None) for _ in range(SPECTATORS)]
    channel = Channel("game.g")
    if shared:
        channel.alike = watches[-1].alike
    for watch in watches:
        channel.join(Sink(watch.view, watch.encode, Discard(), 0, lambda sink, reason: None))
    started = time.process_time()
    for envelope in envelopes:
        channel.add(envelope)
        channel.deliver([envelope])
    return (time.process_time() - started) / len(envelopes)


def spread(values: list[float], scale: float = 1e6, digits: int = 1) -> str:
    ordered = sorted(values)
    return " / ".join(f"{v * scale:.{digits}f}" for v in (ordered[0], statistics.median(ordered), ordered[-1]))


def main() -> None:
    print(f"µs of the lobby's CPU per event pushed, each seat one socket + {SPECTATORS} spectators; "
          f"min / median / max of {ROUNDS} rounds")
    for game, players in GAMES.items():
        envelopes = envelopes_of(game, players)
        per_view, alike, ratios = [], [], []
        for _ in range(ROUNDS):
            per_view.append(per_event(game, players, envelopes, shared=False))
            alike.append(per_event(game, players, envelopes, shared=True))
            ratios.append(alike[-1] / per_view[-1])
        print(f"  {game:<8} {len(envelopes):>6} events, {len(players)} seats: per view {spread(per_view)}   "
              f"alike {spread(alike)}   alike / per view {spread(ratios, 1, 2)}")


if __name__ == "__main__":
    main()
