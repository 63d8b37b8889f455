// Moves sent on a lobby game socket, waiting for their answers (`ack` or `error` by id). A move the socket
// could not take goes by POST; a move whose socket drops before its answer is sent again by POST with the
// same id, which the lobby applies once (the id is the command id). Pure: useGame gives it the socket and
// the POST, and the error to make of a refusal.
import type { ServerMessage } from "../api/protocol";
import type { Command, CommandResult } from "../api/types";

interface Waiting { command: Command; resolve: (result: CommandResult) => void; reject: (error: unknown) => void }

export type Refusal = (status: number, code: string, message: string, retryAfter: number | null) => unknown;

export class MovesInFlight {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly post: (command: Command, id: string) => Promise<CommandResult>,
              private readonly refusal: Refusal) {}

  /** Send on the socket (`onSocket` false: it is not open), else by POST; resolves with the events stored. */
  send(command: Command, id: string, onSocket: ((id: string, command: Command) => boolean) | null): Promise<CommandResult> {
    return new Promise<CommandResult>((resolve, reject) => {
      this.waiting.set(id, { command, resolve, reject });
      if (onSocket?.(id, command)) return;
      this.waiting.delete(id);
      this.post(command, id).then(resolve, reject);
    });
  }

  /** A message from the socket: true when it answered one of these moves (it is then settled). */
  answered(message: ServerMessage): boolean {
    if ((message.kind !== "ack" && message.kind !== "error") || message.id === null) return false;
    const move = this.waiting.get(message.id);
    if (!move) return false;
    this.waiting.delete(message.id);
    if (message.kind === "ack") move.resolve({ command_id: message.id, events: message.events });
    else move.reject(this.refusal(message.status ?? 409, message.error.code, message.error.message,
                                  message.retryAfter ?? null));
    return true;
  }

  /** The socket dropped (or the page left): every move still waiting goes again by POST, same id. */
  lost(): void {
    const waiting = [...this.waiting.entries()];
    this.waiting.clear();
    for (const [id, move] of waiting) this.post(move.command, id).then(move.resolve, move.reject);
  }
}
