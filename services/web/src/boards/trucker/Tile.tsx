// One component drawn in a square of `size`: its kind as a colour and a short label, its connectors
// on each side (one, two or three stubs: single, double, universal), an engine's nozzle and a cannon's
// barrel as a triangle on the side they face; turned `rotation` quarter turns clockwise.
import { t, tx } from "../../i18n";
import { type ComponentFact, SIDES } from "./data";

const STUBS: Record<string, number[]> = { single: [0.5], double: [0.35, 0.65], universal: [0.3, 0.5, 0.7] };

export function TileShape({ fact, x, y, size, rotation }: { fact: ComponentFact; x: number; y: number; size: number; rotation: number }) {
  const c = size / 2;
  return (
    <g class={`tile kind-${fact.type}`} transform={`translate(${x} ${y})`}>
      <g transform={`rotate(${rotation * 90} ${c} ${c})`}>
        <rect class="body" x={2} y={2} width={size - 4} height={size - 4} rx={3}
              style={fact.color ? { fill: fact.color } : undefined} />
        {fact.sides.map((side, index) => (STUBS[side] ?? []).map((along) => (
          <line class="stub" key={`${index}-${along}`} {...stub(index, along, size)} />
        )))}
        {fact.exhaust && <polygon class="exhaust" points={pointer(SIDES.indexOf(fact.exhaust as never), size)} />}
        {fact.barrel && <polygon class="barrel" points={pointer(SIDES.indexOf(fact.barrel as never), size)} />}
      </g>
      <text class="tile-label" x={c} y={c + size * 0.1} font-size={size * 0.3}>{tx(`trucker.short.${fact.type}`, "?")}</text>
      <title>{tileWords(fact, rotation)}</title>
    </g>
  );
}

/** The component in words: its kind and its connectors as turned (for a title and screen readers). */
export function tileWords(fact: ComponentFact, rotation: number): string {
  const sides = SIDES.map((_, direction) => fact.sides[(direction - rotation + 4) % 4]);
  return t("trucker.tileWords", {
    kind: tx(`trucker.kind.${fact.type}`, fact.type),
    sides: sides.map((side, direction) => `${tx(`trucker.side.${direction}`, String(direction))} ${tx(`trucker.connector.${side}`, side)}`).join(", "),
  });
}

function stub(side: number, along: number, size: number) {
  const depth = size * 0.16;
  const at = size * along;
  switch (side) {
    case 0: return { x1: at, y1: 0, x2: at, y2: depth };
    case 1: return { x1: size, y1: at, x2: size - depth, y2: at };
    case 2: return { x1: at, y1: size, x2: at, y2: size - depth };
    default: return { x1: 0, y1: at, x2: depth, y2: at };
  }
}

function pointer(side: number, size: number): string {
  const c = size / 2, w = size * 0.14, d = size * 0.3;
  const points = [[c - w, d], [c + w, d], [c, 4]];        // the top side's; turned for the others
  return points.map(([px, py]) => rotatePoint(px, py, side, size).join(",")).join(" ");
}

function rotatePoint(x: number, y: number, turns: number, size: number): [number, number] {
  let [px, py] = [x, y];
  for (let i = 0; i < turns; i += 1) [px, py] = [size - py, px];
  return [px, py];
}
