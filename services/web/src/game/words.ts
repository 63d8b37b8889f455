// Commands, events and values in words, for the generic table (a board module may say more).
import type { Command, GameEvent } from "../api/types";
import { formatNumber, t, tx } from "../i18n";

/** "BuyShare" → "Buy share": the fallback when the catalogue has no words for a type. */
export function humanize(type: string): string {
  const spaced = type.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}

export function valueText(value: unknown, names: Record<string, string>): string {
  if (value === null || value === undefined) return t("common.none");
  if (typeof value === "string") {
    const holder = /^[a-z]:(.+)$/.exec(value);        // "p:<player id>": a player as a holder of money or shares
    return names[value] ?? (holder && names[holder[1]]) ?? value;
  }
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "boolean") return value ? t("common.yes") : t("common.no");
  if (Array.isArray(value)) return value.map((v) => valueText(v, names)).join(", ");
  return Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k} ${valueText(v, names)}`).join("; ");
}

function details(fields: Record<string, unknown>, names: Record<string, string>): string {
  return Object.entries(fields).filter(([key]) => key !== "type" && key !== "v")
    .map(([key, value]) => `${tx(`field.${key}`, key)}: ${valueText(value, names)}`).join(", ");
}

export function commandTitle(type: string): string {
  return tx(`command.${type}`, humanize(type));
}

export function describeCommand(command: Command, names: Record<string, string>): string {
  const more = details(command, names);
  return more ? t("common.titleDetails", { title: commandTitle(command.type), details: more }) : commandTitle(command.type);
}

export function describeEvent(event: GameEvent, names: Record<string, string>): string {
  const who = event.actor ? names[event.actor] ?? event.actor : null;
  const title = tx(`event.${event.type}`, humanize(event.type));
  const more = event.data ? details(event.data, names) : "";
  const text = more ? t("common.titleDetails", { title, details: more }) : title;
  return who ? t("log.byActor", { who, text }) : text;
}
