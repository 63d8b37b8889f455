// The review slider: past positions of the game, when the lobby serves them (GET /games/{id}/view?at=SEQ).
// Hidden by the table when the lobby does not; "Live" returns to the current position.
import { useState } from "preact/hooks";
import type { GameView } from "../api/types";
import { t } from "../i18n";
import { ErrorNote } from "../ui/ErrorNote";

export function Review({ latest, shown, load, onShow }:
  { latest: number; shown: number | null; load: (seq: number) => Promise<GameView>; onShow: (p: { seq: number; view: GameView } | null) => void }) {
  const [error, setError] = useState<unknown>(null);
  const position = shown ?? latest;
  const pick = (seq: number) => {
    if (seq >= latest) return onShow(null);
    load(seq).then((view) => { setError(null); onShow({ seq, view }); }, setError);
  };
  return (
    <div class="review">
      <label for="review-slider">{t("review.label", { seq: position, latest })}</label>
      <input id="review-slider" type="range" min={1} max={latest} value={position}
             onChange={(e) => pick(Number(e.currentTarget.value))} />
      <button type="button" disabled={shown === null} onClick={() => onShow(null)}>{t("review.live")}</button>
      <ErrorNote error={error} />
    </div>
  );
}
