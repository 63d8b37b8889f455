// A table's chat: read from GET /tables/{id}/chat, then extended by the table socket's `chat` pushes
// (and read on from the last id after a reconnect). Each message can be reported; a moderator can hide
// it, or mute or ban its author (moderation is the lobby's; this only asks).
import { useEffect, useRef, useState } from "preact/hooks";
import type { Session } from "../api/auth";
import { api } from "../api/client";
import type { ChatMessage } from "../api/types";
import { formatClock, formatTime, t } from "../i18n";
import { ErrorNote } from "../ui/ErrorNote";
import { useAction } from "../ui/hooks";

export type ChatSink = Set<(message: ChatMessage) => void>;
const PAGE = 100;

export function Chat({ tableId, invite, pushes, live, me, names }:
  { tableId: string; invite?: string; pushes: ChatSink; live: boolean; me: Session | null; names: Record<string, string> }) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [text, setText] = useState("");
  const [error, setError] = useState<unknown>(null);
  const last = useRef(0);
  const posting = useAction();

  const add = (fresh: ChatMessage[]) => {
    const news = fresh.filter((m) => m.id > last.current);
    if (news.length === 0) return;
    last.current = news[news.length - 1].id;
    setMessages((old) => [...old, ...news]);
  };
  useEffect(() => { last.current = 0; setMessages([]); }, [tableId]);
  useEffect(() => {
    const pushed = (message: ChatMessage) => add([message]);
    pushes.add(pushed);
    return () => { pushes.delete(pushed); };
  }, [pushes]);
  // Read on from the last message seen: at first, and after every (re)connection of the table socket.
  useEffect(() => {
    if (!live) return;
    let gone = false;
    (async () => {
      for (let page = 0; page < 20 && !gone; page++) {
        const fresh = await api.chatLog(tableId, last.current, invite);
        add(fresh);
        if (fresh.length < PAGE) return;
      }
    })().catch(setError);
    return () => { gone = true; };
  }, [tableId, invite, live]);

  const hidden = (id: number) => setMessages((old) => old.filter((m) => m.id !== id));
  return (
    <section class="panel chat" aria-labelledby="chat-title">
      <h2 id="chat-title">{t("chat.title")}</h2>
      <ErrorNote error={error} />
      <ol class="messages" aria-live="polite">
        {messages.map((m) => (
          <li key={m.id} data-message={m.id}>
            <time dateTime={m.time} title={formatTime(m.time)}>{formatClock(m.time)}</time>{" "}
            <strong>{m.name ?? names[m.player_id] ?? m.player_id}</strong>: {m.text}
            {me && me.playerId !== m.player_id && <MessageMenu message={m} me={me} onHidden={() => hidden(m.id)} />}
          </li>
        ))}
        {messages.length === 0 && <li class="muted">{t("chat.empty")}</li>}
      </ol>
      {me && (
        <form class="row" onSubmit={(e) => {
          e.preventDefault();
          const sending = text.trim();
          if (!sending) return;
          void posting.run(async () => { add([await api.chat(tableId, sending)]); setText(""); });
        }}>
          <label class="visually-hidden" for="chat-text">{t("chat.message")}</label>
          <input id="chat-text" maxLength={500} value={text} placeholder={t("chat.placeholder")}
                 onInput={(e) => setText(e.currentTarget.value)} />
          <button type="submit" disabled={posting.busy}>{t("chat.send")}</button>
        </form>
      )}
      <ErrorNote error={posting.error} />
    </section>
  );
}

/** Report the message or its author; a moderator (or admin) may also hide it, mute or ban the author. */
function MessageMenu({ message, me, onHidden }: { message: ChatMessage; me: Session; onHidden: () => void }) {
  const [reason, setReason] = useState("");
  const [minutes, setMinutes] = useState("60");
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const moderator = me.role === "moderator" || me.role === "admin";
  const run = (work: () => Promise<unknown>, said: string) => action.run(async () => { await work(); setDone(said); });
  const id = `why-${message.id}`;
  return (
    <details class="message-menu">
      <summary aria-label={t("moderation.menu")}>⋯</summary>
      <div class="menu">
        <label for={id}>{t("moderation.reason")}</label>
        <input id={id} maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        <div class="row">
          <button type="button" disabled={action.busy || !reason.trim()}
                  onClick={() => run(() => api.report(reason.trim(), { messageId: message.id }), t("moderation.reported"))}>
            {t("moderation.reportMessage")}</button>
          <button type="button" disabled={action.busy || !reason.trim()}
                  onClick={() => run(() => api.report(reason.trim(), { playerId: message.player_id }), t("moderation.reported"))}>
            {t("moderation.reportPlayer")}</button>
        </div>
        {moderator && (
          <div class="row moderation">
            <button type="button" disabled={action.busy}
                    onClick={() => run(async () => { await api.hideMessage(message.id, reason.trim()); onHidden(); }, t("moderation.done"))}>
              {t("moderation.hide")}</button>
            <label for={`${id}-minutes`}>{t("moderation.minutes")}</label>
            <input id={`${id}-minutes`} type="number" min={1} max={525600} value={minutes} class="short"
                   onInput={(e) => setMinutes(e.currentTarget.value)} />
            <button type="button" disabled={action.busy}
                    onClick={() => run(() => api.mute(message.player_id, Number(minutes) || 60, reason.trim()), t("moderation.done"))}>
              {t("moderation.mute")}</button>
            <button type="button" class="danger" disabled={action.busy}
                    onClick={() => run(() => api.ban(message.player_id, reason.trim()), t("moderation.done"))}>
              {t("moderation.ban")}</button>
          </div>
        )}
        {done && <p role="status">{done}</p>}
        <ErrorNote error={action.error} />
      </div>
    </details>
  );
}
