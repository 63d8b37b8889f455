// Choosing a tile lay for one hex: every legal tile and rotation there (from my legal actions), each
// with a small drawing; the chosen one is previewed on the map until confirmed.
import { useState } from "preact/hooks";
import { t } from "../../i18n";
import { ErrorNote } from "../../ui/ErrorNote";
import type { Moon21Data } from "./data";
import { SIZE } from "./geometry";
import { hexPoints, TileRoads } from "./tiles";

export interface LayOption { type: "LayTile"; base: "LB" | "SP"; hex: string; tile: string; rotation: number }

const SMALL = SIZE * 1.1;

export function TileChooser({ data, hex, options, choice, onChoose, onCancel, onConfirm }: {
  data: Moon21Data; hex: string; options: LayOption[]; choice: LayOption | null;
  onChoose: (lay: LayOption) => void; onCancel: () => void; onConfirm: (lay: LayOption) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = () => {
    if (!choice) return;
    setBusy(true);
    onConfirm(choice).then(() => setError(null), setError).finally(() => setBusy(false));
  };
  return (
    <div class="tile-chooser" role="group" aria-labelledby="chooser-title">
      <h4 id="chooser-title">{t("moon21.chooseTile", { hex })}</h4>
      <div class="tile-options" role="radiogroup" aria-label={t("moon21.tileOptions")}>
        {options.map((lay) => {
          const label = t("moon21.tileOption", { tile: lay.tile, rotation: lay.rotation,
                                                  base: t(lay.base === "SP" ? "moon21.baseSP" : "moon21.baseLB") });
          const chosen = choice === lay;
          return (
            <label key={`${lay.base}-${lay.tile}-${lay.rotation}`} class={chosen ? "tile-option chosen" : "tile-option"}
                   data-tile={lay.tile} data-rotation={lay.rotation} data-base={lay.base}>
              <input type="radio" name="tile-lay" checked={chosen} onChange={() => onChoose(lay)} />
              <svg viewBox={`0 0 ${SMALL * 2} ${SMALL * 2}`} width={SMALL * 1.4} height={SMALL * 1.4} aria-hidden="true">
                <polygon class="terrain" points={hexPoints({ x: SMALL, y: SMALL })} />
                <TileRoads data={data} hex={hex} laid={lay} at={{ x: SMALL, y: SMALL }} />
              </svg>
              <span>{label}</span>
            </label>
          );
        })}
      </div>
      <div class="row">
        <button type="button" data-action="confirm-lay" disabled={!choice || busy} onClick={confirm}>{t("moon21.layTile")}</button>
        <button type="button" class="secondary" onClick={onCancel}>{t("common.cancel")}</button>
      </div>
      <ErrorNote error={error} />
    </div>
  );
}
