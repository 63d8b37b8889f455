// Screen addresses: every route survives href → parse, so links and the back button land where they say.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.location = { hash: "" };
const { href, parse } = await import("../build-unit/router.js");

test("href and parse agree for every screen", () => {
  const routes = [
    { name: "lobby" }, { name: "create" }, { name: "account" },
    { name: "table", id: "abc123", invite: undefined }, { name: "table", id: "abc", invite: "s3cr et/?" },
    { name: "leaderboards", board: undefined }, { name: "leaderboards", board: "moon21" }, { name: "player", id: "p 1" },
  ];
  for (const route of routes) assert.deepEqual(parse(href(route)), route, JSON.stringify(route));
});

test("unknown or partial addresses go to the lobby", () => {
  for (const hash of ["", "#", "#/", "#/nowhere", "#/tables", "#/players/"]) assert.deepEqual(parse(hash), { name: "lobby" });
});
