// The Alpha map in SVG, from the engine's map data and the view: planets with their values, anomalies,
// deep space, Mega-Earth's three hexes as one, the corporations' outposts, face-down alien tiles,
// developed planets and converted nebulae; hexes where I may act are buttons.
import { t, tx } from "../../i18n";
import { boxAround, hexPoints, viewBox, type Point } from "../hex/geometry";
import { HexTarget } from "../hex/HexTarget";
import { cellCentre, centreOf, CORP_COLOURS, keyOf, MEGA_EARTH, SIZE, type StellarData } from "./data";
import type { StellarView } from "./view";

interface Props {
  data: StellarData;
  view: StellarView;
  targets: Set<string>;
  selected: string | null;
  onPick: (hex: string) => void;
}

export function MapSvg({ data, view, targets, selected, onPick }: Props) {
  const cells = data.map.hexes.map(([q, r]) => cellCentre(q, r));
  const box = boxAround(cells, SIZE * 1.2);
  const keys = [...new Set(data.map.hexes.map(([q, r]) => keyOf(data, q, r)))];
  return (
    <svg class="stellar-map" viewBox={viewBox(box)} role="group" aria-label={t("stellar.map")}>
      <rect class="space" x={box.x} y={box.y} width={box.width} height={box.height} rx={8} />
      {data.map.hexes.map(([q, r, kind, value, home]) => {
        const key = keyOf(data, q, r);
        const at = cellCentre(q, r);
        return (
          <g key={`${q},${r}`} class={`hex ${kind}`} data-hex={key}>
            <polygon class="cell" points={hexPoints(at, SIZE, "pointy")}>
              <title>{tx(`stellar.kind.${kind}`, kind)}{value ? ` ${value}` : ""}</title>
            </polygon>
            {key !== MEGA_EARTH && value ? <text class="value" x={at.x} y={at.y - SIZE * 0.35}>{value}</text> : null}
            {home && <circle class="home" cx={at.x} cy={at.y} r={SIZE * 0.78} stroke={CORP_COLOURS[home] ?? "#fff"} />}
          </g>
        );
      })}
      <MegaEarth data={data} view={view} />
      {keys.map((key) => <Marks key={key} view={view} hex={key} at={centreOf(data, key)} />)}
      {[...targets].map((key) => (
        key === MEGA_EARTH
          ? data.map.mega_earth.hexes.map(([q, r]) => (
              <HexTarget key={`target-${q},${r}`} id={key} at={cellCentre(q, r)} size={SIZE} orientation="pointy"
                         label={t("stellar.actOn", { hex: t("stellar.megaEarth") })} selected={key === selected} onPick={onPick} />))
          : <HexTarget key={`target-${key}`} id={key} at={centreOf(data, key)} size={SIZE} orientation="pointy"
                       label={t("stellar.actOn", { hex: key })} selected={key === selected} onPick={onPick} />
      ))}
    </svg>
  );
}

function MegaEarth({ data, view }: { data: StellarData; view: StellarView }) {
  const at = centreOf(data, MEGA_EARTH);
  const boxes = Object.entries(view.mega_earth_boxes);
  return (
    <g class="mega-earth-label">
      <text class="mega" x={at.x} y={at.y - SIZE * 0.9}>{t("stellar.megaEarth")}</text>
      {boxes.length > 0 && <text class="value" x={at.x} y={at.y + SIZE * 1.25}>
        {data.map.mega_earth.value_by_outposts[String(boxes.length)] ?? ""}</text>}
    </g>
  );
}

/** Outposts (one dot per corporation, in its colour), and what lies face down or was developed. */
function Marks({ view, hex, at }: { view: StellarView; hex: string; at: Point }) {
  const outposts = view.outposts[hex] ?? [];
  const faceDown = view.face_down_alien_tiles.includes(hex);
  const developed = view.developed.includes(hex);
  const converted = view.converted_nebulae.includes(hex);
  if (!outposts.length && !faceDown && !developed && !converted) return null;
  return (
    <g class="marks" data-marks={hex} data-outposts={outposts.join(" ")}>
      {faceDown && <text class="face-down" x={at.x} y={at.y + 4} data-face-down={hex}>?</text>}
      {developed && <circle class="developed" cx={at.x} cy={at.y} r={SIZE * 0.86} />}
      {converted && <circle class="converted" cx={at.x} cy={at.y} r={SIZE * 0.7} />}
      {outposts.map((corp, i) => {
        const angle = (2 * Math.PI * i) / Math.max(outposts.length, 1) - Math.PI / 2;
        const spread = outposts.length > 1 ? SIZE * 0.42 : 0;
        return <rect key={corp} class="outpost" data-outpost={corp} x={at.x + spread * Math.cos(angle) - 5}
                     y={at.y + SIZE * 0.1 + spread * Math.sin(angle) - 5} width={10} height={10} rx={2}
                     fill={CORP_COLOURS[corp] ?? "#fff"} />;
      })}
    </g>
  );
}
