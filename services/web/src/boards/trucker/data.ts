// The Trucker facts a board needs, from the engine's own data files (GET /engines/trucker/data/
// components|boards): each component's connectors and kind, each ship board's buildable squares.
import { api } from "../../api/client";

export type Side = "smooth" | "single" | "double" | "universal";
export const SIDES = ["top", "right", "bottom", "left"] as const;
export interface ComponentFact {
  id: string; type: string; sides: [Side, Side, Side, Side]; color?: string;
  exhaust?: string; barrel?: string; covers?: string[]; capacity?: number;
}
export interface ShipBoardFact { buildable: Record<string, number[]>; reserve_slots: number }
export interface TruckerData {
  components: Record<string, ComponentFact>;
  boards: Record<string, ShipBoardFact>;
  trackSpaces: number;
}

let loaded: Promise<TruckerData> | null = null;

export function loadData(): Promise<TruckerData> {
  loaded ??= Promise.all([
    api.engineData<{ tiles: ComponentFact[] }>("trucker", "components"),
    api.engineData<{ ship_boards: Record<string, ShipBoardFact>; flight_board: { track_spaces: number } }>("trucker", "boards"),
  ]).then(([components, boards]) => ({
    components: Object.fromEntries(components.tiles.map((tile) => [tile.id, tile])),
    boards: boards.ship_boards, trackSpaces: boards.flight_board.track_spaces,
  })).catch((error) => {
    loaded = null;
    throw error;
  });
  return loaded;
}

/** A ship board's squares as [column, row] (the numbers printed on the board). */
export function squaresOf(board: ShipBoardFact): [number, number][] {
  return Object.entries(board.buildable).flatMap(([row, columns]) => columns.map((c): [number, number] => [c, Number(row)]));
}

/** The side index (0 top … 3 left) a named side faces once turned `rotation` quarter turns clockwise. */
export function facing(side: string | undefined, rotation: number): number | null {
  const at = SIDES.indexOf(side as (typeof SIDES)[number]);
  return at < 0 ? null : (at + rotation) % 4;
}
