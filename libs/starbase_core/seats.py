"""Who plays each seat of a game, folded from its stream: the seat's player, a bot, or a substitute.

A game's players are its seats' pseudonymous ids (the envelope's `actor` is always one of them). Who
*controls* a seat changes: the player resigns (`PlayerResigned`: the engine's bot plays the seat from
then on), a substitute takes it (`SeatTaken`), a table seats a bot from the start (the platform option
`bots`, `{seat id: level}`). A command names its controller in `meta.played_by`, recorded on the
command's first envelope:

    absent         the seat's own player
    "bot:<level>"  the bot worker, for a bot-controlled seat
    <player id>    a substitute holding the seat
    "clock"        the decision clock's default for an absent player (any seat)
    "platform"     a forced move (the seat's only legal action), played by the platform (any seat)

`check_controller` is the one rule, applied by the platform transaction (so by the adjudicator and,
re-run, by the audit): a seat's command is accepted from its current controller only.

**A resignation that leaves too few people.** The game goes on, the bot playing the resigned seat, as
long as at least `min(2, humans at the start)` seats are still held by people (players or substitutes).
Otherwise it ends at once (`GameEnded`, reason `resigned`) with `resignation_standings`: every seat
whose player did not resign shares rank 1; those who resigned come after, the last to resign best. No
score is invented: every score is 0. So in a 2-player game the resigner concedes and loses; a lone
person playing against bots who resigns ends the game, last.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from starbase_rules.contract import Outcome, RuleViolation, Standing

BOT_LEVELS = ("easy", "normal", "strong")
REPLACEMENT_LEVEL = "normal"      # the bot that takes over a resigned seat
CLOCK = "clock"
PLATFORM = "platform"
BOT_PREFIX = "bot:"
RESIGNED_REASON = "resigned"


def bot_controller(level: str) -> str:
    return f"{BOT_PREFIX}{level}"


def is_bot(controller: str | None) -> bool:
    return controller is not None and controller.startswith(BOT_PREFIX)


def bots_problems(bots: object, players: list[str] | None = None) -> list[str]:
    """What is wrong with a `bots` option ({seat id: level}); `players`, when known, must hold them all
    and at least one seat must be a person's."""
    if not isinstance(bots, dict) or not all(isinstance(p, str) for p in bots):
        return ["bots must map seat ids to a bot level"]
    problems = [f"bot level {level!r} is not one of {', '.join(BOT_LEVELS)}"
                for level in bots.values() if level not in BOT_LEVELS]
    if players is not None:
        problems += [f"bot seat {p!r} is not a player of this game" for p in bots if p not in players]
        if players and all(p in bots for p in players):
            problems.append("at least one seat must be a person's")
    return problems


@dataclass
class SeatControl:
    """The controller of every seat (seat id → the seat id itself, a substitute's id, or bot:<level>),
    who resigned (in order) and who gave a seat up (players and substitutes alike)."""

    controllers: dict[str, str] = field(default_factory=dict)
    resigned: list[str] = field(default_factory=list)
    quitters: list[str] = field(default_factory=list)
    humans_at_start: int = 0

    @classmethod
    def opening(cls, players: list[str], bots: dict) -> "SeatControl":
        controllers = {p: bot_controller(bots[p]) if p in bots else p for p in players}
        return cls(controllers, humans_at_start=sum(1 for p in players if p not in bots))

    def humans(self) -> list[str]:
        """The seats people hold now."""
        return [seat for seat, controller in self.controllers.items() if not is_bot(controller)]

    def resign(self, seat: str, by: str, level: str) -> None:
        self.controllers[seat] = bot_controller(level)
        if seat not in self.resigned:
            self.resigned.append(seat)
        self.quitters.append(by)

    def take(self, seat: str, by: str) -> None:
        self.controllers[seat] = by

    def too_few_people(self) -> bool:
        return len(self.humans()) < min(2, self.humans_at_start)

    def as_plain(self) -> dict:
        return {"controllers": dict(self.controllers), "resigned": list(self.resigned),
                "quitters": list(self.quitters), "humans_at_start": self.humans_at_start}

    @classmethod
    def from_plain(cls, data: dict) -> "SeatControl":
        return cls(dict(data["controllers"]), list(data["resigned"]), list(data["quitters"]),
                   int(data["humans_at_start"]))


def check_controller(seats: SeatControl, actor: str, played_by: str | None) -> None:
    """Refuse a command for seat `actor` unless `played_by` controls it now (see the module's table)."""
    controller = seats.controllers.get(actor)
    if played_by in (CLOCK, PLATFORM):
        return
    claimed = actor if played_by is None else played_by
    if controller != claimed:
        held = "a bot" if is_bot(controller) else "a substitute" if controller != actor else "its player"
        raise RuleViolation("NOT_IN_CONTROL", f"seat {actor} is played by {held} now, not by {claimed}")


def resignation_standings(players: list[str], resigned: list[str]) -> Outcome:
    """The platform's standings of a game ended by resignations (see the module's docstring)."""
    staying = [p for p in players if p not in resigned]
    order = staying + list(reversed(resigned))
    standings, better = [], 0
    for index, player in enumerate(order):
        if player in resigned:
            better = index
        standings.append(Standing(player=player, rank=1 + (better if player in resigned else 0), score=0))
    return Outcome(standings=standings, reason=RESIGNED_REASON)
