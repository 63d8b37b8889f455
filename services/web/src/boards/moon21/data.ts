// The 21Moon facts a board needs, from the engine's own data files (GET /engines/moon21/data/...).
import { api } from "../../api/client";

export interface HexFact { kind: string; depots?: number; corp?: string }
export interface DepotFact { slots: number; edges: number[] }
export interface TileFact { colour: string; kind: string; roads?: number[][]; depots?: DepotFact[] }
export interface AreaFact { name: string; side: string; hexes: string[]; entries: [string, number][] }
export interface MapData {
  hexes: Record<string, HexFact>;
  space_port: { hex: string; slots: number; road_edges: number[] };
  terminal: { hex: string; tile: string };
  offboard: { value: number; areas: Record<string, AreaFact> };
  rift: [string, number][];
}
export interface MarketData { grid: (number | null)[][]; par_boxes: { row: number; col: number }[]; closed_boxes: { row: number; col: number }[] }
export interface Entities {
  privates: { id: string; name: string; value: number; revenue: number }[];
  corporations: { id: string; name: string; local_base: string }[];
  transports: { type: number; cost: number; count: number | null }[];
}
export interface Moon21Data { map: MapData; tiles: Record<string, TileFact>; market: MarketData; entities: Entities }

let loaded: Promise<Moon21Data> | null = null;

export function loadData(): Promise<Moon21Data> {
  loaded ??= Promise.all([
    api.engineData<MapData>("moon21", "map"),
    api.engineData<{ tiles: Record<string, TileFact> }>("moon21", "tiles"),
    api.engineData<MarketData>("moon21", "market"),
    api.engineData<Entities>("moon21", "entities"),
  ]).then(([map, tiles, market, entities]) => ({ map, tiles: tiles.tiles, market, entities }))
    .catch((error) => { loaded = null; throw error; });
  return loaded;
}

/** Each corporation's colour on the board and the market (not text: no catalogue entry). */
export const CORP_COLOURS: Record<string, string> = {
  SWP: "#1f6fb2", HMQ: "#b23a2e", VH: "#2e8b57", ITC: "#7a4fb0", SSF: "#d08a00", LG: "#5a6b7a", KR: "#c2467e",
};
export const TILE_COLOURS: Record<string, string> = { yellow: "#f3d34a", green: "#7cc47a", brown: "#b88a5a", gray: "#a9a9a9" };
export const TERRAIN_COLOURS: Record<string, string> = {
  plain: "#e9e4d8", hill: "#d9cfae", mountain: "#c2b59b", mineral: "#e6dcc6", local_base: "#e9e4d8",
  space_port: "#cfe3f3", terminal_site: "#e9e4d8",
};
