// The wire format the client reads, as the lobby's OpenAPI document describes it (fields the client
// uses only; the contract test checks each against the document).

export interface Seat {
  seat: number; player_id: string | null; name: string | null; ready: boolean;
  /** Given up by its player: a bot plays it until a substitute takes it. */
  abandoned?: boolean;
  /** Who took the seat over (and their name): they play it now. */
  substitute?: string | null;
  substitute_name?: string | null;
}

export type TableStatus = "open" | "playing" | "finished" | "closed";

export interface Table {
  table_id: string;
  game: string;
  options: Record<string, unknown>;
  seats: Seat[];
  free_seats: number;
  private: boolean;
  invite: string | null;
  host: string;
  status: TableStatus;
  game_id: string | null;
  spectators: number;
  standings: Standing[];
  seq: number;
  realtime_url: string | null;
  quickplay?: boolean;
  /** A running game with time controls: each seat's clock (docs/clock.md); null or absent: untimed. */
  clock?: ClockState | null;
}

/** One seat's clock: its time bank left (as of when it was read), and what it owes since when, until when. */
export interface SeatClock { bank_seconds: number | null; owes_since: string | null; due_at: string | null }

/** A game's clock as views and `GET /tables/{id}` carry it: the time controls and each seat's clock.
 *  `paused_at`, when present and set: the clock stopped counting then (a pause by agreement). */
export interface ClockState {
  control: { decision_seconds?: number | null; bank_seconds?: number | null; increment_seconds?: number | null;
             timeout_policy?: string | null } | null;
  seq: number;
  seats: Record<string, SeatClock>;
  paused?: boolean;
  paused_at?: string | null;
  /** A pause asked for and not yet agreed by all: the seat asking, and the seats still to answer. */
  requested_by?: string | null;
  awaiting?: string[];
}

export interface Standing { player: string; rank: number; score?: number | null; [key: string]: unknown }

export interface TablePage { items: Table[]; total: number; offset: number; limit: number }

export interface GameEvent {
  stream: string;
  seq: number;
  type: string;
  data: Record<string, unknown> | null;
  actor: string | null;
  time: string;
  platform?: boolean;
}

export interface LogPage { game_id: string; events: GameEvent[]; last_seq: number }

export interface Command { type: string; [field: string]: unknown }

export interface CommandResult { command_id: string; events: GameEvent[] }

/** A chat message: `id` increases (read on with ?after=, report or hide it); chat is outside the stream. */
export interface ChatMessage { id: number; table_id: string; player_id: string; name: string | null; text: string; time: string }

export interface EngineOption {
  name: string;
  type: string;
  default: unknown;
  minimum: number | null;
  maximum: number | null;
  choices: unknown[] | null;
  description: string | null;
  platform: boolean;
}

export interface Engine { name: string; title?: string | null; min_players: number; max_players: number; options: EngineOption[]; data: string[] }

export interface Rating { mu: number; sigma: number; ordinal?: number; [key: string]: unknown }

export interface HistoryEntry {
  game_id: string;
  game: string;
  rank: number;
  score: number | null;
  players: number;
  time: string;
  rating_before?: Rating;
  rating_after?: Rating;
}

export interface History { player_id: string; name: string | null; games: HistoryEntry[] }

export interface LeaderboardEntry {
  rank: number; player_id: string; name: string | null; ordinal: number; mu: number; sigma: number; games: number;
}

export interface Leaderboard { board: string; entries: LeaderboardEntry[] }

export type Role = "player" | "moderator" | "admin";

export interface Player { player_id: string; name: string; role: Role; guest: boolean }

/** POST /players, /players/guest, /sessions, /sessions/refresh …: who you are and your token pair. */
export interface SessionReply extends Player { access_token: string; refresh_token: string; expires_in: number }

/** POST /tickets: offer `protocols` as the socket's subprotocols. */
export interface Ticket { ticket: string; expires_in: number; protocols: string[] }

/** A game's view: each engine shapes its own; `to_act` is read when an engine provides it. */
export type GameView = Record<string, unknown> & { to_act?: string[] };

/** GET /games/{id}/view: the engine's view for the caller, and the position it was taken at. */
export interface ViewReply {
  game_id: string;
  game: string;
  seq: number;
  players: string[];
  ended: string | null;
  view: GameView;
  /** The game's clock now (docs/clock.md): each seat's bank and due time; null when untimed or over. */
  clock?: ClockState | null;
}
