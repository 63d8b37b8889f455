// Taking my last move back, and answering another's request to (rated games: everyone else agrees).
import { api } from "../api/client";
import type { GameEvent } from "../api/types";
import { t } from "../i18n";
import { ErrorNote } from "../ui/ErrorNote";
import { useAction } from "../ui/hooks";
import { lastMoveWas, pendingUndo } from "./undo";

export function Undo({ gameId, events, seat, names }:
  { gameId: string; events: GameEvent[]; seat: string; names: Record<string, string> }) {
  const action = useAction();
  const pending = pendingUndo(events);
  let body;
  if (pending && pending.awaiting.includes(seat)) {
    body = (
      <>
        <p>{t("game.undoAsked", { who: names[pending.by] ?? pending.by })}</p>
        <div class="row">
          <button type="button" disabled={action.busy} onClick={() => action.run(() => api.agreeUndo(gameId))}>
            {t("game.undoAgree")}</button>
          <button type="button" class="secondary" disabled={action.busy}
                  onClick={() => action.run(() => api.refuseUndo(gameId))}>{t("game.undoRefuse")}</button>
        </div>
      </>
    );
  } else if (pending && pending.by === seat) {
    body = <p class="muted">{t("game.undoWaiting")}</p>;
  } else if (!pending && lastMoveWas(events, seat)) {
    body = <button type="button" class="secondary" disabled={action.busy}
                   onClick={() => action.run(() => api.undo(gameId, 1))}>{t("game.undo")}</button>;
  } else {
    return null;
  }
  return (
    <div class="undo" role="group" aria-label={t("game.undoTitle")}>
      {body}
      <ErrorNote error={action.error} />
    </div>
  );
}
