"""The checker: what clients were told (a `Journal`) against what the store and scoring hold.

    verdict = await check(store, journal, scoring=ScoringReader(redis, prefix), get_game=get_game)
    verdict.failures()      # [] when every count that must be zero is zero

For every game the journal names (and any `extra_games`), it reads the game's stream once and counts:
- **lost**: acknowledged, but the stream does not hold it at the seqs the acknowledgement named;
- **duplicated**: one command id stored by two appends (board games: two separate runs of envelopes
  with that command id; Trucker: two moves carrying the same `meta.request_id`), for every command in
  the stream, the journal's or not (the clock's defaults too);
- **refused but applied**: refused, yet its command id is in the stream;
- **audits**: `starbase_core.audit.audit_game` on every finished game (PASS or FAIL);
- **chain breaks**: games whose hash chain does not hold (finished or not);
- **scored once**: finished games whose result scoring holds and that appear exactly once in the
  history of each of their players (waiting up to `settle` seconds for scoring to catch up).

It reads through the event-store port only (`read`), so it works on any store adapter, and it is what
a load tool calls after its run (`starbase load`, a Locust run) with the journal it kept.
"""
from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from starbase_core.audit import PASS, audit_game
from starbase_core.envelope import Envelope, chain_problems
from starbase_core.gamestream import ends_game
from starbase_rules.registry import get_game as registry_game

from starbase_chaos.journal import ACKNOWLEDGED, BOARD, REFUSED, UNANSWERED, Journal, Record

REQUEST_ID = "request_id"      # where a Trucker move's id is kept (`trucker.relay.new_event`)
EXAMPLES = 8                   # problems quoted per verdict, for the reader of the table


@dataclass
class Verdict:
    acknowledged: int = 0
    refused: int = 0
    unanswered: int = 0
    lost: int = 0
    duplicated: int = 0
    refused_but_applied: int = 0
    games: int = 0
    finished: int = 0
    audit_passed: int = 0
    audit_failed: int = 0
    chain_breaks: int = 0
    scored_once: int = 0
    not_scored_once: int = 0
    examples: list[str] = field(default_factory=list)

    MUST_BE_ZERO = ("lost", "duplicated", "refused_but_applied", "audit_failed", "chain_breaks", "not_scored_once")

    def failures(self) -> list[str]:
        return [f"{name} {getattr(self, name)}" for name in self.MUST_BE_ZERO if getattr(self, name)]

    def note(self, problem: str) -> None:
        if len(self.examples) < EXAMPLES:
            self.examples.append(problem)

    def figures(self) -> dict:
        return {name: value for name, value in vars(self).items()}


@dataclass
class _Stream:
    envelopes: list[Envelope]

    def holds(self, record: Record) -> bool:
        """Is the acknowledged `record` at the seqs it was acknowledged with?"""
        if not record.seqs:
            return self.carries(record)
        first = record.seqs[0]
        if first > len(self.envelopes):
            return False
        at = self.envelopes[first - 1]
        if record.kind == BOARD:
            return all(s <= len(self.envelopes) and self.envelopes[s - 1].command_id == record.command_id
                       for s in record.seqs)
        return at.meta.get(REQUEST_ID) == record.command_id

    def carries(self, record: Record) -> bool:
        if record.kind == BOARD:
            return any(e.command_id == record.command_id for e in self.envelopes)
        return any(e.meta.get(REQUEST_ID) == record.command_id for e in self.envelopes)

    def duplicates(self) -> list[str]:
        """Command ids stored by more than one append, and Trucker moves stored twice."""
        appends: Counter[str] = Counter()
        previous = None
        for envelope in self.envelopes:
            if envelope.command_id and envelope.command_id != previous:
                appends[envelope.command_id] += 1
            previous = envelope.command_id
        moves = Counter(e.meta[REQUEST_ID] for e in self.envelopes if e.meta.get(REQUEST_ID))
        return sorted({c for c, n in appends.items() if n > 1} | {m for m, n in moves.items() if n > 1})


async def check(store, journal: Journal, *, scoring=None, get_game: Callable = registry_game,
                extra_games: set[str] | None = None, settle: float = 30.0, reread: int = 3) -> Verdict:
    """Hold the store (and scoring, if given a `scoring.client.ScoringReader`) to the journal."""
    verdict = Verdict(acknowledged=len(journal.of(ACKNOWLEDGED)), refused=len(journal.of(REFUSED)),
                      unanswered=len(journal.of(UNANSWERED)))
    by_game: dict[str, list[Record]] = {}
    for record in journal.records:
        by_game.setdefault(record.game_id, []).append(record)
    for game_id in extra_games or ():
        by_game.setdefault(game_id, [])
    verdict.games = len(by_game)
    finished: dict[str, list[Envelope]] = {}
    for game_id, records in sorted(by_game.items()):
        stream = await _read_settled(store, game_id, records, reread)
        _check_game(verdict, game_id, stream, records, get_game)
        if stream.envelopes and ends_game(stream.envelopes[-1]):
            finished[game_id] = stream.envelopes
    verdict.finished = len(finished)
    if scoring is not None:
        await _check_scoring(verdict, scoring, finished, settle)
    return verdict


async def _read_settled(store, game_id: str, records: list[Record], attempts: int) -> _Stream:
    """The game's stream; read again (a replica may lag just after a failover) while an acknowledged
    record is missing from it."""
    acknowledged = [r for r in records if r.outcome == ACKNOWLEDGED]
    for attempt in range(attempts):
        stream = _Stream(await store.read(f"game.{game_id}"))
        if all(stream.holds(r) for r in acknowledged):
            break
        await asyncio.sleep(1.0)
    return stream


def _check_game(verdict: Verdict, game_id: str, stream: _Stream, records: list[Record], get_game) -> None:
    for record in records:
        if record.outcome == ACKNOWLEDGED and not stream.holds(record):
            verdict.lost += 1
            verdict.note(f"lost: {record.kind} {record.command_id} of game {game_id} at seqs {list(record.seqs)}")
        elif record.outcome == REFUSED and stream.carries(record):
            verdict.refused_but_applied += 1
            verdict.note(f"refused ({record.code}) but applied: {record.command_id} of game {game_id}")
    for duplicate in stream.duplicates():
        verdict.duplicated += 1
        verdict.note(f"duplicated: {duplicate} in game {game_id}")
    if problems := chain_problems(stream.envelopes, stream=f"game.{game_id}"):
        verdict.chain_breaks += 1
        verdict.note(f"chain of game {game_id}: {problems[0]}")
    if stream.envelopes and ends_game(stream.envelopes[-1]):
        report = audit_game(game_id, stream.envelopes, get_game)
        if report.verdict == PASS:
            verdict.audit_passed += 1
        else:
            verdict.audit_failed += 1
            verdict.note(f"audit of game {game_id}: {'; '.join(report.problems[:2])}")


async def _check_scoring(verdict: Verdict, scoring, finished: dict[str, list[Envelope]], settle: float) -> None:
    deadline = asyncio.get_running_loop().time() + settle
    while True:
        results = {game_id: await scoring.result(game_id) for game_id in finished}
        if all(results.values()) or asyncio.get_running_loop().time() >= deadline:
            break
        await asyncio.sleep(0.5)
    histories: dict[str, Counter[str]] = {}
    for game_id, envelopes in finished.items():
        players = [s["player"] for s in envelopes[-1].data.get("standings", [])]
        for player in players:
            if player not in histories:
                histories[player] = Counter(h["game_id"] for h in await scoring.history(player, 0, 100_000))
        counts = [histories[p][game_id] for p in players]
        if results[game_id] is not None and counts and all(count == 1 for count in counts):
            verdict.scored_once += 1
        else:
            verdict.not_scored_once += 1
            verdict.note(f"game {game_id} scored {'never' if results[game_id] is None else counts} (want once each)")
