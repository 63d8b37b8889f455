"""Auditing a game from its stream alone.

`audit_game(envelopes, get_game)` checks, in order:
1. the hash chain (every hash matches its content, every prev_hash the envelope before, seq 1, 2, …);
2. the shape: GameCreated first, GameEnded (if any) last and once;
3. the revealed seed against GameCreated's commitment;
4. a full re-run: setup and then every recorded command (`meta.command`) through the rules engine, with
   `FairRng(seed, start=draw_end of the envelope before)`, must give exactly the stored events and
   draw counters, keep the engine's invariants, and end (GameEnded: standings, reason) exactly where
   the stream ends. Every draw is thereby re-derived from (seed, index). The re-run is the platform
   transaction, so it also checks who played each command (`meta.played_by` must have controlled the
   seat then; a move the platform played must have been forced), re-decides every resignation (and
   the standings of a game it ended), substitution and undo, and folds the stream without the
   commands an undo took back, as every reader does. `meta.request_id` (the id a
   client gave the request that carried a command, recorded by a real-time service so that a resend
   is answered, not applied again, even after its live state is lost) is the one meta key the rules
   cannot re-derive: it is not compared (the hash chain still covers it).

A game imported from another site (commitment "import:<site>") has no seed of ours: steps 3 and 4 are
`starbase_core.imported.audit_imported`'s, which says what it can and cannot verify.

A game still in progress has no revealed seed: its chain and shape are checked and the verdict says
the chance is not yet verifiable.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from starbase_core.envelope import Envelope, NewEvent, chain_problems
from starbase_core.gamestream import GAME_CREATED, GAME_ENDED, ends_game, is_platform, replay
from starbase_core.transaction import (
    REQUEST_ID, InvariantsBroken, decide_next, open_game, realtime_service,
)
from starbase_core.imported import audit_imported, is_imported
from starbase_core.tracing import SPAN_ID, TRACE_ID
from starbase_rules.contract import Game, RuleViolation
from starbase_rules.fair import commitment

PASS, FAIL, UNFINISHED = "PASS", "FAIL", "UNFINISHED"


@dataclass
class AuditReport:
    game_id: str
    checks: list[str] = field(default_factory=list)     # what was verified
    problems: list[str] = field(default_factory=list)   # what is wrong
    finished: bool = False

    @property
    def verdict(self) -> str:
        if self.problems:
            return FAIL
        return PASS if self.finished else UNFINISHED

    def render(self) -> str:
        lines = [f"audit of game {self.game_id}"]
        lines += [f"  ok   {check}" for check in self.checks]
        lines += [f"  FAIL {problem}" for problem in self.problems]
        summary = {
            PASS: "the stream is intact and every event and draw follows from the rules and the seed",
            FAIL: f"{len(self.problems)} problem(s) found",
            UNFINISHED: "the chain is intact; the game is not over, so its seed and draws cannot be checked yet",
        }[self.verdict]
        lines.append(f"VERDICT: {self.verdict}: {summary}")
        return "\n".join(lines)


def audit_game(game_id: str, envelopes: list[Envelope], get_game: Callable[[str], Game]) -> AuditReport:
    report = AuditReport(game_id)
    stream = f"game.{game_id}"
    if not envelopes:
        report.problems.append(f"no events for {stream}")
        return report
    broken = chain_problems(envelopes, stream=stream)
    report.problems += broken
    if not broken:
        report.checks.append(f"hash chain of {len(envelopes)} events from seq 1 to {envelopes[-1].seq}")
    if not _shape_ok(envelopes, report):
        return report
    created, last = envelopes[0].data, envelopes[-1]
    if not ends_game(last):
        return report
    report.finished = True
    if is_imported(created):                 # chance drawn on another site: no seed to check
        audit_imported(envelopes, get_game, report)
        return report
    try:
        seed = bytes.fromhex(last.data["seed"])
    except (KeyError, ValueError, TypeError):
        report.problems.append("GameEnded does not reveal a hex seed")
        return report
    if commitment(seed) != created.get("commitment"):
        report.problems.append("the revealed seed does not match the commitment published in GameCreated")
        return report
    report.checks.append("revealed seed matches the commitment")
    try:
        engine = get_game(str(created.get("game", "")))
    except RuleViolation as error:
        report.problems.append(error.message)
        return report
    _rerun(engine, envelopes, seed, report)
    return report


def _shape_ok(envelopes: list[Envelope], report: AuditReport) -> bool:
    if envelopes[0].type != GAME_CREATED or not is_platform(envelopes[0]):
        report.problems.append(f"the stream starts with {envelopes[0].type}, not {GAME_CREATED}")
        return False
    ends = [e.seq for e in envelopes if ends_game(e)]
    if ends and ends != [envelopes[-1].seq]:
        report.problems.append(f"{GAME_ENDED} must appear once, as the last event (found at seqs {ends})")
        return False
    return True


def _commands(envelopes: list[Envelope]):
    """Split the envelopes after the setup into (command, its envelopes) groups."""
    groups: list[tuple[Envelope, list[Envelope]]] = []
    for envelope in envelopes:
        starts = "command" in envelope.meta
        if starts:
            groups.append((envelope, [envelope]))
        elif groups and envelope.command_id == groups[-1][0].command_id:
            groups[-1][1].append(envelope)
        else:
            raise _Mismatch(f"seq {envelope.seq}: {envelope.type} was not produced by a recorded command")
    return groups


class _Mismatch(Exception):
    pass


UNCHECKED_META = frozenset({REQUEST_ID, TRACE_ID, SPAN_ID})


def _rerun(engine: Game, envelopes: list[Envelope], seed: bytes, report: AuditReport) -> None:
    try:
        commands, draws = _replay_commands(engine, envelopes, seed)
    except _Mismatch as mismatch:
        report.problems.append(str(mismatch))
    except Exception as error:  # a tampered stream can make an engine fail in any way
        report.problems.append(f"the rules engine could not re-run the stream: {error!r}")
    else:
        report.checks.append(f"setup and {commands} commands re-run through {engine.name}: same events")
        report.checks.append(f"{draws} draws re-derived from the seed")


def _replay_commands(engine: Game, envelopes: list[Envelope], seed: bytes) -> tuple[int, int]:
    """Re-run the stream with the platform's own transaction (`open_game`, `decide_next`): the code that
    wrote it. Returns (commands re-run, draws re-derived)."""
    created = envelopes[0].data
    try:
        opening = open_game(engine, list(created["players"]), dict(created["options"]), seed)
    except RuleViolation as error:
        raise _Mismatch(f"seq 1: the rules refuse this game's setup: {error}") from None
    if not _same_meta(engine, envelopes[0].meta, opening[0].meta):
        raise _Mismatch(f"seq 1: stored meta {envelopes[0].meta} but the setup gives draw_end "
                        f"{opening[0].meta['draw_end']}")
    setup = envelopes[:len(opening)]
    _compare(engine, setup[1:], opening[1:], "setup")
    # The stored setup is now known to be the re-run's: folding it gives the re-run's state.
    game_id = envelopes[0].stream.split(".", 1)[1]
    record = replay(game_id, setup, lambda _name: engine)
    groups = _commands(envelopes[len(opening):])
    for first, group in groups:
        command = first.meta["command"]
        where = f"seq {first.seq} ({command.get('type', '?') if isinstance(command, dict) else '?'} by {first.actor})"
        played_by = first.meta.get("played_by")
        try:
            # The audit plays every writer, so it decides as whichever service plays the current phase.
            decision = decide_next(record, command, first.actor, seed, played_by=played_by,
                                   service=realtime_service(record), check_invariants=True)
        except RuleViolation as error:
            raise _Mismatch(f"{where}: the rules refuse this command: {error}") from None
        except InvariantsBroken as broken:
            raise _Mismatch(f"{where}: {broken}") from None
        _compare(engine, group, decision.events, where)
        if decision.refold:        # an undo: the state is the fold of the (verified) stream so far
            end = group[-1].seq
            if envelopes[end - 1] is not group[-1]:
                raise _Mismatch(f"{where}: the stream's seqs do not follow 1, 2, 3, …")
            record = replay(game_id, envelopes[:end], lambda _name: engine)
        else:
            record.advance(decision.state, group)
        if decision.outcome is not None and group[-1] is not envelopes[-1]:
            raise _Mismatch(f"{where}: the game was over here but the stream goes on")
    if record.ended is None:
        raise _Mismatch("the stream ends the game but the rules say it is not over")
    return len(groups), record.draw_end


def _compare(engine: Game, stored: list[Envelope], expected: list[NewEvent], where: str) -> None:
    if len(stored) != len(expected):
        raise _Mismatch(f"{where}: the rules give {len(expected)} events, the stream holds {len(stored)}")
    for envelope, new in zip(stored, expected):
        if (envelope.type, envelope.data, envelope.actor) != (new.type, new.data, new.actor):
            raise _Mismatch(f"seq {envelope.seq}: stored {envelope.type} {envelope.data} by {envelope.actor} "
                            f"but the rules give {new.type} {new.data} by {new.actor}")
        if not _same_meta(engine, envelope.meta, new.meta):
            raise _Mismatch(f"seq {envelope.seq}: stored meta {envelope.meta} but the re-run gives {new.meta}")


def _same_meta(engine: Game, stored: dict, rerun: dict) -> bool:
    """Equal meta, with the recorded command compared by meaning: the transaction records the validated
    command in its canonical form, a real-time service's scripts may record an equal one without its
    defaults (`{"type": "Finish"}` for `{"type": "Finish", "order_tile": null}`)."""
    stored = {key: value for key, value in stored.items() if key not in UNCHECKED_META}
    if stored.keys() != rerun.keys():
        return False
    if "command" in stored and stored["command"] != rerun["command"]:
        try:
            if engine.parse_command(stored["command"]) != engine.parse_command(rerun["command"]):
                return False
        except RuleViolation:
            return False
    return all(stored[key] == rerun[key] for key in stored if key != "command")
