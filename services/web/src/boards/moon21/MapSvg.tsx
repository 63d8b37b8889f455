// The 21Moon map in SVG, drawn from the engine's map and tile data and the view's board: terrain,
// off-board areas and their entries, the Rift, tiles, depots, tokens, minerals and stop values.
// Hexes where I may lay a tile are buttons; a chosen lay is previewed; runs are drawn on top.
import { t } from "../../i18n";
import { HexTarget } from "../hex/HexTarget";
import { TERRAIN_COLOURS, type Moon21Data } from "./data";
import { centre, edgeLine, edgePoint, extent, SIZE, type Point } from "./geometry";
import { depotsOf, hexPoints, TileRoads, Tokens, type Laid } from "./tiles";

export interface BoardView {
  tiles: Record<string, [string, number]>;
  tokens: Record<string, string[][]>;
  space_port: string[];
  minerals: Record<string, string>;
  research_marker: string | null;
  stop_values?: Record<string, number>;
}

export interface RunLine { key: string; stops: string[]; colour: string; label: string }

interface Props {
  data: Moon21Data;
  board: BoardView;
  targets: Set<string>;
  selected: string | null;
  preview: (Laid & { hex: string }) | null;
  runs: RunLine[];
  onPick: (hex: string) => void;
}

const laidAt = (board: BoardView, hex: string): Laid | null =>
  board.tiles[hex] ? { tile: board.tiles[hex][0], rotation: board.tiles[hex][1] } : null;

/** Where a stop is drawn: a depot "HEX-j" of the tile now there, or the middle of an off-board area. */
export function stopPoint(data: Moon21Data, board: BoardView, stop: string): Point | null {
  const area = data.map.offboard.areas[stop];
  if (area) {
    const points = area.hexes.map(centre);
    return { x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length };
  }
  const [hex, index] = stop.split("-");
  if (!data.map.hexes[hex]) return null;
  return depotsOf(data, hex, laidAt(board, hex), centre(hex))[Number(index)]?.point ?? centre(hex);
}

export function MapSvg({ data, board, targets, selected, preview, runs, onPick }: Props) {
  const hexes = Object.keys(data.map.hexes);
  const areaHexes = Object.values(data.map.offboard.areas).flatMap((area) => area.hexes);
  const size = extent([...hexes, ...areaHexes]);
  return (
    <svg class="moon21-map" viewBox={`0 0 ${size.width.toFixed(0)} ${size.height.toFixed(0)}`} role="group"
         aria-label={t("moon21.map")}>
      {Object.entries(data.map.offboard.areas).map(([id, area]) => (
        <g key={id} class={`area ${area.side}`} data-area={id}>
          {area.hexes.map((hex) => <polygon key={hex} points={hexPoints(centre(hex))} />)}
          {area.entries.map(([hex, edge]) => {
            const from = edgePoint(centre(hex), edge);
            const to = edgePoint(centre(hex), edge, SIZE * 1.25);
            return <line key={`${hex}${edge}`} class="road entry" x1={from.x} y1={from.y} x2={to.x} y2={to.y} />;
          })}
          <text class="area-label" x={centre(area.hexes[0]).x} y={centre(area.hexes[0]).y}>{area.name}</text>
          <text class="stop-value" x={centre(area.hexes[0]).x} y={centre(area.hexes[0]).y + 14}>{data.map.offboard.value}</text>
        </g>
      ))}
      {hexes.map((hex) => {
        const at = centre(hex);
        const fact = data.map.hexes[hex];
        return (
          <g key={hex} class={`hex ${fact.kind}`} data-hex={hex}>
            <polygon class="terrain" points={hexPoints(at)} fill={TERRAIN_COLOURS[fact.kind] ?? "#eee"} />
            {fact.kind === "mountain" && <path class="relief" d={`M${at.x - 12},${at.y + 8} l12,-16 l12,16`} />}
            {fact.kind === "hill" && <path class="relief" d={`M${at.x - 12},${at.y + 8} q12,-14 24,0`} />}
            <TileRoads data={data} hex={hex} laid={hex === data.map.space_port.hex ? null : laidAt(board, hex)} at={at} />
            <text class="hex-id" x={at.x} y={at.y - SIZE * 0.62}>{hex}</text>
          </g>
        );
      })}
      {data.map.rift.map(([hex, edge]) => {
        const [a, b] = edgeLine(centre(hex), edge);
        return <line key={`${hex}${edge}`} class="rift" x1={a.x} y1={a.y} x2={b.x} y2={b.y} />;
      })}
      {preview && <TileRoads data={data} hex={preview.hex} laid={preview} at={centre(preview.hex)} preview />}
      {hexes.map((hex) => <HexMarks key={hex} data={data} board={board} hex={hex} />)}
      {runs.map((run) => <RunPath key={run.key} run={run} data={data} board={board} />)}
      {[...targets].map((hex) => (
        <HexTarget key={`target-${hex}`} id={hex} at={centre(hex)} size={SIZE} orientation="flat"
                   label={t("moon21.layOn", { hex })} selected={hex === selected} onPick={onPick} />
      ))}
    </svg>
  );
}

/** Minerals, stop values, tokens and the research marker of one hex (drawn above every tile). */
function HexMarks({ data, board, hex }: { data: Moon21Data; board: BoardView; hex: string }) {
  const at = centre(hex);
  const spacePort = hex === data.map.space_port.hex;
  const depots = depotsOf(data, hex, spacePort ? null : laidAt(board, hex), at);
  const slots = spacePort ? [board.space_port] : board.tokens[hex] ?? [];
  const mineral = board.minerals[hex];
  return (
    <g class="marks">
      {mineral && <text class="mineral" x={at.x} y={at.y + SIZE * 0.78}>{mineral}</text>}
      {depots.map((depot, j) => {
        const value = board.stop_values?.[`${hex}-${j}`];
        return (
          <g key={j}>
            <Tokens occupants={slots[j] ?? []} point={depot.point} spacePort={spacePort} />
            {value !== undefined && <text class="stop-value" x={depot.point.x + SIZE * 0.32} y={depot.point.y - SIZE * 0.22}>{value}</text>}
          </g>
        );
      })}
      {board.research_marker === hex && <rect class="research" x={at.x - SIZE * 0.7} y={at.y - SIZE * 0.3} width={10} height={10} />}
    </g>
  );
}

function RunPath({ run, data, board }: { run: RunLine; data: Moon21Data; board: BoardView }) {
  const points = run.stops.map((stop) => stopPoint(data, board, stop)).filter((p): p is Point => p !== null);
  if (points.length < 2) return null;
  return (
    <g class="run" data-run={run.key}>
      <polyline points={points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ")} stroke={run.colour} />
      {points.map((p, i) => <circle key={i} cx={p.x} cy={p.y} r={5} fill={run.colour} />)}
      <title>{run.label}</title>
    </g>
  );
}

