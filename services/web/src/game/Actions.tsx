// My legal actions as controls: one button per action, or a list to choose from when a kind has many.
// An action with an empty field (the engine leaves a value to the player) becomes a small form.
import { useState } from "preact/hooks";
import type { Command } from "../api/types";
import { t, tx } from "../i18n";
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
          {list.some(hasBlank)
            ? list.map((command, i) => <BlankForm key={i} command={command} names={names} busy={busy} onSend={onSend} />)
            : list.length <= BUTTONS_PER_KIND
              ? list.map((command, i) => (
                  <button type="button" key={i} disabled={busy} data-command={JSON.stringify(command)}
                          onClick={() => onSend(command)}>{describeCommand(command, names)}</button>))
              : <Pick type={type} list={list} names={names} busy={busy} onSend={onSend} />}
        </div>
      ))}
    </div>
  );
}

const hasBlank = (command: Command) => Object.values(command).some((value) => value === null);

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

function BlankForm({ command, names, busy, onSend }:
  { command: Command; names: Record<string, string>; busy: boolean; onSend: (c: Command) => void }) {
  const blanks = Object.keys(command).filter((key) => command[key] === null);
  const [values, setValues] = useState<Record<string, string>>({});
  const send = (e: Event) => {
    e.preventDefault();
    const filled: Command = { ...command };
    for (const key of blanks) {
      const raw = values[key] ?? "";
      if (raw !== "") filled[key] = Number.isFinite(Number(raw)) ? Number(raw) : raw;
    }
    onSend(filled);
  };
  return (
    <form class="row" onSubmit={send} aria-label={describeCommand(command, names)}>
      <strong>{commandTitle(command.type)}</strong>
      {blanks.map((key) => (
        <label key={key}>{tx(`field.${key}`, key)}
          <input value={values[key] ?? ""} onInput={(e) => setValues({ ...values, [key]: e.currentTarget.value })} />
        </label>
      ))}
      <button type="submit" disabled={busy}>{t("game.send")}</button>
    </form>
  );
}
