// A ship board: its buildable squares, the components placed (the newest outlined), and the squares
// where the player may put the component in hand (or move the newest) at the chosen rotation, as
// focusable buttons (click, Enter or Space); in flight, the components a decision may use, picked by
// clicking them (`picks`: how many times each may be picked; `picked`: how many times it is).
import type { JSX } from "preact";
import type { Picks } from "./picking";
import { t, tx } from "../../i18n";
import { squaresOf, type TruckerData } from "./data";
import { TileShape, tileWords } from "./Tile";
import type { ShipView } from "./view";

const CELL = 48;

export function ShipSvg({ data, ship, targets, onPick, label, small, picks, picked, onToggle }: {
  data: TruckerData; ship: ShipView; targets?: Set<string>; onPick?: (square: [number, number]) => void;
  label: string; small?: boolean; picks?: Picks; picked?: Picks; onToggle?: (square: string) => void;
}) {
  const board = data.boards[ship.board];
  const squares = board ? squaresOf(board) : ship.tiles.map((tile) => tile.square);
  const columns = squares.map(([c]) => c), rows = squares.map(([, r]) => r);
  const minC = Math.min(...columns), minR = Math.min(...rows);
  const width = (Math.max(...columns) - minC + 1) * CELL, height = (Math.max(...rows) - minR + 1) * CELL;
  const at = ([c, r]: [number, number]) => [(c - minC) * CELL, (r - minR) * CELL] as const;
  const newest = ship.newest ? ship.newest.join(",") : null;
  return (
    <svg class={small ? "ship-svg small" : "ship-svg"} viewBox={`-2 -2 ${width + 4} ${height + 4}`} role="img"
         aria-label={label} data-ship-tiles={ship.tiles.length}>
      {squares.map((square) => {
        const [x, y] = at(square);
        return <rect key={square.join(",")} class="square" x={x} y={y} width={CELL} height={CELL} />;
      })}
      {ship.tiles.map((tile) => {
        const fact = data.components[tile.component];
        const [x, y] = at(tile.square);
        const key = tile.square.join(",");
        return (
          <g key={key} data-square={key} data-component={tile.component} class={key === newest ? "newest" : undefined}>
            {fact && <TileShape fact={fact} x={x} y={y} size={CELL} rotation={tile.rotation} />}
            {key === newest && <rect class="newest-ring" x={x + 1} y={y + 1} width={CELL - 2} height={CELL - 2} />}
            <Cargo ship={ship} square={key} x={x} y={y} />
          </g>
        );
      })}
      {targets && onPick && squares.filter((s) => targets.has(s.join(","))).map((square) => {
        const [x, y] = at(square);
        return <SquareTarget key={square.join(",")} square={square} x={x} y={y} onPick={onPick} />;
      })}
      {picks && onToggle && ship.tiles.filter((tile) => picks[tile.square.join(",")]).map((tile) => {
        const [x, y] = at(tile.square);
        const square = tile.square.join(",");
        const fact = data.components[tile.component];
        return <PieceTarget key={square} square={tile.square} x={x} y={y} most={picks[square]} count={picked?.[square] ?? 0}
                            what={fact ? tx(`trucker.kind.${fact.type}`, fact.type) : tile.component} onToggle={onToggle} />;
      })}
    </svg>
  );
}

/** What a component carries once launched: crew (an alien as its colour's letter), battery tokens, goods. */
function Cargo({ ship, square, x, y }: { ship: ShipView; square: string; x: number; y: number }) {
  const humans = ship.humans[square], alien = ship.aliens[square], batteries = ship.batteries[square];
  const goods = ship.goods[square] ?? [];
  return (
    <g class="cargo">
      {(humans || alien) && <text class="crew" x={x + 4} y={y + CELL - 5}>{alien ? t(alien === "purple" ? "trucker.alien.purple" : "trucker.alien.brown") : humans}</text>}
      {batteries ? <text class="charge" x={x + CELL - 4} y={y + CELL - 5}>{batteries}</text> : null}
      {goods.map((good, index) => <rect key={index} class={`good ${good}`} x={x + 5 + index * 9} y={y + 5} width={7} height={7} />)}
    </g>
  );
}

function SquareTarget({ square, x, y, onPick }: { square: [number, number]; x: number; y: number; onPick: (s: [number, number]) => void }) {
  const key = (event: JSX.TargetedKeyboardEvent<SVGGElement>) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onPick(square);
    }
  };
  return (
    <g class="target" role="button" tabindex={0} data-target={square.join(",")} onClick={() => onPick(square)} onKeyDown={key}
       aria-label={t("trucker.placeAt", { column: square[0], row: square[1] })}>
      <rect x={x + 3} y={y + 3} width={CELL - 6} height={CELL - 6} rx={4} />
    </g>
  );
}

/** A piece of my ship a flight decision may use: a focusable button; each click picks it once more,
 *  up to `most`, then unpicks it. */
function PieceTarget({ square, x, y, most, count, what, onToggle }: {
  square: [number, number]; x: number; y: number; most: number; count: number; what: string; onToggle: (s: string) => void;
}) {
  const name = square.join(",");
  const key = (event: JSX.TargetedKeyboardEvent<SVGGElement>) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onToggle(name);
    }
  };
  const label = t(most > 1 ? "trucker.pieceMany" : "trucker.piece",
                  { what, column: square[0], row: square[1], count, most });
  return (
    <g class={count > 0 ? "pick picked" : "pick"} role="button" tabindex={0} data-pick={name} data-picked={count} data-most={most}
       aria-pressed={count > 0} aria-label={label} onClick={() => onToggle(name)} onKeyDown={key}>
      <rect x={2} y={2} width={CELL - 4} height={CELL - 4} rx={4} transform={`translate(${x} ${y})`} />
      {count > 0 && <text x={x + CELL / 2} y={y + 14}>{most > 1 ? `✓${count}` : "✓"}</text>}
    </g>
  );
}

/** The ship in words for its label: whose it is and how many components it has. */
export function shipLabel(name: string, ship: ShipView): string {
  return t("trucker.shipOf", { name, count: ship.tiles.length });
}

export { tileWords };
