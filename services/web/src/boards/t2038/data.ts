// The 2038 facts a board needs, from the engine's own data files (GET /engines/t2038/data/...), and
// the small readings of them every panel shares (tile kinds, mines, market prices, colours).
import { api } from "../../api/client";
import { doubledCentre, type Point } from "../hex/geometry";

export interface MapData {
  rows: string;
  columns: number;
  printed_bases: Record<string, string>;
  transshipment: Record<string, { low: number; high: number }>;
  unexplored: string[];
  league_reserved_hex: string;
}
export interface TileData { claimed_value: Record<string, number>; kinds: Record<string, number> }
export interface MarketData { rows: number[][] }
export interface Company { name: string; sym?: string; home?: string; bid?: number; income?: number; group?: string }
export interface Entities {
  privates: Record<string, Company>;
  independents: Record<string, Company>;
  corporations: Record<string, Company>;
  ships: Record<string, Record<string, number[] | number>>;
  probe: { movement: number; holds: number };
}
export interface T2038Data { map: MapData; tiles: TileData; market: MarketData; entities: Entities; kinds: string[] }

export interface Mine { ore: string; value: number; claimed: number }

let loaded: Promise<T2038Data> | null = null;

export function loadData(): Promise<T2038Data> {
  loaded ??= Promise.all([
    api.engineData<MapData>("t2038", "map"), api.engineData<TileData>("t2038", "tiles"),
    api.engineData<MarketData>("t2038", "market"), api.engineData<Entities>("t2038", "entities"),
  ]).then(([map, tiles, market, entities]) => ({ map, tiles, market, entities, kinds: tileKinds(tiles) }))
    .catch((error) => { loaded = null; throw error; });
  return loaded;
}

/** Tile ids 0..105 in manifest order: the kind of each, as the engine numbers them (tiles.py). */
function tileKinds(tiles: TileData): string[] {
  return Object.entries(tiles.kinds).flatMap(([kind, count]) => Array.from({ length: count }, () => kind));
}

/** The mines of a tile: "N10+I30" → nickel worth 10 (claimed 50), ice worth 30 (claimed 40). */
export function minesOf(data: T2038Data, tile: number): Mine[] {
  const kind = data.kinds[tile] ?? "";
  return kind.split("+").filter(Boolean).map((part) =>
    ({ ore: part[0], value: Number(part.slice(1)), claimed: data.tiles.claimed_value[part] ?? 0 }));
}

export const SIZE = 30;

/** A hex's centre: pointy-topped, rows A..O 1.5 sizes apart, double-width column numbers 1..18. */
export function centre(data: T2038Data, hex: string): Point {
  return doubledCentre(Number(hex.slice(1)) - 1, data.map.rows.indexOf(hex[0]), SIZE, "pointy");
}

export function boardHexes(data: T2038Data): string[] {
  return [...new Set([...data.map.unexplored, ...Object.keys(data.map.printed_bases), ...Object.keys(data.map.transshipment)])];
}

/** "c:TSI" → "TSI", "i:3" → the Independent's symbol ("DH"), "p:ann" → the player's name. */
export function holderName(data: T2038Data, holder: string, names: Record<string, string>): string {
  const [kind, id] = holder.includes(":") ? holder.split(":") : ["", holder];
  if (kind === "p") return names[id] ?? id;
  if (kind === "i") return data.entities.independents[id]?.sym ?? holder;
  return id;
}

/** A corporation's or Independent's colour on the map and the market (not text: no catalogue entry). */
export const COLOURS: Record<string, string> = {
  TSI: "#1f6fb2", RU: "#b23a2e", LE: "#6b7f8c", MM: "#c2571a", VP: "#7a4fb0", OPC: "#2e8b57", RCC: "#b08a00",
  AL: "#1b1f24", FB: "#0f8b8d", IF: "#4ea8de", DH: "#8d5524", OC: "#6a994e", TH: "#d1495b", LY: "#e09f3e",
};
export const ORE_COLOURS: Record<string, string> = { N: "#a8b0b8", I: "#9ad4f5", R: "#e0b0ff" };

export function colourOf(data: T2038Data, holder: string): string {
  const [kind, id] = holder.split(":");
  if (kind === "i") return COLOURS[data.entities.independents[id]?.sym ?? ""] ?? "#555";
  return COLOURS[id ?? holder] ?? "#555";
}

/** The price a market position shows (rows[row][column]), or null off the chart. */
export function priceAt(data: T2038Data, at: number[] | undefined): number | null {
  return at ? data.market.rows[at[0]]?.[at[1]] ?? null : null;
}
