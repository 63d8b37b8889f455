// Moves on a lobby game socket (src/game/moves.ts): answered by id, else by POST; a lost socket's moves
// go again by POST with the same id.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MovesInFlight } from "../build-unit/game/moves.js";

const event = { stream: "game.g1", seq: 8, type: "Passed", data: {}, actor: "ann", time: "2026-01-01T00:00:00Z", platform: false };

function book() {
  const posted = [];
  const moves = new MovesInFlight(async (command, id) => { posted.push([command, id]); return { command_id: id, events: [] }; },
                                  (status, code, message, retryAfter) => ({ status, code, message, retryAfter }));
  return { moves, posted };
}

test("a move on an open socket resolves with its ack's events, and a refusal rejects with its status", async () => {
  const { moves, posted } = book();
  const sent = [];
  const open = (id, command) => { sent.push([id, command]); return true; };
  const first = moves.send({ type: "Pass" }, "web-1", open);
  const second = moves.send({ type: "Pass" }, "web-2", open);
  assert.deepEqual(sent, [["web-1", { type: "Pass" }], ["web-2", { type: "Pass" }]]);
  assert.equal(moves.answered({ kind: "ack", id: "web-9", seq: 8, events: [event], raw: {} }), false);   // not ours
  assert.equal(moves.answered({ kind: "event", event }), false);
  assert.equal(moves.answered({ kind: "ack", id: "web-1", seq: 8, events: [event], raw: {} }), true);
  assert.equal(moves.answered({ kind: "error", id: "web-2", status: 429, retryAfter: 3,
                                error: { code: "RATE_LIMITED", message: "slow down" } }), true);
  assert.deepEqual(await first, { command_id: "web-1", events: [event] });
  await assert.rejects(second, (error) => {
    assert.deepEqual(error, { status: 429, code: "RATE_LIMITED", message: "slow down", retryAfter: 3 });
    return true;
  });
  assert.equal(moves.answered({ kind: "ack", id: "web-1", seq: 8, events: [], raw: {} }), false);        // settled once
  assert.deepEqual(posted, []);
});

test("a move the socket cannot take, and the moves a dropped socket was carrying, go by POST with their ids", async () => {
  const { moves, posted } = book();
  const closed = await moves.send({ type: "Pass" }, "web-3", () => false);
  const noSocket = await moves.send({ type: "Stand" }, "web-4", null);
  assert.deepEqual([closed.command_id, noSocket.command_id], ["web-3", "web-4"]);
  const carried = moves.send({ type: "Bid", amount: 5 }, "web-5", () => true);
  moves.lost();
  assert.deepEqual(await carried, { command_id: "web-5", events: [] });
  assert.deepEqual(posted, [[{ type: "Pass" }, "web-3"], [{ type: "Stand" }, "web-4"], [{ type: "Bid", amount: 5 }, "web-5"]]);
  moves.lost();                                                                       // nothing left: nothing sent
  assert.equal(posted.length, 3);
});
