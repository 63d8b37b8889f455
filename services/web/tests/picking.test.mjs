// Flight decisions picked on the ship: which squares may be picked, how clicks count, and which of the
// engine's answers match the picks (the answers are shaped as legal_actions lists them).
import assert from "node:assert/strict";
import { test } from "node:test";
import { clicked, matching, pickable, picksFor, shipAnswers } from "../build-unit/boards/trucker/picking.js";

const cannons = [
  { type: "FireCannons", squares: [] },
  { type: "FireCannons", squares: [[5, 6]] },
  { type: "FireCannons", squares: [[9, 6]] },
  { type: "FireCannons", squares: [[5, 6], [9, 6]] },
];

test("only the answers named on the ship are picked there; the rest stay in the action list", () => {
  const answers = shipAnswers([...cannons, { type: "GiveUp" }, { type: "ChoosePlanet", planet: 1 }]);
  assert.deepEqual(answers.map((a) => a.type), ["FireCannons", "FireCannons", "FireCannons", "FireCannons"]);
});

test("cannons: each double cannon may be picked once; the picks choose the one answer that fires them", () => {
  const most = pickable(cannons, []);
  assert.deepEqual(most, { "5,6": 1, "9,6": 1 });
  assert.deepEqual(matching(cannons, {}, []), [cannons[0]]);             // nothing picked: fire none
  let picks = clicked({}, "9,6", most);
  assert.deepEqual(matching(cannons, picks, []), [cannons[2]]);
  picks = clicked(picks, "5,6", most);
  assert.deepEqual(matching(cannons, picks, []), [cannons[3]]);
  picks = clicked(picks, "5,6", most);                                      // clicked again: unpicked
  assert.deepEqual(picks, { "9,6": 1 });
  assert.deepEqual(matching(cannons, { "7,7": 1 }, []), []);               // not a double cannon: no answer
});

test("crew: a cabin picked twice gives up two of its crew", () => {
  const crew = [
    { type: "ChooseCrewLoss", losses: [[[7, 7], "human"], [[7, 7], "human"]] },
    { type: "ChooseCrewLoss", losses: [[[7, 7], "human"], [[8, 7], "human"]] },
    { type: "ChooseCrewLoss", losses: [[[8, 7], "human"], [[8, 7], "purple"]] },
  ];
  const most = pickable(crew, []);
  assert.deepEqual(most, { "7,7": 2, "8,7": 2 });
  let picks = clicked(clicked({}, "7,7", most), "7,7", most);
  assert.deepEqual(matching(crew, picks, []), [crew[0]]);
  picks = clicked(picks, "7,7", most);                                      // a third click clears it
  assert.deepEqual(picks, {});
  assert.deepEqual(picksFor(crew[1], []), { "7,7": 1, "8,7": 1 });
});

test("aliens: a cabin picked offers each colour it may take, to confirm", () => {
  const aliens = [
    { type: "ChooseAliens", aliens: [] },
    { type: "ChooseAliens", aliens: [[[6, 7], "purple"]] },
    { type: "ChooseAliens", aliens: [[[6, 7], "brown"]] },
  ];
  assert.deepEqual(matching(aliens, { "6,7": 1 }, []).map((a) => a.aliens[0][1]), ["purple", "brown"]);
  assert.deepEqual(matching(aliens, {}, []), [aliens[0]]);
});

test("engines: as many of the ship's double engines picked as are powered", () => {
  const engines = [0, 1, 2].map((count) => ({ type: "PowerEngines", count }));
  const doubles = ["7,9", "8,9"];
  assert.deepEqual(pickable(engines, doubles), { "7,9": 1, "8,9": 1 });
  assert.deepEqual(matching(engines, { "8,9": 1 }, doubles), [engines[1]]);
  assert.deepEqual(matching(engines, { "8,9": 1, "7,9": 1 }, doubles), [engines[2]]);
  assert.deepEqual(matching(engines, { "7,7": 1 }, doubles), []);
  assert.deepEqual(picksFor(engines[1], doubles), { "7,9": 1 });
});

test("cargo: a hold picked once per good stowed in it", () => {
  const cargo = [
    { type: "ArrangeCargo", cargo: [[[6, 8], ["red", "blue"]]] },
    { type: "ArrangeCargo", cargo: [[[6, 8], ["blue"]]] },
    { type: "ArrangeCargo", cargo: [] },
  ];
  assert.deepEqual(pickable(cargo, []), { "6,8": 2 });
  assert.deepEqual(matching(cargo, { "6,8": 2 }, []), [cargo[0]]);
  assert.deepEqual(matching(cargo, {}, []), [cargo[2]]);
});
