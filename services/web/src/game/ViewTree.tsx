// Any game's view, readably: objects as term/description lists, lists of records as tables, player
// ids as names. The generic table's board for games without a board module of their own.
import type { ComponentChildren } from "preact";
import { tx } from "../i18n";
import { humanize, valueText } from "./words";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const MAX_DEPTH = 6;

const label = (key: string) => (key ? tx(`field.${key}`, humanize(key)) : "");
const isRecord = (item: Json) => item !== null && typeof item === "object" && !Array.isArray(item);

export function ViewTree({ value, names, depth = 0 }: { value: Json; names: Record<string, string>; depth?: number }): ComponentChildren {
  if (value === null || typeof value !== "object" || depth >= MAX_DEPTH) {
    return <span>{valueText(value, names)}</span>;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return <span class="muted">—</span>;
    if (value.every(isRecord)) {
      return <RecordTable rows={value as { [key: string]: Json }[]} names={names} depth={depth} />;
    }
    if (value.every((item) => item === null || typeof item !== "object")) return <span>{valueText(value, names)}</span>;
    return <ol>{value.map((item, i) => <li key={i}><ViewTree value={item} names={names} depth={depth + 1} /></li>)}</ol>;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return <span class="muted">—</span>;
  if (entries.length >= 2 && entries.every(([, item]) => isRecord(item))) {
    // Records keyed by name (corporations, players): one table, a row each, the name first.
    return <RecordTable rows={entries.map(([key, item]) => ({ "": names[key] ?? key, ...(item as { [k: string]: Json }) }))}
                        names={names} depth={depth} />;
  }
  return (
    <dl class="tree">
      {entries.map(([key, item]) => (
        <div key={key} class="tree-entry">
          <dt>{names[key] ?? label(key)}</dt>
          <dd><ViewTree value={item} names={names} depth={depth + 1} /></dd>
        </div>
      ))}
    </dl>
  );
}

function RecordTable({ rows, names, depth }: { rows: { [key: string]: Json }[]; names: Record<string, string>; depth: number }) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return (
    <div class="scroll-x">
      <table>
        <thead><tr>{columns.map((c) => <th scope="col" key={c}>{label(c)}</th>)}</tr></thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>{columns.map((c) => <td key={c}><ViewTree value={row[c] ?? null} names={names} depth={depth + 1} /></td>)}</tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
