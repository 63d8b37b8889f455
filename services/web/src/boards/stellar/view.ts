// The Stellar Ventures view as the engine gives it (`stellar.view.view`): face-down tiles only as where
// they are, the power pile only as a count.
export interface Corporation {
  id: string; shares_total: number; charter: number; holders: Record<string, number>; president: string | null;
  formed: boolean; supply: number; boxed: number; loans: number; powers: string[]; wormhole: boolean; cargo: number;
  ordered: number[]; delivered: number[]; signed: boolean; agreement_planets: number; taken_over: boolean;
  treasury: number; mining_capacity: number; status: string; issued: number;
}
export interface Investor { cubes: number; votes: number; liquid: number; frozen: number }
export interface Auction {
  corp: string; purpose: string; order: string[]; turn: number; high_bid: number | null; high_bidder: string | null; passed: string[];
}
export interface Pending { kind: string; player: string; corp: string | null; hex: string | null; options: string[] }

export interface StellarView {
  era: number;
  round: string;
  director: string | null;
  players: string[];
  investors: Record<string, Investor>;
  corporations: Record<string, Corporation>;
  turn_order: string[];
  outposts: Record<string, string[]>;
  developed: string[];
  face_down_alien_tiles: string[];
  converted_nebulae: string[];
  boxed_tiles: number;
  shipyard: Record<string, number>;
  face_down_shipyard_tiles: number[];
  alien_mining_capacity: number;
  technology_supply: number;
  tax_box: number;
  mega_earth_boxes: Record<string, number>;
  powers_row: string[];
  powers_pile: number;
  auction: Auction | null;
  pending: Pending[];
  build: { corp: string; mode: string; builder: string; placed: string[] } | null;
  corp_turn: { corp: string; step: string } | null;
  investor_step: { step: string; part: string } | null;
  scores: Record<string, number>;
  share_values: Record<string, number>;
}
