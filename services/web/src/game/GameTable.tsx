// The table of a running or finished game, for any game: whose turn and the clock, the board (the
// game's own board module, else the view shown readably), my legal actions, the log, the review
// slider and the final standings. Everything is drawn from the view, the legal actions and the pushes.
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, lobbyServesPastViews } from "../api/client";
import type { Command, GameView, Standing, Table } from "../api/types";
import { loadBoard } from "../boards/registry";
import type { BoardModule } from "../boards/types";
import { t } from "../i18n";
import { ErrorNote } from "../ui/ErrorNote";
import { Actions } from "./Actions";
import { Clocks, Turn } from "./Clock";
import { withPush } from "./clockMath";
import { refreshMyTurns } from "../ui/myTurns";
import { GameLog } from "./GameLog";
import { markBoardDrawn, markDrawn, markSent } from "./metrics";
import { Review } from "./Review";
import { RealtimePanel } from "../screens/RealtimePanel";
import { Resign } from "./Resign";
import { Pause } from "./Pause";
import { Undo } from "./Undo";
import { seatIPlay } from "./seats";
import { useGame } from "./useGame";
import { useRealtime } from "./useRealtime";
import { ViewTree } from "./ViewTree";

interface Props {
  gameId: string; game: string; names: Record<string, string>; me: string | null; invite?: string; table: Table;
  /** The table changed by something done here (a resignation): read it again. */
  onTableChange?: () => void;
}

let commandCounter = 0;
function commandId(): string {
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `web-${Date.now().toString(36)}-${(commandCounter++).toString(36)}-${random[0].toString(36)}${random[1].toString(36)}`;
}

export function GameTable({ gameId, game, names, me, invite, table, onTableChange }: Props) {
  // Seated: I play a seat now (my own, or one I took over); a seat I gave up leaves me watching.
  const mySeat = seatIPlay(table, me);
  const seated = mySeat !== undefined;
  // Whom the game knows me as: the seat's player id (a substitute plays under it), else my own id.
  const playingAs = mySeat?.player_id ?? me;
  const state = useGame(gameId, seated, invite);
  // A game with a real-time phase (Trucker) is also followed, and played, on its own service's socket.
  // Reopened when the seat I play changes (I take one over, I give mine up): the service reads who I
  // play for when the socket opens.
  const realtime = useRealtime(table.status === "playing" ? table.realtime_url ?? null : null, gameId, invite,
                               seated ? playingAs : null);
  const [board, setBoard] = useState<BoardModule | null | undefined>(undefined);
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [past, setPast] = useState<{ seq: number; view: GameView } | null>(null);
  const [reviewable, setReviewable] = useState(false);

  useEffect(() => { void loadBoard(game).then(setBoard, () => setBoard(null)); }, [game]);
  useEffect(() => { void lobbyServesPastViews().then(setReviewable); }, []);
  const [drawn, setDrawn] = useState(0);
  useEffect(() => {
    if (state.view && board !== undefined) {
      markBoardDrawn();
      if (state.drawnSeq > drawn) {
        markDrawn(drawn, state.drawnSeq);
        setDrawn(state.drawnSeq);
      }
    }
  }, [state.view, state.drawnSeq, board]);

  const view = past?.view ?? state.view;
  const reviewing = past !== null;
  const actions = reviewing ? [] : state.actions;
  const ended = Boolean(state.ended) || state.events.some((e) => e.type === "GameEnded");
  const toAct = Array.isArray(view?.to_act) ? (view!.to_act as string[]) : null;
  const myTurn = !reviewing && seated && (toAct ? toAct.includes(playingAs!) : state.actions.length > 0);

  const submit = async (command: Command) => {
    setSending(true);
    setRefusal(null);
    markSent(state.drawnSeq);
    try {
      await state.submit(command, commandId());
      refreshMyTurns();             // the badge: this game may no longer wait for me
    } catch (error) {
      setRefusal(error);
      throw error;
    } finally {
      setSending(false);
    }
  };
  const send = (command: Command) => void submit(command).catch(() => undefined);

  const standings = useMemo(() => finalStandings(table, view), [table, view]);
  // The live clock (not a past position's): the view's, with a newer `your_turn` push's due time.
  const clock = withPush(state.clock, playingAs, state.turnPush);
  const players = table.seats.map((s) => s.player_id).filter((p): p is string => Boolean(p));
  return (
    <section class="game" aria-labelledby="game-title" data-game={game} data-seq={state.drawnSeq}
             data-actions-seq={seated ? state.actionsSeq : state.drawnSeq}
             data-status={state.status} data-reviewing={reviewing}>
      <div class="panel game-head">
        <h2 id="game-title">{t("game.title")}</h2>
        <Turn toAct={toAct} myTurn={myTurn} names={names} ended={ended} />
        <Clocks clock={clock} players={players} names={names} me={seated ? playingAs : null} ended={ended} />
        <p class="connection" data-connection={state.status}>{t(`connection.${state.status}`)}</p>
        {!seated && <p class="muted">{t("game.spectating")}</p>}
        {seated && !ended && table.status === "playing" && (
          <div class="row seat-controls">
            <Pause gameId={gameId} clock={clock} seat={playingAs!} names={names} />
            <Resign gameId={gameId} onResigned={() => onTableChange?.()} live={realtime?.send ?? null} />
          </div>
        )}
        {reviewable && state.drawnSeq > 0 && (
          <Review latest={state.drawnSeq} shown={past?.seq ?? null}
                  load={(seq) => api.view(gameId, invite, seq).then((reply) => reply.view)} onShow={setPast} />
        )}
        <ErrorNote error={state.error} />
      </div>
      {realtime && <RealtimePanel realtime={realtime} names={names} />}
      {standings.length > 0 && <Standings standings={standings} names={names} />}
      {view && board && <board.Board game={game} gameId={gameId} view={view} actions={actions} submit={submit}
                                     names={names} me={playingAs} reviewing={reviewing} events={state.events}
                                     realtime={realtime} />}
      {seated && !ended && !reviewing && (
        <div class="panel">
          <h3>{t("game.actions")}</h3>
          {actions.length === 0 && <p class="muted">{t("game.noActions")}</p>}
          {actions.length > 0 && actions.every((a) => board?.handles?.includes(a.type)) &&
            <p class="muted">{t("game.actionsOnBoard")}</p>}
          <Actions actions={actions} names={names} busy={sending} onSend={send} hidden={board?.handles} />
          <ErrorNote error={refusal} />
          <Undo gameId={gameId} events={state.events} seat={playingAs!} names={names} />
        </div>
      )}
      {view && (
        <details class="panel" open={board === null}>
          <summary>{board ? t("game.rawView") : t("game.view")}</summary>
          <ViewTree value={view as never} names={names} />
        </details>
      )}
      <GameLog events={state.events} names={names} describe={board?.describe} />
    </section>
  );
}

function finalStandings(table: Table, view: GameView | null): Standing[] {
  if (table.standings?.length) return table.standings;
  const fromView = (view as { standings?: unknown } | null)?.standings;
  return Array.isArray(fromView) ? (fromView as Standing[]) : [];
}

function Standings({ standings, names }: { standings: Standing[]; names: Record<string, string> }) {
  return (
    <section class="panel standings" aria-labelledby="standings-title">
      <h3 id="standings-title">{t("game.standings")}</h3>
      <div class="scroll-x">
      <table>
        <thead><tr><th scope="col">{t("game.rank")}</th><th scope="col">{t("game.player")}</th><th scope="col">{t("game.score")}</th></tr></thead>
        <tbody>
          {[...standings].sort((a, b) => a.rank - b.rank).map((s) => (
            <tr key={s.player}><td>{s.rank}</td><td>{names[s.player] ?? s.player}</td><td>{s.score ?? "—"}</td></tr>
          ))}
        </tbody>
      </table>
      </div>
    </section>
  );
}

