// The socket protocol reader: version 1 (docs/asyncapi.yaml: the lobby's and the Trucker service's
// sockets), and the lobby's events from before version 1.
import assert from "node:assert/strict";
import { test } from "node:test";
import { closeStatus, isFinalClose, lobbyMoveMessage, moveMessage, normalize } from "../build-unit/api/protocol.js";

const event = { stream: "game.g1", seq: 7, type: "TileLaid", data: { hex: "E7" }, actor: "ann", time: "2026-01-01T00:00:00Z" };

test("the lobby's event before version 1: kind at the top, the event's own fields beside it", () => {
  const message = normalize({ kind: "event", ...event });
  assert.equal(message.kind, "event");
  assert.equal(message.event.seq, 7);
  assert.equal(message.event.type, "TileLaid");
  assert.deepEqual(message.event.data, { hex: "E7" });
});

test("version 1 event: the event nested under `event`, its type not confused with the message kind", () => {
  const message = normalize({ v: 1, kind: "event", event });
  assert.equal(message.kind, "event");
  assert.equal(message.event.type, "TileLaid");
  assert.equal(message.event.actor, "ann");
});

test("Trucker's messages are version 1: welcome with its view, acks, events", () => {
  assert.equal(normalize({ v: 1, kind: "event", event: { ...event, seq: 3, type: "ComponentGrabbed" } }).event.type,
    "ComponentGrabbed");
  const welcome = normalize({ v: 1, kind: "welcome", stream: "game.g1", you: "ann", seq: 41, view: { round: 1 } });
  assert.deepEqual([welcome.kind, welcome.stream, welcome.you, welcome.seq, welcome.view], ["welcome", "game.g1", "ann", 41, { round: 1 }]);
  const ack = normalize({ v: 1, kind: "ack", id: "7", first_seq: 42, seq: 43, retried: false,
                          events: [{ stream: "game.g1", seq: 42, type: "A" }, { stream: "game.g1", seq: 43, type: "B" }] });
  assert.deepEqual([ack.kind, ack.id, ack.seq, ack.events.length], ["ack", "7", 43, 2]);
});

test("the shapes before version 1 of Trucker are not read: no `kind`, nothing known", () => {
  for (const raw of [{ type: "welcome", you: "ann", seq: 41 }, { type: "refused", id: "9", code: "HAND_FULL", message: "…" },
                     { type: "ack", id: "7", seq: 43, events: [] }]) {
    assert.equal(normalize(raw).kind, "unknown", JSON.stringify(raw));
  }
});

test("a refusal of a move and of the connection: one error shape", () => {
  const lobby = normalize({ v: 1, kind: "error", id: null, error: { code: "BAD_AFTER", message: "after must be…" } });
  const move = normalize({ v: 1, kind: "error", id: "9", error: { code: "HAND_FULL", message: "one tile at a time" } });
  assert.deepEqual(lobby, { kind: "error", id: null, error: { code: "BAD_AFTER", message: "after must be…" } });
  assert.deepEqual(move, { kind: "error", id: "9", error: { code: "HAND_FULL", message: "one tile at a time" } });
});

test("your_turn pushes: the game, the seq the decision is owed after, and its due time", () => {
  assert.deepEqual(normalize({ v: 1, kind: "your_turn", game_id: "g1", seq: 12, since: "2026-01-01T00:00:00Z", due_at: "2026-01-01T00:01:00Z" }),
    { kind: "your_turn", gameId: "g1", seq: 12, dueAt: "2026-01-01T00:01:00Z" });
  assert.equal(normalize({ v: 1, kind: "your_turn", game_id: "g1", seq: 12, since: null, due_at: null }).dueAt, null);
  assert.equal(normalize({ v: 1, kind: "your_turn", seq: 12 }).kind, "unknown");
});

test("version 1 welcome and chat; the earlier lobby chat with its fields at the top", () => {
  const welcome = normalize({ v: 1, kind: "welcome", stream: "table.t1", you: null, seq: 4 });
  assert.deepEqual(welcome, { kind: "welcome", stream: "table.t1", you: null, seq: 4, view: undefined });
  const chat = { id: 17, table_id: "t1", player_id: "p1", name: "ann", text: "good luck", time: "2026-01-01T12:00:00Z" };
  assert.deepEqual(normalize({ v: 1, kind: "chat", chat }), { kind: "chat", chat });
  assert.deepEqual(normalize({ kind: "chat", ...chat }), { kind: "chat", chat });
  assert.equal(normalize({ v: 1, kind: "chat", chat: { id: "17", text: "x" } }).kind, "unknown");
});

test("anything else is unknown, never an event", () => {
  for (const raw of [null, 3, "x", {}, { kind: "event" }, { kind: "event", seq: "7", type: "X" }, { v: 1, kind: "event", event: {} }]) {
    assert.equal(normalize(raw).kind, "unknown", JSON.stringify(raw));
  }
});

test("close codes: 4000 + the HTTP status; bans and missing games are final, slowness and tickets are not", () => {
  assert.equal(closeStatus(4404), 404);
  assert.equal(closeStatus(1006), null);
  assert.equal(isFinalClose(4401), false);
  assert.equal(isFinalClose(4403), true);
  assert.equal(isFinalClose(4429), false);
  assert.equal(isFinalClose(4404), true);
  assert.equal(isFinalClose(4008), false);
  assert.equal(isFinalClose(4408), false);
  assert.equal(isFinalClose(1011), false);
});

test("a Trucker move is version 1's move: the engine's command under an id; `at` left out where the service stamps its clock", () => {
  assert.deepEqual(moveMessage("m1", { type: "PlaceComponent", square: [7, 6], rotation: 1 }),
    { v: 1, kind: "move", id: "m1", command: { type: "PlaceComponent", square: [7, 6], rotation: 1 } });
  assert.deepEqual(moveMessage("m2", { type: "TurnTimer", at: 1712.5 }), { v: 1, kind: "move", id: "m2", command: { type: "TurnTimer" } });
  assert.deepEqual(moveMessage("m3", { type: "Finish", order_tile: 2 }), { v: 1, kind: "move", id: "m3", command: { type: "Finish", order_tile: 2 } });
});

test("an event push that carries the game's clock hands it on; one without has none", () => {
  const clock = { control: { decision_seconds: 60 }, seq: 7, seats: { ann: { bank_seconds: null, owes_since: null, due_at: null } } };
  assert.deepEqual(normalize({ v: 1, kind: "event", event, clock }).clock, clock);
  assert.equal("clock" in normalize({ v: 1, kind: "event", event }), false);
});

test("the lobby's clock push: the game, the seq it is as of, and the clock", () => {
  const clock = { control: { decision_seconds: null, bank_seconds: 600 }, seq: 12, paused: false, paused_at: null,
                  seats: { ann: { bank_seconds: 512.25, owes_since: "2026-12-02T04:59:30+00:00", due_at: "2026-12-02T05:08:02+00:00" } } };
  assert.deepEqual(normalize({ v: 1, kind: "clock", table_id: "g1", game_id: "g1", seq: 12, now: "2026-12-02T05:00:00Z", clock }),
    { kind: "clock", gameId: "g1", seq: 12, clock });
  assert.equal(normalize({ v: 1, kind: "clock", game_id: "g1", seq: 12 }).kind, "unknown");
});

test("a move on a lobby game socket, and its refusal naming the POST's status", () => {
  assert.deepEqual(lobbyMoveMessage("web-1", { type: "TurnTimer", at: 3 }),
                   { v: 1, kind: "move", id: "web-1", command: { type: "TurnTimer", at: 3 } });   // nothing stripped
  const limited = normalize({ v: 1, kind: "error", id: "web-2", status: 429, retry_after: 4,
                              error: { code: "RATE_LIMITED", message: "too many commands" } });
  assert.deepEqual(limited, { kind: "error", id: "web-2", status: 429, retryAfter: 4,
                              error: { code: "RATE_LIMITED", message: "too many commands" } });
  const ack = normalize({ v: 1, kind: "ack", id: "web-3", first_seq: 7, seq: 7, events: [event] });
  assert.equal(ack.kind, "ack");
  assert.deepEqual([ack.id, ack.seq, ack.events.map((e) => e.seq)], ["web-3", 7, [7]]);
});
