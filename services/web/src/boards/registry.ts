// Game name → its board module, loaded on demand (each board is its own bundle). Adding a game's board
// is adding its folder under boards/ and one line here (docs/web-client.md).
import type { BoardModule } from "./types";

const boards: Record<string, () => Promise<BoardModule>> = {
  moon21: () => import("./moon21").then((m) => m.board),
  t2038: () => import("./t2038").then((m) => m.board),
  stellar: () => import("./stellar").then((m) => m.board),
  trucker: () => import("./trucker").then((m) => m.board),
};

export function loadBoard(game: string): Promise<BoardModule | null> {
  return boards[game]?.() ?? Promise.resolve(null);
}
