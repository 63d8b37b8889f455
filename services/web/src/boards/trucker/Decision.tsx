// A flight decision answered on my ship: the components it may use are highlighted on the drawn ship;
// the player clicks them (the keyboard too), and the answers that use exactly those are offered to
// confirm, in words. The answers are my legal actions (picking.ts matches them); the board sends the
// chosen one to the lobby.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Command } from "../../api/types";
import { t, tx } from "../../i18n";
import type { TruckerData } from "./data";
import { clicked, matching, pickable, type Picks } from "./picking";
import { ShipSvg } from "./Ship";
import type { ShipView } from "./view";

export function ShipDecision({ data, ship, answers, busy, send, name }: {
  data: TruckerData; ship: ShipView; answers: Command[]; busy: boolean; send: (answer: Command) => void; name: string;
}) {
  const doubleEngines = useMemo(() => ship.tiles.filter((tile) => data.components[tile.component]?.type === "double_engine")
    .map((tile) => tile.square.join(",")), [ship, data]);
  const most = useMemo(() => pickable(answers, doubleEngines), [answers, doubleEngines]);
  const [picks, setPicks] = useState<Picks>({});
  const decision = JSON.stringify(answers);
  useEffect(() => setPicks({}), [decision]);              // a new decision starts with nothing picked
  const offered = matching(answers, picks, doubleEngines);
  const kind = answers[0].type;
  return (
    <section class="panel decision" aria-labelledby="trucker-decision-title" data-decision={kind}>
      <h3 id="trucker-decision-title">{t("trucker.decisionTitle")}</h3>
      <p>{tx(`trucker.pick.${kind}`, t("trucker.pick.any"))}</p>
      <div class="decision-grid">
        <ShipSvg data={data} ship={ship} picks={most} picked={picks} onToggle={(square) => setPicks(clicked(picks, square, most))}
                 label={t("trucker.decisionShip", { name })} />
        <div class="decision-confirm" role="group" aria-label={t("trucker.decisionAnswers")} aria-live="polite">
          {offered.length === 0 && <p class="muted">{t("trucker.pickNoMatch")}</p>}
          {offered.map((answer) => (
            <button type="button" key={JSON.stringify(answer)} disabled={busy} data-answer={JSON.stringify(answer)}
                    onClick={() => send(answer)}>{answerWords(answer)}</button>
          ))}
          {Object.keys(picks).length > 0 && (
            <button type="button" class="secondary" onClick={() => setPicks({})}>{t("trucker.pickClear")}</button>
          )}
        </div>
      </div>
    </section>
  );
}

const where = (square: unknown) => ({ column: (square as number[])[0], row: (square as number[])[1] });

/** An answer in words: what it does with the pieces picked. */
export function answerWords(answer: Command): string {
  switch (answer.type) {
    case "FireCannons": return t("trucker.answer.fire", { count: (answer.squares as unknown[]).length });
    case "PowerEngines": return t("trucker.answer.power", { count: Number(answer.count ?? 0) });
    case "KeepPart": return t("trucker.answer.keep", where(answer.square));
    case "ChooseAliens": {
      const aliens = answer.aliens as [number[], string][];
      return aliens.length === 0 ? t("trucker.answer.noAliens")
        : aliens.map(([square, colour]) => t("trucker.answer.alien", { colour: tx(`trucker.colour.${colour}`, colour), ...where(square) })).join("; ");
    }
    case "ChooseCrewLoss": {
      const losses = answer.losses as [number[], string][];
      return t("trucker.answer.crew", { count: losses.length, who: losses.map(([, who]) => tx(`trucker.crewKind.${who}`, who)).join(", ") });
    }
    case "ChooseGoodsLoss": {
      const losses = answer.losses as [number[], string][];
      return t("trucker.answer.goods", { goods: losses.map(([, good]) => tx(`trucker.good.${good}`, good)).join(", ") });
    }
    case "ArrangeCargo": {
      const goods = (answer.cargo as [number[], string[]][]).flatMap(([, held]) => held);
      return goods.length === 0 ? t("trucker.answer.noCargo")
        : t("trucker.answer.cargo", { goods: goods.map((good) => tx(`trucker.good.${good}`, good)).join(", ") });
    }
    default: return answer.type;
  }
}
