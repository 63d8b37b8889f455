// Hex geometry of the 21Moon map (the 18xx.games convention the engine uses), on the shared hex
// module: flat-topped hexes, column letters A..M, doubled row numbers, edges 0..5 clockwise from the
// bottom side; a tile laid with rotation r moves a road end printed at edge e to edge (e + r) mod 6.
import { corner, doubledCentre, hexPoints as shapeOf, type Point } from "../hex/geometry";

export type { Point } from "../hex/geometry";
export const SIZE = 40;                       // centre to corner, in SVG units
const ROOT3 = Math.sqrt(3);
const COLUMNS = "ABCDEFGHIJKLM";
export const MARGIN = SIZE * 1.2;

export function centre(hex: string): Point {
  const at = doubledCentre(COLUMNS.indexOf(hex[0]), Number(hex.slice(1)), SIZE, "flat");
  return { x: MARGIN + at.x, y: MARGIN + at.y };
}

export const hexPoints = (at: Point, size = SIZE) => shapeOf(at, size, "flat");

/** Angle (radians, SVG y down) from the centre to the middle of an edge: edge 0 points down. */
const edgeAngle = (edge: number) => Math.PI / 2 + (Math.PI / 3) * edge;

export function edgePoint(at: Point, edge: number, size = SIZE): Point {
  const apothem = (ROOT3 / 2) * size;
  return { x: at.x + apothem * Math.cos(edgeAngle(edge)), y: at.y + apothem * Math.sin(edgeAngle(edge)) };
}

/** The two corners of an edge, for drawing it (the Rift): edge e lies between corners e+1 and e+2. */
export function edgeLine(at: Point, edge: number, size = SIZE): [Point, Point] {
  return [corner(at, size, (edge + 1) % 6, "flat"), corner(at, size, (edge + 2) % 6, "flat")];
}

export const rotate = (edge: number, rotation: number) => (edge + rotation) % 6;

/** Where depot `index` of `count` sits in a hex, pulled towards the edges its roads leave by. */
export function depotPoint(at: Point, edges: number[], index: number, count: number, size = SIZE): Point {
  if (count <= 1 || edges.length === 0) return at;
  const sx = edges.reduce((sum, e) => sum + Math.cos(edgeAngle(e)), 0);
  const sy = edges.reduce((sum, e) => sum + Math.sin(edgeAngle(e)), 0);
  const length = Math.hypot(sx, sy);
  const fallback = edgeAngle(index * 3);
  const [dx, dy] = length > 0.01 ? [sx / length, sy / length] : [Math.cos(fallback), Math.sin(fallback)];
  return { x: at.x + dx * size * 0.42, y: at.y + dy * size * 0.42 };
}

/** A road between two edge points through the hex: straight across, curved otherwise. */
export function roadPath(at: Point, a: Point, b: Point): string {
  return `M${a.x.toFixed(1)},${a.y.toFixed(1)} Q${at.x.toFixed(1)},${at.y.toFixed(1)} ${b.x.toFixed(1)},${b.y.toFixed(1)}`;
}

export function extent(hexes: string[]): { width: number; height: number } {
  const points = hexes.map(centre);
  return {
    width: Math.max(...points.map((p) => p.x)) + MARGIN,
    height: Math.max(...points.map((p) => p.y)) + MARGIN,
  };
}
