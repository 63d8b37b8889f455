"""The checker counts what must never happen, and only that: each count is provoked here on purpose.

Games are real testjack games played through the real adjudicator on the in-memory store; scoring is
an in-memory reader with the same two reads as `scoring.client.ScoringReader`.
"""
from __future__ import annotations

from collections import defaultdict

from adjudicator.service import Adjudicator
from starbase_core.envelope import GENESIS_HASH, NewEvent, seal
from starbase_core.gamestream import ends_game
from starbase_core.seeds import MemorySeedVault
from starbase_core.store_memory import MemoryEventStore
from starbase_rules.registry import get_game as registry_game
from tests.support import testjack

from starbase_chaos.checker import check
from starbase_chaos.journal import ACKNOWLEDGED, BOARD, REFUSED, TRUCKER, UNANSWERED, Journal


def get_game(name: str):
    return testjack.GAME if name == "testjack" else registry_game(name)


class Scores:
    """Scoring's reads, in memory: what a correct (or a faulty) scoring would hold."""

    def __init__(self):
        self.results: dict[str, dict] = {}
        self.histories: dict[str, list[dict]] = defaultdict(list)

    def score(self, game_id: str, envelopes, times: int = 1) -> None:
        self.results[game_id] = {"game_id": game_id}
        for standing in envelopes[-1].data["standings"]:
            self.histories[standing["player"]] += [{"game_id": game_id}] * times

    async def result(self, game_id: str):
        return self.results.get(game_id)

    async def history(self, player: str, offset: int = 0, limit: int = 50):
        return self.histories[player][offset:offset + limit]


async def played(game_id: str = "g1"):
    """A whole testjack game through the adjudicator, every command journaled as acknowledged."""
    store, journal = MemoryEventStore(), Journal()
    adjudicator = Adjudicator(store, MemorySeedVault(), games=get_game)
    await adjudicator.create_game(game_id, "testjack", ["ann", "bob"], {})
    for count in range(20):
        record = await adjudicator.record(game_id)
        if record.ended is not None:
            break
        actor = record.engine.to_act(record.state)[0]
        stored = await adjudicator.submit(game_id, actor, {"type": "Stand"}, f"{actor}:c{count}")
        journal.record(BOARD, game_id, f"{actor}:c{count}", ACKNOWLEDGED, [e.seq for e in stored])
    envelopes = await store.read(f"game.{game_id}")
    assert ends_game(envelopes[-1])
    return store, journal, envelopes


async def test_a_clean_run_has_every_must_be_zero_count_at_zero():
    store, journal, envelopes = await played()
    journal.record(BOARD, "g1", "ann:never-sent", REFUSED, code="NOT_YOUR_TURN")
    journal.record(BOARD, "g1", "bob:lost-in-transit", UNANSWERED)
    scores = Scores()
    scores.score("g1", envelopes)
    verdict = await check(store, journal, scoring=scores, get_game=get_game, settle=0)
    assert verdict.failures() == []
    assert (verdict.acknowledged, verdict.refused, verdict.unanswered) == (2, 1, 1)
    assert (verdict.finished, verdict.audit_passed, verdict.scored_once) == (1, 1, 1)


async def test_an_acknowledged_command_missing_from_the_store_is_lost():
    store, journal, envelopes = await played()
    journal.record(BOARD, "g1", "ann:phantom", ACKNOWLEDGED, [len(envelopes) + 1])
    journal.record(BOARD, "g1", "bob:c1", ACKNOWLEDGED, [2])         # acknowledged at another command's seq
    verdict = await check(store, journal, get_game=get_game, reread=1)
    assert verdict.lost == 2 and verdict.failures() == ["lost 2"]


async def test_a_refused_command_found_in_the_store_was_refused_but_applied():
    store, journal, _ = await played()
    journal.record(BOARD, "g1", "ann:c0", REFUSED, code="NOT_YOUR_TURN")
    verdict = await check(store, journal, get_game=get_game)
    assert verdict.refused_but_applied == 1 and verdict.failures() == ["refused_but_applied 1"]


def forged_stream(command_ids: list[str | None], metas: list[dict] | None = None):
    """A well-chained stream whose appends carry these command ids (a store that forgot one)."""
    envelopes, last_seq, last_hash = [], 0, GENESIS_HASH
    for index, command_id in enumerate(command_ids):
        meta = (metas or [{}] * len(command_ids))[index]
        envelopes += seal("game.x", [NewEvent(type="Ticked", meta=meta)], last_seq=last_seq, last_hash=last_hash,
                          command_id=command_id)
        last_seq, last_hash = envelopes[-1].seq, envelopes[-1].hash
    return envelopes


class FixedStore:
    def __init__(self, envelopes):
        self.envelopes = envelopes

    async def read(self, stream: str, from_seq: int = 1):
        return [e for e in self.envelopes if e.seq >= from_seq]


async def test_one_command_id_in_two_appends_is_duplicated_and_so_is_a_trucker_move_stored_twice():
    moves = [{}, {"request_id": "ann:m1"}, {}, {"request_id": "ann:m1"}]
    store = FixedStore(forged_stream(["a", "b", "a", "c"], moves))
    verdict = await check(store, Journal(), get_game=get_game, extra_games={"x"})
    assert verdict.duplicated == 2 and verdict.failures() == ["duplicated 2"]


async def test_a_trucker_move_is_held_to_its_request_id_at_its_first_seq():
    store = FixedStore(forged_stream(["e:1", "e:2"], [{"request_id": "ann:m1"}, {"request_id": "ann:m2"}]))
    journal = Journal()
    journal.record(TRUCKER, "x", "ann:m1", ACKNOWLEDGED, [1])
    journal.record(TRUCKER, "x", "ann:m2", ACKNOWLEDGED, [1])          # not what seq 1 holds
    journal.record(TRUCKER, "x", "ann:m3", REFUSED, code="HAND_FULL")
    journal.record(TRUCKER, "x", "ann:m2", REFUSED, code="HAND_FULL")   # yet it is in the stream
    verdict = await check(store, journal, get_game=get_game, reread=1)
    assert (verdict.lost, verdict.refused_but_applied) == (1, 1)


async def test_a_tampered_event_breaks_the_chain_and_fails_the_audit():
    store, journal, envelopes = await played()
    tampered = list(envelopes)
    tampered[2] = tampered[2].model_copy(update={"data": {**tampered[2].data, "card": 99}})
    verdict = await check(FixedStore(tampered), journal, get_game=get_game)
    assert verdict.chain_breaks == 1 and verdict.audit_failed == 1


async def test_a_finished_game_must_be_scored_exactly_once_for_each_player():
    store, journal, envelopes = await played()
    for scores, expected in ((Scores(), 1), (_scored(envelopes, 2), 1), (_scored(envelopes, 1), 0)):
        verdict = await check(store, journal, scoring=scores, get_game=get_game, settle=0)
        assert verdict.not_scored_once == expected


def _scored(envelopes, times: int) -> Scores:
    scores = Scores()
    scores.score("g1", envelopes, times)
    return scores


def test_a_journal_written_as_json_lines_reads_back_the_same(tmp_path):
    journal = Journal()
    journal.record(BOARD, "g1", "ann:c1", ACKNOWLEDGED, [4, 5])
    journal.record(TRUCKER, "g2", "bob:m1", REFUSED, code="HAND_FULL")
    journal.dump(tmp_path / "worker-1.jsonl")
    assert Journal.load(tmp_path / "worker-1.jsonl").records == journal.records
