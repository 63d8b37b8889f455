// A table's chat: read from GET /tables/{id}/chat, refreshed when the table's socket pushes.
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api/client";
import type { ChatMessage } from "../api/types";
import { formatClock, formatTime, t } from "../i18n";
import { ErrorNote } from "../ui/ErrorNote";
import { useAction } from "../ui/hooks";

export function Chat({ tableId, invite, pushedSeq, canPost, names }:
  { tableId: string; invite?: string; pushedSeq: number; canPost: boolean; names: Record<string, string> }) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [text, setText] = useState("");
  const [error, setError] = useState<unknown>(null);
  const last = useRef(0);
  const posting = useAction();

  useEffect(() => { last.current = 0; setMessages([]); }, [tableId]);
  useEffect(() => {
    api.chatLog(tableId, last.current, invite).then((fresh) => {
      const news = fresh.filter((m) => m.seq > last.current);
      if (news.length === 0) return;
      last.current = news[news.length - 1].seq;
      setMessages((old) => [...old, ...news]);
    }, setError);
  }, [tableId, invite, pushedSeq]);

  return (
    <section class="panel chat" aria-labelledby="chat-title">
      <h2 id="chat-title">{t("chat.title")}</h2>
      <ErrorNote error={error} />
      <ol class="messages" aria-live="polite">
        {messages.map((m) => (
          <li key={m.seq}><time dateTime={m.time} title={formatTime(m.time)}>{formatClock(m.time)}</time>{" "}
            <strong>{m.name ?? names[m.player_id] ?? m.player_id}</strong>: {m.text}</li>
        ))}
        {messages.length === 0 && <li class="muted">{t("chat.empty")}</li>}
      </ol>
      {canPost && (
        <form class="row" onSubmit={(e) => {
          e.preventDefault();
          const sending = text.trim();
          if (!sending) return;
          void posting.run(async () => { await api.chat(tableId, sending); setText(""); });
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
