// One table: its seats (sit, ready, leave, start), watching, the invite of a private table, the chat,
// once it has started the game itself, and a real-time phase's live feed (Trucker). Redrawn from the
// table's socket.
import { useEffect, useMemo, useState } from "preact/hooks";
import { api } from "../api/client";
import { LiveFeed } from "../api/socket";
import type { Seat, Table } from "../api/types";
import { GameTable } from "../game/GameTable";
import { mayTakeASeat } from "../game/seats";
import { markTableOpened } from "../game/metrics";
import { t } from "../i18n";
import { href } from "../router";
import { ErrorNote } from "../ui/ErrorNote";
import { gameName } from "../ui/engines";
import { useAction, useLoad, useSession } from "../ui/hooks";
import { Chat, type ChatSink } from "./Chat";

export function TableRoom({ id, invite }: { id: string; invite?: string }) {
  const me = useSession();
  const table = useLoad(() => api.getTable(id, invite), [id, invite, me?.playerId]);
  const [live, setLive] = useState(false);
  const chat = useMemo<ChatSink>(() => new Set(), [id]);
  useEffect(markTableOpened, [id]);
  useEffect(() => {
    // A burst of events (the past ones on connecting) causes one read of the table, not one each.
    let pending: number | undefined;
    const reload = () => {
      window.clearTimeout(pending);
      pending = window.setTimeout(table.reload, 30);
    };
    const feed = new LiveFeed({ path: `/tables/${encodeURIComponent(id)}/ws`, gameId: id, invite }, 0, {
      onEvent: reload,
      onChat: (message) => chat.forEach((deliver) => deliver(message)),
      onStatus: (status) => setLive(status === "live"),
    });
    void feed.start();
    return () => { feed.stop(); window.clearTimeout(pending); };
  }, [id, invite, me?.playerId]);
  if (!table.data) return <section class="panel"><ErrorNote error={table.error} />{!table.error && <p>{t("common.loading")}</p>}</section>;
  const data = table.data;
  const names = Object.fromEntries([
    ...data.seats.filter((s) => s.player_id).map((s) => [s.player_id!, s.name ?? s.player_id!]),
    ...data.seats.filter((s) => s.substitute).map((s) => [s.substitute!, s.substitute_name ?? s.substitute!]),
  ]);
  return (
    <div class="room">
      <section class="panel" aria-labelledby="table-title">
        <h2 id="table-title">{gameName(data.game)} <span class={`status ${data.status}`}>{t(`status.${data.status}`)}</span></h2>
        <Seats table={data} me={me?.playerId ?? null} invite={data.invite ?? invite} onChange={table.reload} />
        {data.invite && <InviteNote table={data} />}
      </section>
      {data.game_id && <GameTable key={data.game_id} gameId={data.game_id} game={data.game} names={names}
                                  me={me?.playerId ?? null} invite={invite} table={data} onTableChange={table.reload} />}
      <Chat tableId={id} invite={invite} pushes={chat} live={live} me={me} names={names} />
    </div>
  );
}

function Seats({ table, me, invite, onChange }: { table: Table; me: string | null; invite?: string; onChange: () => void }) {
  const action = useAction();
  const mine = table.seats.find((s) => s.player_id === me);
  const open = table.status === "open";
  const act = (call: () => Promise<unknown>) => action.run(async () => { await call(); onChange(); });
  const everyoneReady = table.seats.every((s) => s.player_id && s.ready);
  return (
    <div class="seats">
      <h3>{t("table.seats")}</h3>
      <ol>
        {table.seats.map((seat) => (
          <li key={seat.seat} data-seat={seat.seat}>
            <span>{t("table.seat", { seat: seat.seat + 1 })}</span>{" "}
            {seat.player_id
              ? <><a href={href({ name: "player", id: seat.player_id })}>{seat.name ?? seat.player_id}</a>
                  {seat.player_id === table.host && <span class="tag">{t("table.host")}</span>}
                  {open && <span class={seat.ready ? "tag ok" : "tag"}>{seat.ready ? t("table.ready") : t("table.notReady")}</span>}
                  <SeatPlayedBy seat={seat} table={table} me={me} invite={invite} onChange={onChange} /></>
              : me && open && !mine
                ? <button type="button" disabled={action.busy} onClick={() => act(() => api.join(table.table_id, seat.seat, invite))}>
                    {t("table.sitHere")}</button>
                : <span class="muted">{t("table.free")}</span>}
          </li>
        ))}
      </ol>
      <div class="row">
        {mine && open && <button type="button" disabled={action.busy} onClick={() => act(() => api.ready(table.table_id, !mine.ready))}>
          {mine.ready ? t("table.notReadyAction") : t("table.readyAction")}</button>}
        {mine && open && <button type="button" class="secondary" disabled={action.busy} onClick={() => act(() => api.leave(table.table_id))}>
          {t("table.leave")}</button>}
        {me === table.host && open && <button type="button" disabled={action.busy || !everyoneReady}
                                              onClick={() => act(() => api.start(table.table_id))}>{t("table.start")}</button>}
        {me && !table.seats.some((s) => s.substitute === me) && !mine && table.status === "playing" &&
          <WatchButton table={table} invite={invite} onChange={onChange} />}
      </div>
      <ErrorNote error={action.error} />
    </div>
  );
}

/** A running game's seat whose player gave it up (a bot plays it: anyone not in the game may take it
 *  over), or that a substitute plays. */
function SeatPlayedBy({ seat, table, me, invite, onChange }:
  { seat: Seat; table: Table; me: string | null; invite?: string; onChange: () => void }) {
  const action = useAction();
  if (seat.substitute) {
    return <span class="tag">{t("table.playedBy", { name: seat.substitute_name ?? seat.substitute })}</span>;
  }
  if (!seat.abandoned) return null;
  return (
    <>
      <span class="tag">{t("table.resigned")}</span>
      {mayTakeASeat(table, me) && table.game_id &&
        <button type="button" disabled={action.busy} onClick={() => action.run(async () => {
          await api.takeSeat(table.game_id!, seat.seat, invite);
          onChange();
        })}>{t("table.takeSeat")}</button>}
      <ErrorNote error={action.error} />
    </>
  );
}

function WatchButton({ table, invite, onChange }: { table: Table; invite?: string; onChange: () => void }) {
  const action = useAction();
  const [watching, setWatching] = useState(false);
  if (watching) return <span class="tag ok">{t("table.watching")}</span>;
  return (
    <>
      <button type="button" disabled={action.busy} onClick={() => action.run(async () => {
        await api.spectate(table.table_id, invite);
        setWatching(true);
        onChange();
      })}>{t("table.watch")}</button>
      <ErrorNote error={action.error} />
    </>
  );
}

function InviteNote({ table }: { table: Table }) {
  const link = useMemo(() => `${location.origin}${location.pathname}${href({ name: "table", id: table.table_id, invite: table.invite! })}`,
    [table.table_id, table.invite]);
  return <p>{t("table.invite")} <code>{link}</code></p>;
}
