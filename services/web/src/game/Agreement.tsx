// A request the other people seated answer (taking a move back, pausing the clock): the asker waits,
// each person asked agrees or refuses, and with nothing asked the seat may ask when `mayAsk` says so.
// Drawn from what the lobby pushes (the undo request's events, the clock's `requested_by`/`awaiting`).
import type { MessageKey } from "../i18n";
import { t } from "../i18n";
import { ErrorNote } from "../ui/ErrorNote";
import { useAction } from "../ui/hooks";

export interface Request { by: string; awaiting: string[] }

export interface AgreementWords { title: MessageKey; ask: MessageKey; asked: MessageKey; agree: MessageKey;
  refuse: MessageKey; waiting: MessageKey }

export interface AgreementCalls { ask: () => Promise<unknown>; agree: () => Promise<unknown>;
  refuse: () => Promise<unknown> }

export function Agreement({ kind, request, seat, names, mayAsk, words, calls }:
  { kind: string; request: Request | null; seat: string; names: Record<string, string>; mayAsk: boolean;
    words: AgreementWords; calls: AgreementCalls }) {
  const action = useAction();
  const run = (call: () => Promise<unknown>) => () => action.run(call);
  let body;
  if (request && request.awaiting.includes(seat)) {
    body = (
      <>
        <p>{t(words.asked, { who: names[request.by] ?? request.by })}</p>
        <div class="row">
          <button type="button" disabled={action.busy} onClick={run(calls.agree)}>{t(words.agree)}</button>
          <button type="button" class="secondary" disabled={action.busy} onClick={run(calls.refuse)}>
            {t(words.refuse)}</button>
        </div>
      </>
    );
  } else if (request && request.by === seat) {
    body = <p class="muted">{t(words.waiting)}</p>;
  } else if (!request && mayAsk) {
    body = <button type="button" class="secondary" disabled={action.busy} onClick={run(calls.ask)}>
      {t(words.ask)}</button>;
  } else {
    return null;                                    // another's request I have answered, or nothing to ask
  }
  return (
    <div class={kind} role="group" aria-label={t(words.title)}>
      {body}
      <ErrorNote error={action.error} />
    </div>
  );
}
