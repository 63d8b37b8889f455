// Who plays which seat, and taking moves back, as the table and the pushed events tell it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { giveSeatUp, mayTakeASeat, seatIPlay } from "../build-unit/game/seats.js";
import { lastMoveWas, pendingUndo } from "../build-unit/game/undo.js";

const seat = (n, player_id, extra = {}) => ({ seat: n, player_id, name: player_id, ready: true, ...extra });
const table = (seats) => ({ status: "playing", seats });

test("I play my own seat until I give it up, and a seat I took over", () => {
  const running = table([seat(0, "ann"), seat(1, "bob", { abandoned: true }), seat(2, "cy", { substitute: "dee" })]);
  assert.equal(seatIPlay(running, "ann")?.seat, 0);
  assert.equal(seatIPlay(running, "bob"), undefined);        // given up
  assert.equal(seatIPlay(running, "cy"), undefined);         // given up, then taken over
  assert.equal(seatIPlay(running, "dee")?.seat, 2);
  assert.equal(seatIPlay(running, null), undefined);
  assert.equal(mayTakeASeat(running, "eve"), true);
  for (const inTheGame of ["ann", "bob", "cy", "dee", null]) assert.equal(mayTakeASeat(running, inTheGame), false);
  assert.equal(mayTakeASeat({ ...running, status: "finished" }, "eve"), false);
});

const ev = (seq, type, actor, data = {}, platform = false) => ({ stream: "g", seq, type, actor, data, time: "", platform });

test("an undo request waits for everyone asked, and ends with a refusal, the undo, or any game move", () => {
  const asked = [ev(5, "Stood", "ann"), ev(6, "UndoRequested", "ann", { player: "ann", awaiting: ["bob", "cy"] }, true)];
  assert.deepEqual(pendingUndo(asked), { by: "ann", awaiting: ["bob", "cy"] });
  const oneAgreed = [...asked, ev(7, "UndoAgreed", "bob", { player: "bob" }, true)];
  assert.deepEqual(pendingUndo(oneAgreed), { by: "ann", awaiting: ["cy"] });
  assert.equal(pendingUndo([...oneAgreed, ev(8, "UndoRefused", "cy", { player: "cy" }, true)]), null);
  assert.equal(pendingUndo([...oneAgreed, ev(8, "CommandsUndone", "cy", { first_seq: 5, last_seq: 5 }, true)]), null);
  assert.equal(pendingUndo([...asked, ev(7, "Drew", "bob")]), null);
  assert.equal(pendingUndo([ev(5, "Stood", "ann")]), null);
});

test("only the last game move still standing is offered back, and only to its seat", () => {
  const events = [ev(3, "Stood", "ann"), ev(4, "PlayerResigned", "cy", { player: "cy" }, true)];
  assert.equal(lastMoveWas(events, "ann"), true);            // platform events are not moves
  assert.equal(lastMoveWas(events, "bob"), false);
  assert.equal(lastMoveWas([...events, ev(5, "CommandHadNoEffect", "bob", {}, true)], "ann"), false);   // bob moved
  const undone = [ev(2, "Stood", "bob"), ev(3, "Stood", "ann"), ev(4, "CommandsUndone", "ann", { first_seq: 3, last_seq: 3 }, true)];
  assert.equal(lastMoveWas(undone, "ann"), false);           // taken back already: bob's move is the last
  assert.equal(lastMoveWas(undone, "bob"), true);
  assert.equal(lastMoveWas([], "ann"), false);
});

test("a seat is given up through the lobby, and on the live socket while the lobby says the phase is played there", async () => {
  const refusal = (code) => Object.assign(new Error(code), { code });
  const sent = [];
  const live = async (command) => { sent.push(command); };
  await giveSeatUp(async () => ({ seats: [] }), live);                     // between buildings, or any game
  assert.deepEqual(sent, []);
  await giveSeatUp(async () => { throw refusal("REALTIME_PHASE"); }, live);  // Trucker's building
  assert.deepEqual(sent, [{ type: "Resign" }]);
  // Any other refusal is the answer; and without a live socket the lobby's refusal stands.
  await assert.rejects(giveSeatUp(async () => { throw refusal("NOT_SEATED"); }, live), { code: "NOT_SEATED" });
  await assert.rejects(giveSeatUp(async () => { throw refusal("REALTIME_PHASE"); }, null), { code: "REALTIME_PHASE" });
  await assert.rejects(giveSeatUp(async () => { throw refusal("REALTIME_PHASE"); },
                                  async () => { throw refusal("NOT_IN_CONTROL"); }), { code: "NOT_IN_CONTROL" });
  assert.equal(sent.length, 1);
});
