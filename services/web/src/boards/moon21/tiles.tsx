// One hex's road: a laid tile (plain roads, depots and the roads into them), the printed depots of an
// untiled mineral or local-base hex, or the Space Port's spokes. Also where each stop of a hex sits.
import { CORP_COLOURS, TILE_COLOURS, type Moon21Data, type TileFact } from "./data";
import { depotPoint, edgePoint, hexPoints, roadPath, rotate, SIZE, type Point } from "./geometry";

export { hexPoints } from "./geometry";

export interface Laid { tile: string; rotation: number }

/** The depots of a hex as drawn: their points and the (rotated) edges that lead into each. */
export function depotsOf(data: Moon21Data, hex: string, laid: Laid | null, at: Point): { point: Point; edges: number[]; slots: number }[] {
  const { map } = data;
  if (hex === map.space_port.hex) return [{ point: at, edges: map.space_port.road_edges, slots: map.space_port.slots }];
  const fact: TileFact | undefined = laid ? data.tiles[laid.tile] : undefined;
  if (fact?.depots?.length) {
    const count = fact.depots.length;
    return fact.depots.map((depot, i) => {
      const edges = depot.edges.map((e) => rotate(e, laid!.rotation));
      return { point: depotPoint(at, edges, i, count), edges, slots: depot.slots };
    });
  }
  const printed = map.hexes[hex];
  if (!laid && printed?.kind === "mineral") {
    const count = printed.depots ?? 1;
    return Array.from({ length: count }, (_, i) => ({
      point: count === 1 ? at : { x: at.x + (i === 0 ? -0.4 : 0.4) * SIZE, y: at.y }, edges: [], slots: 1 }));
  }
  if (!laid && printed?.kind === "local_base") return [{ point: at, edges: [], slots: 1 }];
  return [];
}

export function TileRoads({ data, hex, laid, at, preview = false }:
  { data: Moon21Data; hex: string; laid: Laid | null; at: Point; preview?: boolean }) {
  const fact = laid ? data.tiles[laid.tile] : undefined;
  const depots = depotsOf(data, hex, laid, at);
  return (
    <g class={preview ? "tile preview" : "tile"}>
      {fact && <polygon class="tile-face" points={hexPoints(at)} fill={TILE_COLOURS[fact.colour] ?? "#ddd"} />}
      {(fact?.roads ?? []).map(([a, b], i) => (
        <path key={`r${i}`} class="road" d={roadPath(at, edgePoint(at, rotate(a, laid!.rotation)), edgePoint(at, rotate(b, laid!.rotation)))} />
      ))}
      {depots.flatMap((depot, d) => depot.edges.map((edge) => {
        const from = edgePoint(at, edge);
        return <line key={`d${d}e${edge}`} class="road" x1={from.x} y1={from.y} x2={depot.point.x} y2={depot.point.y} />;
      }))}
      {depots.map((depot, d) => <circle key={`c${d}`} class="depot" cx={depot.point.x} cy={depot.point.y}
                                        r={hex === data.map.space_port.hex ? SIZE * 0.55 : SIZE * 0.22} />)}
      {fact && <text class="tile-id" x={at.x + SIZE * 0.5} y={at.y + SIZE * 0.7}>{laid!.tile}</text>}
    </g>
  );
}

/** Tokens in a depot's slots: a corporation's colour, its id; a base token is drawn with a ring. */
export function Tokens({ occupants, point, spacePort }: { occupants: string[]; point: Point; spacePort: boolean }) {
  const radius = SIZE * (spacePort ? 0.16 : 0.2);
  return (
    <g class="tokens">
      {occupants.map((occupant, i) => {
        const [kind, corp] = occupant.includes(":") ? occupant.split(":") : ["", occupant];
        const owner = corp === "OLS" ? "" : corp;
        const angle = (2 * Math.PI * i) / Math.max(occupants.length, 1);
        const spread = spacePort ? SIZE * 0.36 : occupants.length > 1 ? radius * 1.05 : 0;
        const x = point.x + spread * Math.cos(angle), y = point.y + spread * Math.sin(angle);
        return (
          <g key={i} class={`token ${kind === "LB" ? "base" : ""}`} data-token={occupant}>
            <circle cx={x} cy={y} r={radius} fill={CORP_COLOURS[owner] ?? "#222"} />
            <text x={x} y={y + 3} class="token-label">{owner ? owner.slice(0, 3) : kind || corp}</text>
          </g>
        );
      })}
    </g>
  );
}
