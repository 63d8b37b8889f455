// The Stellar Ventures facts a board needs, from the engine's own data files
// (GET /engines/stellar/data/alpha_map|corporations|powers|tables).
import { api } from "../../api/client";
import { axialCentre, type Point } from "../hex/geometry";

export type MapHex = [number, number, string, number?, string?];      // q, r, kind, value, home corporation
export interface AlphaMap {
  hexes: MapHex[];
  mega_earth: { hexes: [number, number][]; capacity: number; value_by_outposts: Record<string, number> };
}
export interface CorporationFact { id: string; name: string; outposts_total: number; shares: number; home_hex: [number, number] | null }
export interface PowerFact { type: string; timing: string; effect?: string; [number: string]: unknown }
export interface Tables {
  dividend_table: Record<string, number[]>;
  status_at_shares: Record<string, number>;      // status → shares issued from which it holds, in the columns' order
  agreement_track: { alien_planets: number | string; bonus_dividend_per_share: number; end_bonus_per_share: number }[];
  shipyard: { level: number; ships: number | string; scraps_level: number | null }[];
  outpost_cost: Record<string, number>;
}
export interface StellarData {
  map: AlphaMap; corporations: CorporationFact[]; powers: Record<string, PowerFact>; tables: Tables;
}

let loaded: Promise<StellarData> | null = null;

export function loadData(): Promise<StellarData> {
  loaded ??= Promise.all([
    api.engineData<AlphaMap>("stellar", "alpha_map"), api.engineData<{ corporations: CorporationFact[] }>("stellar", "corporations"),
    api.engineData<{ powers: Record<string, PowerFact> }>("stellar", "powers"), api.engineData<Tables>("stellar", "tables"),
  ]).then(([map, corporations, powers, tables]) => ({ map, corporations: corporations.corporations, powers: powers.powers, tables }))
    .catch((error) => { loaded = null; throw error; });
  return loaded;
}

export const SIZE = 22;
export const MEGA_EARTH = "mega_earth";

/** The engine's key of a hex ("q,r"; Mega-Earth's three printed hexes are one key). */
export function keyOf(data: StellarData, q: number, r: number): string {
  return data.map.mega_earth.hexes.some(([mq, mr]) => mq === q && mr === r) ? MEGA_EARTH : `${q},${r}`;
}

export function cellCentre(q: number, r: number): Point {
  return axialCentre(q, r, SIZE, "pointy");
}

/** Where a logical hex's marks go: its centre, or the middle of Mega-Earth's three hexes. */
export function centreOf(data: StellarData, key: string): Point {
  const cells = key === MEGA_EARTH ? data.map.mega_earth.hexes : [key.split(",").map(Number) as [number, number]];
  const points = cells.map(([q, r]) => cellCentre(q, r));
  return { x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length };
}

/** Each corporation's colour (not text: no catalogue entry). */
export const CORP_COLOURS: Record<string, string> = {
  cerulean_council: "#2a7ab0", gamboge_guild: "#d99a0b", pink_inc: "#e75480", frost_federated: "#7fc8e0",
  scarlet_syndicate: "#c1121f", amethyst_agency: "#9966cc",
};

export function corpName(data: StellarData, id: string): string {
  return data.corporations.find((c) => c.id === id)?.name ?? id;
}

/** "ore_refinement" → "Ore refinement": power ids are the engine's, their names are words. */
export function powerName(id: string): string {
  const spaced = id.replace(/_/g, " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
