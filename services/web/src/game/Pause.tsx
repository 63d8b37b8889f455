// Pausing a timed game's clock by agreement: I ask, the other people seated answer (the last to agree
// stops it), and any of us starts it again (docs/clock.md). Drawn from the clock the view and the
// lobby's `clock` pushes carry (`requested_by`, `awaiting`, `paused`).
import { api } from "../api/client";
import type { ClockState } from "../api/types";
import { t } from "../i18n";
import { ErrorNote } from "../ui/ErrorNote";
import { useAction } from "../ui/hooks";

export function Pause({ gameId, clock, seat, names }:
  { gameId: string; clock: ClockState | null; seat: string; names: Record<string, string> }) {
  const action = useAction();
  if (!clock?.control) return null;                 // an untimed game has no clock to stop
  const run = (call: (id: string) => Promise<unknown>) => () => action.run(() => call(gameId));
  let body;
  if (clock.paused || clock.paused_at) {
    body = <button type="button" class="secondary" disabled={action.busy} onClick={run(api.resumeClock)}>
      {t("game.resume")}</button>;
  } else if (clock.requested_by && (clock.awaiting ?? []).includes(seat)) {
    body = (
      <>
        <p>{t("game.pauseAsked", { who: names[clock.requested_by] ?? clock.requested_by })}</p>
        <div class="row">
          <button type="button" disabled={action.busy} onClick={run(api.pauseAgree)}>{t("game.pauseAgree")}</button>
          <button type="button" class="secondary" disabled={action.busy} onClick={run(api.pauseRefuse)}>
            {t("game.pauseRefuse")}</button>
        </div>
      </>
    );
  } else if (clock.requested_by === seat) {
    body = <p class="muted">{t("game.pauseWaiting")}</p>;
  } else if (clock.requested_by) {
    return null;                                    // another's request, already answered by me
  } else {
    body = <button type="button" class="secondary" disabled={action.busy} onClick={run(api.pauseAsk)}>
      {t("game.pauseAsk")}</button>;
  }
  return (
    <div class="pause" role="group" aria-label={t("game.pauseTitle")}>
      {body}
      <ErrorNote error={action.error} />
    </div>
  );
}
