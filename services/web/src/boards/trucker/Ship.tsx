// A ship board: its buildable squares, the components placed (the newest outlined), and the squares
// where the player may put the component in hand (or move the newest) at the chosen rotation, as
// focusable buttons (click, Enter or Space).
import type { JSX } from "preact";
import { t } from "../../i18n";
import { squaresOf, type TruckerData } from "./data";
import { TileShape, tileWords } from "./Tile";
import type { ShipView } from "./view";

const CELL = 48;

export function ShipSvg({ data, ship, targets, onPick, label, small }: {
  data: TruckerData; ship: ShipView; targets?: Set<string>; onPick?: (square: [number, number]) => void;
  label: string; small?: boolean;
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

/** The ship in words for its label: whose it is and how many components it has. */
export function shipLabel(name: string, ship: ShipView): string {
  return t("trucker.shipOf", { name, count: ship.tiles.length });
}

export { tileWords };
