// The typed lobby API the web client uses for every HTTP call (other client writers may reuse it).
// Calls go out as the signed-in player (auth.ts renews the token); accounts themselves are in auth.ts.
import { authed } from "./auth";
import { call } from "./http";
import type {
  ChatMessage, Command, CommandResult, Engine, History, Leaderboard, LogPage, Table, TablePage,
  TableStatus, ViewReply,
} from "./types";

export { ApiError } from "./http";

export interface TableQuery { game?: string; status?: TableStatus; free_seats?: number; offset?: number; limit?: number }

const table = (table_id: string) => ({ path: { table_id } });
const game = (game_id: string) => ({ path: { game_id } });

export const api = {
  engines: () => call<Engine[]>("engines"),
  engineData: <T>(gameName: string, name: string) => call<T>("engineData", { path: { game: gameName, name } }),
  openapi: () => call<{ paths?: Record<string, Record<string, { parameters?: { name: string }[] }>> }>("openapi"),

  listTables: (query: TableQuery = {}) => authed<TablePage>("listTables", { query: { ...query } }),
  /** The tables I sit at, most urgent first; `to_act: true` only those where I owe a decision. */
  myTables: (query: { status?: TableStatus; to_act?: boolean; offset?: number; limit?: number } = {}) =>
    authed<TablePage>("myTables", { query: { ...query } }),
  /** Seat me at the best waiting table of this kind, or open one; it starts by itself once full. */
  quickPlay: (body: { game: string; seats: number; rated: boolean }) => authed<Table>("quickPlay", { body }),
  createTable: (body: { game: string; seats: number; options: Record<string, unknown>; private: boolean }) =>
    authed<Table>("createTable", { body }),
  getTable: (id: string, invite?: string) => authed<Table>("getTable", { ...table(id), query: { invite } }),
  join: (id: string, seat?: number, invite?: string) =>
    authed<Table>("join", { ...table(id), body: { seat: seat ?? null, invite: invite ?? null } }),
  leave: (id: string) => authed<Table>("leave", table(id)),
  ready: (id: string, ready: boolean) => authed<Table>("ready", { ...table(id), body: { ready } }),
  start: (id: string) => authed<Table>("start", table(id)),
  spectate: (id: string, invite?: string) => authed<Table>("spectate", { ...table(id), body: { invite: invite ?? null } }),
  chat: (id: string, text: string) => authed<ChatMessage>("chat", { ...table(id), body: { text } }),
  chatLog: (id: string, after = 0, invite?: string) =>
    authed<ChatMessage[]>("chatLog", { ...table(id), query: { after, invite } }),

  view: (id: string, invite?: string, at?: number) => authed<ViewReply>("view", { ...game(id), query: { invite, at } }),
  actions: (id: string) => authed<Command[]>("actions", game(id)),
  submit: (id: string, command: Command, commandId: string) =>
    authed<CommandResult>("submit", { ...game(id), body: { command, command_id: commandId } }),
  /** Give my seat up: a bot plays it from now on (with two players, the other wins). */
  resign: (id: string) => authed<Table>("resign", game(id)),
  /** Take over a seat its player gave up; I play it from now on. */
  takeSeat: (id: string, seat: number, invite?: string) =>
    authed<Table>("takeSeat", { path: { game_id: id, seat: String(seat) }, body: { invite: invite ?? null } }),
  /** Take back my last `count` moves (a rated game asks the others first). */
  undo: (id: string, count: number) => authed<CommandResult>("undo", { ...game(id), body: { count } }),
  agreeUndo: (id: string) => authed<CommandResult>("agreeUndo", game(id)),
  refuseUndo: (id: string) => authed<CommandResult>("refuseUndo", game(id)),
  /** Pausing a timed game's clock by agreement (docs/clock.md); any person seated resumes it. */
  pauseAsk: (id: string) => authed<CommandResult>("pauseAsk", game(id)),
  pauseAgree: (id: string) => authed<CommandResult>("pauseAgree", game(id)),
  pauseRefuse: (id: string) => authed<CommandResult>("pauseRefuse", game(id)),
  resumeClock: (id: string) => authed<CommandResult>("resumeClock", game(id)),
  log: (id: string, after = 0, invite?: string, limit = 1000) =>
    authed<LogPage>("log", { ...game(id), query: { after, invite, limit } }),

  report: (reason: string, about: { playerId?: string; messageId?: number }) =>
    authed<{ id: number }>("report", { body: { reason, player_id: about.playerId ?? null, message_id: about.messageId ?? null } }),
  mute: (playerId: string, minutes: number, reason: string) =>
    authed<{ player_id: string }>("modMute", { path: { player_id: playerId }, body: { minutes, reason } }),
  ban: (playerId: string, reason: string) =>
    authed<{ player_id: string }>("modBan", { path: { player_id: playerId }, body: { reason } }),
  hideMessage: (messageId: number, reason: string) =>
    authed<void>("modHide", { path: { message_id: String(messageId) }, body: { reason } }),

  history: (playerId: string, offset = 0, limit = 100) =>
    call<History>("history", { path: { player_id: playerId }, query: { offset, limit } }),
  boards: () => call<string[]>("boards"),
  leaderboard: (board: string, offset = 0, limit = 50) =>
    call<Leaderboard>("leaderboard", { path: { board }, query: { offset, limit } }),
};

/** Whether the lobby answers `GET /games/{id}/view?at=SEQ` (past positions): read from its OpenAPI document. */
let pastViews: Promise<boolean> | null = null;
export function lobbyServesPastViews(): Promise<boolean> {
  pastViews ??= api.openapi().then(
    (doc) => (doc.paths?.["/games/{game_id}/view"]?.get?.parameters ?? []).some((p) => p.name === "at"),
    () => false,
  );
  return pastViews;
}
