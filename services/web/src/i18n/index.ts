// All text the client shows comes from a message catalogue (en.ts), so a translation is one more
// catalogue. `t` takes a key the catalogue has (checked by TypeScript); `tx` looks up keys built at run
// time (event types, refusal codes) and falls back when the catalogue has none.
import { en } from "./en";

export type MessageKey = keyof typeof en;
type Params = Record<string, string | number | null | undefined>;

const catalogue: Record<string, string> = en;
const locale = document.documentElement.lang || "en";

function fill(template: string, params?: Params): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined || params[name] === null ? whole : String(params[name]));
}

export function t(key: MessageKey, params?: Params): string {
  return fill(catalogue[key], params);
}

/** A key made at run time: its text when the catalogue has it, else `fallback` (itself filled). */
export function tx(key: string, fallback: string, params?: Params): string {
  return fill(catalogue[key] ?? fallback, params);
}

export function has(key: string): boolean {
  return key in catalogue;
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat(locale).format(value);
}

/** The time of day only, for chat lines. */
export function formatClock(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString(locale, { timeStyle: "short" });
}

export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(locale, { dateStyle: "short", timeStyle: "medium" });
}
