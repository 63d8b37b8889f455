// The Trucker view as the engine gives it (libs/trucker_rules/views.py).
export interface PlacedTile { square: [number, number]; component: string; rotation: number }
export interface ShipView {
  board: string; tiles: PlacedTile[]; newest: [number, number] | null; reserve: string[];
  humans: Record<string, number>; aliens: Record<string, string>; batteries: Record<string, number>;
  goods: Record<string, string[]>; lost: number; exposed_connectors: number;
}
export interface PlayerView {
  cabin: string; credits: number; hand: string | null; order_tile: number | null; looking_at: number | null;
  position: number | null; gave_up: boolean; flaws: string[]; ship: ShipView | null;
}
export interface TruckerView {
  game: "trucker"; round: number; phase: string; players: Record<string, PlayerView>;
  face_down_count: number; face_up: string[];
  timer: { started: boolean; space: number; runs_out_at: number | null };
  order_tiles_free: number[]; pile: string[] | null; deck_count: number; card: string | null;
  step: Record<string, unknown>;
}
