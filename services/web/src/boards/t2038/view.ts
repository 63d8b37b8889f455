// The 2038 view as the engine gives it (`T2038.view`: the whole state, everything in 2038 being open,
// the face-down pool as a count, and the route helper's proposals while a ship flies).
export interface Ship { phase: number; kind: string; owner: string; movement: number; holds: number; new: boolean }
export interface Flight {
  ship: string; hex: string; movement: number; start_movement: number; holds: number;
  cargo: [string, number, number, string][]; refuelled: string[]; choice: number[]; choice_hex: string; pilot: string;
}
export interface Proposal { path: string[]; pickups: [string, number][]; value: number }

export interface T2038View {
  players: string[];
  ledger: { cash: Record<string, number> };
  company_owner: Record<string, string>;
  independent_claims_left: Record<string, number>;
  launched: string[];
  active: string[];
  par: Record<string, number>;
  shares: Record<string, Record<string, number>>;
  president: Record<string, string>;
  market: { positions: Record<string, number[]> };
  counters_left: Record<string, Record<string, number>>;
  tiles: Record<string, number>;
  pool: number;
  bases: Record<string, string>;
  flipped: string[];
  stations: Record<string, string>;
  claims: Record<string, string>;
  used_mines: string[];
  ships: Record<string, Ship>;
  phase: number;
  round: string;
  set_number: number;
  or_number: number;
  first_player: string;
  turn: string;
  operator: string;
  step: string;
  flight: Flight | null;
  corp_kind: Record<string, string>;
  pending: [string, string, number, string][];
  must_discard: string[];
  ended: string;
  route_proposals?: Proposal[];
}
