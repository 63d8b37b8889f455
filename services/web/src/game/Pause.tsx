// Pausing a timed game's clock by agreement: I ask, the other people seated answer (the last to agree
// stops it), and any of us starts it again (docs/clock.md). Drawn from the clock the view and the
// lobby's `clock` pushes carry (`requested_by`, `awaiting`, `paused`).
import { api } from "../api/client";
import type { ClockState } from "../api/types";
import { t } from "../i18n";
import { ErrorNote } from "../ui/ErrorNote";
import { useAction } from "../ui/hooks";
import { Agreement } from "./Agreement";

const WORDS = { title: "game.pauseTitle", ask: "game.pauseAsk", asked: "game.pauseAsked", agree: "game.pauseAgree",
  refuse: "game.pauseRefuse", waiting: "game.pauseWaiting" } as const;

export function Pause({ gameId, clock, seat, names }:
  { gameId: string; clock: ClockState | null; seat: string; names: Record<string, string> }) {
  const action = useAction();
  if (!clock?.control) return null;                 // an untimed game has no clock to stop
  if (clock.paused || clock.paused_at) {
    return (
      <div class="pause" role="group" aria-label={t(WORDS.title)}>
        <button type="button" class="secondary" disabled={action.busy}
                onClick={() => action.run(() => api.resumeClock(gameId))}>{t("game.resume")}</button>
        <ErrorNote error={action.error} />
      </div>
    );
  }
  const request = clock.requested_by ? { by: clock.requested_by, awaiting: clock.awaiting ?? [] } : null;
  return (
    <Agreement kind="pause" request={request} seat={seat} names={names} mayAsk words={WORDS}
               calls={{ ask: () => api.pauseAsk(gameId), agree: () => api.pauseAgree(gameId),
                        refuse: () => api.pauseRefuse(gameId) }} />
  );
}
