"""Games imported from another site: their stream, and what an audit can verify of them.

An imported game's chance was drawn by the other site, not by our `FairRng`, so it has no secret seed
and its stream says so instead of committing to one:

    seq 1   GameCreated {game, players, options, commitment: "import:<site>", import: <origin>}
            draw_end 0, as in every envelope: no draw of ours is ever made
    …       the engine's setup events, then every command with its events (meta.command)
    last    GameEnded {standings, reason, seed: null}

`<origin>` names the site and its game, and either the site's seed (from which the engine re-derives
the setup as that site does) or the setup as recorded (a game first exported from here).

`audit_imported` verifies the hash chain and shape (as for any game), that the engine's
`imported_setup(players, options, origin)` gives exactly the recorded setup events, then re-runs every
recorded command through the engine with a random source that refuses any draw, requiring the same
events, actors and meta, the engine's invariants after every event, and the recorded end. It cannot
verify what happened on the other site: that its seed or setup is the one recorded, or that the
commands are a faithful translation of its actions (re-import the site's file to check that).
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Callable

from starbase_core.envelope import Envelope, NewEvent, seal
from starbase_core.gamestream import engine_options, game_created, game_ended, game_stream, wrap
from starbase_rules.contract import Game, Outcome, RuleViolation

IMPORT_PREFIX = "import:"


def is_imported(created: dict) -> bool:
    return str(created.get("commitment", "")).startswith(IMPORT_PREFIX)


def imported_created(game_name: str, players: list[str], options: dict, origin: dict) -> NewEvent:
    event = game_created(game_name, players, options, IMPORT_PREFIX + str(origin["site"]), 0)
    return event.model_copy(update={"data": {**event.data, "import": dict(origin)}})


def imported_ended(outcome: Outcome) -> NewEvent:
    event = game_ended(outcome, b"", 0)
    return event.model_copy(update={"data": {**event.data, "seed": None}})


def stamp(unix_seconds) -> str | None:
    """The other site's action time (unix seconds) as an envelope time; None when there is none."""
    if not isinstance(unix_seconds, (int, float)) or isinstance(unix_seconds, bool):
        return None
    moment = datetime.fromtimestamp(unix_seconds, tz=timezone.utc)
    return moment.isoformat(timespec="microseconds").replace("+00:00", "Z")


def imported_stream(game_id: str, game_name: str, players: list[str], options: dict, origin: dict,
                    setup: list, commands: list[tuple[str, dict, list, str | None]],
                    outcome: Outcome | None, created_at: str | None = None) -> list[Envelope]:
    """The hash-chained stream of an imported game: `commands` are (actor, command as JSON, the engine's
    events, time or None) in order; `outcome` the end (GameEnded) if the game is over."""
    stream = game_stream(game_id)
    sealed = seal(stream, [imported_created(game_name, players, options, origin),
                           *wrap(setup, actor=None, draw_end=0)],
                  last_seq=0, last_hash="0" * 64, command_id="import-create", time=created_at)
    when = created_at
    for number, (actor, command, events, time) in enumerate(commands, 1):
        when = time or when
        new = wrap(events, actor=actor, draw_end=0, command=command)
        if number == len(commands) and outcome is not None:
            new.append(imported_ended(outcome))
        sealed += seal(stream, new, last_seq=sealed[-1].seq, last_hash=sealed[-1].hash,
                       command_id=f"import-{number}", time=when)
    return sealed


class _NoDraws:
    """The random source of an imported game's re-run: it has none, so any draw is an error."""

    used = 0

    def randbelow(self, n: int) -> int:
        raise RuleViolation("DRAW_IN_IMPORT", "an imported game draws nothing of ours")

    def shuffle(self, items: list) -> list:
        raise RuleViolation("DRAW_IN_IMPORT", "an imported game draws nothing of ours")


def audit_imported(envelopes: list[Envelope], get_game: Callable[[str], Game], report) -> None:
    """Checks of an imported, finished game (the chain and shape are checked by `audit_game`)."""
    from starbase_core.audit import _commands, _Mismatch

    created, last = envelopes[0].data, envelopes[-1]
    origin = created.get("import")
    report.checks.append(f"imported from {created['commitment'][len(IMPORT_PREFIX):]}: chance drawn there, "
                         "not committed here (no seed to reveal)")
    if last.data.get("seed") is not None or not isinstance(origin, dict):
        report.problems.append("an imported game records its origin in GameCreated and reveals no seed")
        return
    try:
        engine = get_game(str(created.get("game", "")))
        setup_of = getattr(engine, "imported_setup", None)
        if setup_of is None:
            raise _Mismatch(f"{engine.name} cannot re-derive the setup of an imported game")
        setup = setup_of(list(created["players"]), engine_options(dict(created["options"])), origin)
        _same(envelopes[1:1 + len(setup)], wrap(setup, actor=None, draw_end=0), _Mismatch)
        report.checks.append(f"setup re-derived from the origin ({', '.join(sorted(k for k in origin if k != 'site'))})")
        count = _rerun(engine, envelopes, setup, _commands, _Mismatch)
    except _Mismatch as mismatch:
        report.problems.append(str(mismatch))
    except RuleViolation as refusal:
        report.problems.append(f"the rules refuse the import's setup: {refusal}")
    except Exception as error:  # a tampered stream can make an engine fail in any way
        report.problems.append(f"the rules engine could not re-run the stream: {error!r}")
    else:
        report.checks.append(f"{count} commands re-run through {engine.name} with no draws: same events, "
                             "invariants kept, same end")
        report.checks.append("not verifiable here: that the other site used this seed or setup, and that "
                             "the commands translate its actions (re-import its file to check)")


def _rerun(engine: Game, envelopes: list[Envelope], setup: list, commands_of, Mismatch) -> int:
    state = engine.initial_state()
    for event in setup:
        state = engine.evolve(state, event)
    groups = commands_of(envelopes[1 + len(setup):])
    for first, group in groups:
        command = first.meta["command"]
        where = f"seq {first.seq} ({command.get('type', '?') if isinstance(command, dict) else '?'} by {first.actor})"
        try:
            events = engine.decide(state, engine.parse_command(command), first.actor, _NoDraws())
        except RuleViolation as refusal:
            raise Mismatch(f"{where}: the rules refuse this command: {refusal}") from None
        expected = wrap(events, actor=first.actor, draw_end=0, command=command)
        for event in events:
            state = engine.evolve(state, event)
            if broken := engine.invariants(state):
                raise Mismatch(f"{where}: after {event.type} the invariants break: {'; '.join(broken)}")
        outcome = engine.outcome(state)
        if outcome is not None:
            expected.append(imported_ended(outcome))
        _same(group, expected, Mismatch)
        if outcome is not None and group[-1] is not envelopes[-1]:
            raise Mismatch(f"{where}: the game was over here but the stream goes on")
    if engine.outcome(state) is None:
        raise Mismatch("the stream ends the game but the rules say it is not over")
    return len(groups)


def _same(stored: list[Envelope], expected: list[NewEvent], Mismatch) -> None:
    if len(stored) != len(expected):
        raise Mismatch(f"the rules give {len(expected)} events where the stream holds {len(stored)}")
    for envelope, new in zip(stored, expected):
        if (envelope.type, envelope.data, envelope.actor, envelope.meta) != (new.type, new.data, new.actor, new.meta):
            raise Mismatch(f"seq {envelope.seq}: stored {envelope.type} {envelope.data} by {envelope.actor} "
                           f"but the rules give {new.type} {new.data} by {new.actor}")
