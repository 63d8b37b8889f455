// Hex geometry shared by every board's map (21Moon, 2038, Stellar Ventures): corners, centres on the
// two grids the engines use (doubled coordinates and axial), and the box a map needs. SVG units, y down.
export interface Point { x: number; y: number }
/** Flat-topped hexes have a flat side on top (21Moon); pointy-topped ones a corner (2038, Stellar). */
export type Orientation = "flat" | "pointy";

const ROOT3 = Math.sqrt(3);

/** Corner `i` (0..5, clockwise on screen): flat-topped hexes start at the right corner, pointy-topped
 *  ones at the lower right corner (30° below the x axis). `size` is centre to corner. */
export function corner(at: Point, size: number, i: number, orientation: Orientation): Point {
  const angle = (Math.PI / 3) * i + (orientation === "pointy" ? Math.PI / 6 : 0);
  return { x: at.x + size * Math.cos(angle), y: at.y + size * Math.sin(angle) };
}

/** The `points` of an SVG polygon drawing the hex. */
export function hexPoints(at: Point, size: number, orientation: Orientation): string {
  return Array.from({ length: 6 }, (_, i) => {
    const c = corner(at, size, i, orientation);
    return `${c.x.toFixed(1)},${c.y.toFixed(1)}`;
  }).join(" ");
}

/** Centre distance of two hexes sharing a side. */
export const across = (size: number) => ROOT3 * size;

/** A hex of a "doubled" grid, numbered from 0: flat-topped, columns 1.5·size apart and doubled row
 *  numbers (√3/2·size per step, 21Moon); pointy-topped, doubled column numbers (√3/2·size per step)
 *  and rows 1.5·size apart (2038's double-width labels). */
export function doubledCentre(column: number, row: number, size: number, orientation: Orientation): Point {
  return orientation === "flat"
    ? { x: column * 1.5 * size, y: row * (ROOT3 / 2) * size }
    : { x: column * (ROOT3 / 2) * size, y: row * 1.5 * size };
}

/** A hex of an axial grid (q, r), as Stellar Ventures' Alpha map numbers them. */
export function axialCentre(q: number, r: number, size: number, orientation: Orientation): Point {
  return orientation === "pointy"
    ? { x: ROOT3 * size * (q + r / 2), y: 1.5 * size * r }
    : { x: 1.5 * size * q, y: ROOT3 * size * (r + q / 2) };
}

export interface Box { x: number; y: number; width: number; height: number }

/** The box around hexes centred at `points`, with `pad` around (a hex's size, or more for labels). */
export function boxAround(points: Point[], pad: number): Box {
  const xs = points.map((p) => p.x), ys = points.map((p) => p.y);
  const x = Math.min(...xs) - pad, y = Math.min(...ys) - pad;
  return { x, y, width: Math.max(...xs) + pad - x, height: Math.max(...ys) + pad - y };
}

export const viewBox = (box: Box) => `${box.x.toFixed(0)} ${box.y.toFixed(0)} ${box.width.toFixed(0)} ${box.height.toFixed(0)}`;

/** The mean of some points: where a label for several hexes (an off-board area, Mega-Earth) goes. */
export function middle(points: Point[]): Point {
  return { x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length };
}
