"""Review through the API: a past position as that viewer saw it then (never a card drawn later, never
another seat's hand) while the game runs, every seat's view once it is over; the log as text; the export
of a finished game, audited by `starbase audit --file` with no server to reach, and refused before."""
import json
from pathlib import Path

import pytest

from starbase_cli.main import main as starbase
from tests.support.stack import seat_and_start

pytestmark = pytest.mark.integration

NOWHERE = "nats://127.0.0.1:9"          # the discard port: nothing answers NATS there


async def views_now(game_id: str, players: dict) -> dict:
    """Every named viewer's live view (a spectator's too)."""
    return {name: await p.ok(p.get(f"/games/{game_id}/view")) for name, p in players.items()}


async def review(player, game_id: str, seq: int) -> dict:
    return await player.ok(player.get(f"/games/{game_id}/view", at=seq))


async def play_out(game_id: str, seats: dict, watchers: dict) -> dict[int, dict]:
    """Each seat draws once then stands; the live views of everyone at every seq the game stood at."""
    seen, drawn = {}, set()
    while True:
        now = await views_now(game_id, watchers)
        seen[now["eve"]["seq"]] = now
        if now["eve"]["ended"] is not None:
            return seen
        actor = next(name for name, p in seats.items() if p.player_id == now["eve"]["to_act"][0])
        command = "Stand" if actor in drawn else "Draw"
        drawn.add(actor)
        await seats[actor].ok(seats[actor].post(f"/games/{game_id}/commands", {"command": {"type": command}}))


async def test_review_shows_only_what_each_viewer_saw_then_and_everything_once_over(stack, register, tmp_path,
                                                                                   capsys):
    ann, bob, eve = await register("ann"), await register("bob"), await register("eve")
    game_id = await seat_and_start([ann, bob], "testjack")
    seats, watchers = {"ann": ann, "bob": bob}, {"ann": ann, "bob": bob, "eve": eve}

    first = await views_now(game_id, watchers)
    await ann.ok(ann.post(f"/games/{game_id}/commands", {"command": {"type": "Draw"}}))
    second = await views_now(game_id, watchers)
    running = {first["eve"]["seq"]: first, second["eve"]["seq"]: second}
    for seq, live in running.items():                       # while it runs: as each saw it then, no more
        for name, player in watchers.items():
            past = await review(player, game_id, seq)
            assert past["view"] == live[name]["view"] and past["to_act"] == live[name]["to_act"]
            assert past["game_over"] is False and "views" not in past
            assert "seed" not in json.dumps(past)
    assert (await review(eve, game_id, first["eve"]["seq"]))["view"]["my_hand"] is None
    early = await review(ann, game_id, first["eve"]["seq"])
    assert len(early["view"]["my_hand"]) == len(second["ann"]["view"]["my_hand"]) - 1    # not the card drawn later

    text = (await eve.get(f"/games/{game_id}/log", format="text")).text
    assert "CardDrawn" in text and "card=" not in text       # a spectator's log: no card while it runs
    refused = await eve.get(f"/games/{game_id}/export")
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "GAME_NOT_OVER")
    bad = await eve.get(f"/games/{game_id}/view", at=10_000)
    assert (bad.status_code, bad.json()["error"]["code"]) == (422, "UNKNOWN_POSITION")

    seen = await play_out(game_id, seats, watchers)
    seen.update(running)
    for seq in sorted(seen)[::2]:                            # once over: every seat's view, from anyone
        past = await review(eve, game_id, seq)
        assert past["game_over"] is True and past["view"]["my_hand"] is None
        assert {n: v["my_hand"] for n, v in past["views"].items()} == \
            {p.player_id: seen[seq][n]["view"]["my_hand"] for n, p in seats.items()}

    text = (await eve.get(f"/games/{game_id}/log", format="text")).text
    lines = text.splitlines()
    assert lines[0].startswith("#1 ") and "GameEnded" in lines[-1] and "seed=" in lines[-1]
    assert "card=" in text                                   # everything once over

    exported = await eve.get(f"/games/{game_id}/export")     # anyone, once over
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("application/x-ndjson")
    path = tmp_path / "game.jsonl"
    path.write_text(exported.text)
    envelopes = [json.loads(line) for line in exported.text.splitlines()]
    assert envelopes[-1]["type"] == "GameEnded" and envelopes[-1]["data"]["seed"]
    assert all(e["hash"] and "meta" in e for e in envelopes)

    capsys.readouterr()
    assert audit(game_id, path) == 0
    assert "VERDICT: PASS" in capsys.readouterr().out
    tampered = tmp_path / "tampered.jsonl"
    changed = [e if e["type"] != "CardDrawn" else {**e, "data": {**e["data"], "card": e["data"]["card"] % 10 + 1}}
               for e in envelopes]
    tampered.write_text("".join(json.dumps(e) + "\n" for e in changed))
    assert audit(game_id, tampered) == 1
    assert "VERDICT: FAIL" in capsys.readouterr().out


def audit(game_id: str, path: Path) -> int:
    """`starbase audit --file`, told to reach NATS where nothing answers (testjack, a test game, is
    registered in this process only, so the CLI runs here rather than in a process of its own)."""
    return starbase(["audit", game_id, "--file", str(path), "--nats-url", NOWHERE])
