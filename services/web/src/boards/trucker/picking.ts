// Flight decisions chosen on the ship: which double cannons fire, which double engines are powered,
// which part of a broken ship to keep, whose crew or which goods are given up, which cabin takes an
// alien, how the cargo is stowed. The answers come from my legal actions (the engine lists them); each
// names squares of my ship, some twice (two crew of one cabin). The player picks squares on the drawn
// ship (a square clicked again adds one more, up to what any answer uses, then clears), and the answers
// that use exactly the picked squares are offered to confirm. Pure: unit-tested in tests/picking.test.mjs.
import type { Command } from "../../api/types";

type Square = [number, number];
export type Picks = Record<string, number>;          // square "c,r" → how many times picked

export const PICKED_ON_SHIP = ["FireCannons", "PowerEngines", "KeepPart", "ChooseCrewLoss", "ChooseGoodsLoss",
  "ChooseAliens", "ArrangeCargo"];

const key = (square: unknown) => (square as Square).join(",");

/** The squares an answer uses, once per piece (null: PowerEngines, which names a count, not squares). */
function usedSquares(answer: Command): string[] | null {
  switch (answer.type) {
    case "FireCannons": return (answer.squares as Square[]).map(key);
    case "KeepPart": return [key(answer.square)];
    case "ChooseCrewLoss":
    case "ChooseGoodsLoss": return (answer.losses as [Square, string][]).map(([square]) => key(square));
    case "ChooseAliens": return (answer.aliens as [Square, string][]).map(([square]) => key(square));
    case "ArrangeCargo": return (answer.cargo as [Square, string[]][]).flatMap(([square, goods]) => goods.map(() => key(square)));
    default: return null;
  }
}

function counted(squares: string[]): Picks {
  const picks: Picks = {};
  for (const square of squares) picks[square] = (picks[square] ?? 0) + 1;
  return picks;
}

/** The answers to pick on the ship among my legal actions. */
export function shipAnswers(actions: Command[]): Command[] {
  return actions.filter((action) => PICKED_ON_SHIP.includes(action.type));
}

/** Each square that may be picked, with the most times any answer uses it. `doubleEngines`: my ship's
 *  double engines (PowerEngines names how many are powered: any of them may be picked). */
export function pickable(answers: Command[], doubleEngines: string[]): Picks {
  const most: Picks = {};
  for (const answer of answers) {
    const squares = usedSquares(answer);
    const picks = squares === null ? (Number(answer.count) > 0 ? counted(doubleEngines) : {}) : counted(squares);
    for (const [square, n] of Object.entries(picks)) most[square] = Math.max(most[square] ?? 0, n);
  }
  return most;
}

/** The picks after clicking `square`: one more, up to its most, then none. */
export function clicked(picks: Picks, square: string, most: Picks): Picks {
  const next = (picks[square] ?? 0) + 1;
  const { [square]: _dropped, ...rest } = picks;
  return next > (most[square] ?? 0) ? rest : { ...rest, [square]: next };
}

/** The answers that use exactly the picked squares (PowerEngines: as many double engines as picked). */
export function matching(answers: Command[], picks: Picks, doubleEngines: string[]): Command[] {
  const chosen = Object.entries(picks).filter(([, n]) => n > 0);
  const same = (wanted: Picks) => chosen.length === Object.keys(wanted).length && chosen.every(([sq, n]) => wanted[sq] === n);
  return answers.filter((answer) => {
    const squares = usedSquares(answer);
    if (squares !== null) return same(counted(squares));
    const total = chosen.reduce((sum, [, n]) => sum + n, 0);
    return total === Number(answer.count ?? 0) && chosen.every(([sq, n]) => n === 1 && doubleEngines.includes(sq));
  });
}

/** How many times each square must be clicked for `answer` (what a test or a "suggest" control does). */
export function picksFor(answer: Command, doubleEngines: string[]): Picks {
  const squares = usedSquares(answer);
  return squares !== null ? counted(squares) : counted(doubleEngines.slice(0, Number(answer.count ?? 0)));
}
