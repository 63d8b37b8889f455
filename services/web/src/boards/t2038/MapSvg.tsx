// The 2038 map in SVG, from the engine's map and tile data and the view: the asteroid belt's hexes
// (unexplored ones dark, explored ones with their mines as exploration revealed them), printed and placed
// bases, refuelling stations, claims, transshipment points, the ship in flight with the route helper's
// proposals, and the hexes where I may act as buttons.
import { t } from "../../i18n";
import { boxAround, hexPoints, viewBox, type Point } from "../hex/geometry";
import { HexTarget } from "../hex/HexTarget";
import { boardHexes, centre, colourOf, COLOURS, minesOf, ORE_COLOURS, SIZE, type T2038Data } from "./data";
import type { T2038View } from "./view";

interface Props {
  data: T2038Data;
  view: T2038View;
  targets: Set<string>;
  selected: string | null;
  onPick: (hex: string) => void;
}

export function MapSvg({ data, view, targets, selected, onPick }: Props) {
  const hexes = boardHexes(data);
  const at = (hex: string) => centre(data, hex);
  const box = boxAround(hexes.map(at), SIZE * 1.2);
  return (
    <svg class="t2038-map" viewBox={viewBox(box)} role="group" aria-label={t("t2038.map")}>
      <rect class="space" x={box.x} y={box.y} width={box.width} height={box.height} rx={8} />
      {hexes.map((hex) => <HexCell key={hex} data={data} view={view} hex={hex} at={at(hex)} />)}
      <Proposals data={data} view={view} />
      {view.flight && <ShipMarker at={at(view.flight.hex)} label={view.flight.ship} />}
      {[...targets].map((hex) => (
        <HexTarget key={`target-${hex}`} id={hex} at={at(hex)} size={SIZE} orientation="pointy"
                   label={t("t2038.actOn", { hex })} selected={hex === selected} onPick={onPick} />
      ))}
    </svg>
  );
}

function HexCell({ data, view, hex, at }: { data: T2038Data; view: T2038View; hex: string; at: Point }) {
  const tile = view.tiles[hex];
  const base = view.bases[hex];
  const trans = data.map.transshipment[hex];
  const kind = trans ? "transshipment" : base ? "base" : tile !== undefined ? "asteroid" : "unexplored";
  return (
    <g class={`hex ${kind}${view.flipped.includes(hex) ? " flipped" : ""}`} data-hex={hex} data-tile={tile ?? ""}>
      <polygon class="cell" points={hexPoints(at, SIZE, "pointy")} />
      <text class="hex-id" x={at.x} y={at.y - SIZE * 0.55}>{hex}</text>
      {tile !== undefined && !view.flipped.includes(hex) && <Mines data={data} view={view} hex={hex} tile={tile} at={at} />}
      {base && <Base at={at} owner={base} station={view.stations[hex]} />}
      {trans && <text class="trans" x={at.x} y={at.y + 4}>{trans.low}/{trans.high}</text>}
    </g>
  );
}

function Mines({ data, view, hex, tile, at }: { data: T2038Data; view: T2038View; hex: string; tile: number; at: Point }) {
  const mines = minesOf(data, tile);
  return (
    <g class="mines">
      {mines.map((mine, index) => {
        const key = `${hex}/${index}`;
        const holder = view.claims[key];
        const x = at.x + (mines.length === 1 ? 0 : (index === 0 ? -0.42 : 0.42) * SIZE);
        return (
          <g key={key} class={view.used_mines.includes(key) ? "mine used" : "mine"} data-mine={key} data-claim={holder ?? ""}>
            <circle cx={x} cy={at.y + 3} r={SIZE * 0.32} fill={ORE_COLOURS[mine.ore] ?? "#ccc"}
                    stroke={holder ? colourOf(data, holder) : "none"} stroke-width={holder ? 4 : 0} />
            <text class="mine-label" x={x} y={at.y + 7}>{mine.ore}{holder ? mine.claimed : mine.value}</text>
          </g>
        );
      })}
    </g>
  );
}

/** A base (printed or placed) names its owner by symbol; a refuelling station is a ring in its colour. */
function Base({ at, owner, station }: { at: Point; owner: string; station?: string }) {
  return (
    <g class="base" data-base={owner}>
      {station && <circle class="station" data-station={station} cx={at.x} cy={at.y} r={SIZE * 0.62}
                          stroke={COLOURS[station] ?? "#555"} />}
      <rect x={at.x - SIZE * 0.45} y={at.y - SIZE * 0.3} width={SIZE * 0.9} height={SIZE * 0.6} rx={4} fill={COLOURS[owner] ?? "#555"} />
      <text class="base-label" x={at.x} y={at.y + 4}>{owner}</text>
    </g>
  );
}

/** The ship in flight, at its hex's upper right so the mines under it stay readable. */
function ShipMarker({ at, label }: { at: Point; label: string }) {
  const x = at.x + SIZE * 0.42, y = at.y - SIZE * 0.4;
  return (
    <g class="ship" data-ship={label}>
      <path d={`M${x - 7},${y + 9} l7,-17 l7,17 z`} />
      <text class="ship-label" x={x + 11} y={y + 4}>{label}</text>
    </g>
  );
}

/** The route helper's proposals from the ship's hex: the best bold, the others faint. */
function Proposals({ data, view }: { data: T2038Data; view: T2038View }) {
  const flight = view.flight;
  const proposals = view.route_proposals ?? [];
  if (!flight || proposals.length === 0) return null;
  return (
    <g class="proposals">
      {proposals.map((proposal, i) => {
        const points = [flight.hex, ...proposal.path].map((hex) => centre(data, hex));
        const end = points[points.length - 1];
        return (
          <g key={i} class={i === 0 ? "proposal best" : "proposal"} data-proposal={i}>
            {points.length > 1 && <polyline points={points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ")} />}
            {proposal.pickups.map(([hex, mine]) => {
              const p = centre(data, hex);
              return <circle key={`${hex}/${mine}`} class="pickup" cx={p.x + (mine ? 12 : -12)} cy={p.y + 3} r={SIZE * 0.4} />;
            })}
            {i === 0 && <text class="proposal-value" x={end.x - SIZE * 0.5} y={end.y + SIZE * 0.75}>{proposal.value}</text>}
          </g>
        );
      })}
    </g>
  );
}
