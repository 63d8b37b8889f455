// What a game's board module gives the generic table. A board is optional: without one, the generic
// table (the view shown readably, the legal actions as buttons, the log) plays any game.
import type { ComponentType } from "preact";
import type { Command, GameEvent, GameView } from "../api/types";
import type { Realtime } from "../game/useRealtime";

export interface BoardProps {
  game: string;
  gameId: string;
  view: GameView;
  /** My legal actions now (empty when it is not my turn, I am a spectator, or a past position is shown). */
  actions: Command[];
  /** Send a command for my seat; resolves when the lobby accepted it (refusals are shown by the table). */
  submit: (command: Command) => Promise<void>;
  /** Player id → display name. */
  names: Record<string, string>;
  me: string | null;
  /** True while the review slider shows a past position. */
  reviewing: boolean;
  /** The game's events so far (the log), for what a view does not keep (e.g. the last dividends). */
  events: GameEvent[];
  /** The game's real-time service socket (Trucker's building), when the table has one and is playing. */
  realtime?: Realtime | null;
}

export interface BoardModule {
  /** The board itself, drawn above the generic panels. */
  Board: ComponentType<BoardProps>;
  /** One log line for an event in words, or null to let the generic table describe it. */
  describe?: (event: GameEvent, names: Record<string, string>) => string | null;
  /** Action types the board offers its own controls for: the generic action list leaves them out. */
  handles?: string[];
}
