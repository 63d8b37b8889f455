// My legal actions as controls: one button per action, or a list to choose from when a kind has many.
import { useState } from "preact/hooks";
import type { Command } from "../api/types";
import { t } from "../i18n";
import { commandTitle, describeCommand } from "./words";

const BUTTONS_PER_KIND = 6;

export function Actions({ actions, names, busy, onSend, hidden = [] }:
  { actions: Command[]; names: Record<string, string>; busy: boolean; onSend: (c: Command) => void; hidden?: string[] }) {
  const kinds = new Map<string, Command[]>();
  for (const action of actions) {
    if (hidden.includes(action.type)) continue;
    kinds.set(action.type, [...(kinds.get(action.type) ?? []), action]);
  }
  if (kinds.size === 0) return null;
  return (
    <div class="actions" role="group" aria-label={t("game.actions")}>
      {[...kinds].map(([type, list]) => (
        <div class="action-kind" key={type}>
          {list.length <= BUTTONS_PER_KIND
              ? list.map((command, i) => (
                  <button type="button" key={i} disabled={busy} data-command={JSON.stringify(command)}
                          onClick={() => onSend(command)}>{describeCommand(command, names)}</button>))
              : <Pick type={type} list={list} names={names} busy={busy} onSend={onSend} />}
        </div>
      ))}
    </div>
  );
}

function Pick({ type, list, names, busy, onSend }:
  { type: string; list: Command[]; names: Record<string, string>; busy: boolean; onSend: (c: Command) => void }) {
  const [index, setIndex] = useState(0);
  const id = `pick-${type}`;
  return (
    <form class="row" onSubmit={(e) => { e.preventDefault(); onSend(list[index]); }}>
      <label for={id}>{commandTitle(type)}</label>
      <select id={id} value={index} onChange={(e) => setIndex(Number(e.currentTarget.value))}>
        {list.map((command, i) => <option value={i} data-command={JSON.stringify(command)}>{describeCommand(command, names)}</option>)}
      </select>
      <button type="submit" disabled={busy}>{t("game.send")}</button>
    </form>
  );
}
