// The clock's arithmetic: each seat's time left from a view's `clock`, low time, pauses and pushes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isLow, seatTime, splitTime, withPush } from "../build-unit/game/clockMath.js";

const now = Date.parse("2026-01-01T12:00:00Z");
const control = { decision_seconds: 120, bank_seconds: 600, increment_seconds: 10, timeout_policy: "default_move" };
const clock = {
  control, seq: 9,
  seats: {
    ann: { bank_seconds: 580, owes_since: "2026-01-01T11:59:00Z", due_at: "2026-01-01T12:01:00Z" },
    bob: { bank_seconds: 600, owes_since: null, due_at: null },
    cy: { bank_seconds: null, owes_since: null, due_at: null },
  },
};

test("a seat that owes counts down to its due time; the others show their bank", () => {
  assert.deepEqual(seatTime(clock, clock.seats.ann, now), { left: 60, running: true, low: false });
  assert.deepEqual(seatTime(clock, clock.seats.ann, now + 59_500), { left: 1, running: true, low: true });
  assert.deepEqual(seatTime(clock, clock.seats.ann, now + 600_000), { left: 0, running: true, low: true });
  assert.deepEqual(seatTime(clock, clock.seats.bob, now), { left: 600, running: false, low: false });
  assert.deepEqual(seatTime(clock, clock.seats.cy, now), { left: 120, running: false, low: false });
  assert.deepEqual(seatTime(clock, undefined, now), { left: null, running: false, low: false });
});

test("low time: 30 s, or a fifth of a short per-decision limit (at least 5 s)", () => {
  assert.equal(isLow(30, 3600), true);
  assert.equal(isLow(31, 3600), false);
  assert.equal(isLow(12, 60), true);
  assert.equal(isLow(13, 60), false);
  assert.equal(isLow(5, 10), true);
  assert.equal(isLow(6, 10), false);
  assert.equal(isLow(30, null), true);
});

test("a paused clock counts nothing: the bank stands still", () => {
  const paused = { ...clock, paused_at: "2026-01-01T11:59:30Z", seats: { ...clock.seats, ann: { ...clock.seats.ann, due_at: null } } };
  assert.deepEqual(seatTime(paused, paused.seats.ann, now + 3_600_000), { left: 580, running: false, low: false });
});

test("times read as m:ss, h:mm:ss, and whole days apart", () => {
  assert.deepEqual(splitTime(65), { days: 0, clock: "1:05" });
  assert.deepEqual(splitTime(3723), { days: 0, clock: "1:02:03" });
  assert.deepEqual(splitTime(2 * 86400 + 5), { days: 2, clock: "0:00:05" });
  assert.deepEqual(splitTime(-4), { days: 0, clock: "0:00" });
});

test("a your_turn push newer than the view gives my seat its due time; an older one changes nothing", () => {
  const pushed = withPush(clock, "bob", { seq: 10, dueAt: "2026-01-01T12:02:00Z" });
  assert.equal(pushed.seats.bob.due_at, "2026-01-01T12:02:00Z");
  assert.deepEqual(seatTime(pushed, pushed.seats.bob, now), { left: 120, running: true, low: false });
  assert.equal(withPush(clock, "bob", { seq: 9, dueAt: "2026-01-01T12:02:00Z" }), clock);
  assert.equal(withPush(null, "bob", { seq: 10, dueAt: null }), null);
  assert.equal(withPush(clock, "zed", { seq: 10, dueAt: null }), clock);
});

test("a clock pushed as paused (`paused: true`) counts nothing either", () => {
  const paused = { ...clock, paused: true, paused_at: null, seats: { ...clock.seats, ann: { ...clock.seats.ann, due_at: null } } };
  assert.deepEqual(seatTime(paused, paused.seats.ann, now + 3_600_000), { left: 580, running: false, low: false });
});
