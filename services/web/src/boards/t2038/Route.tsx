// The ship in flight: where it is, what it carries, the route helper's proposals, and the next step of
// the best one (the first of my legal actions while a ship flies, as the engine orders them).
import { useState } from "preact/hooks";
import type { Command } from "../../api/types";
import { t, tx } from "../../i18n";
import { ErrorNote } from "../../ui/ErrorNote";
import type { T2038Data } from "./data";
import type { T2038View } from "./view";
import { describeMapAction } from "./words";

const STEPS = ["Move", "PickUp", "EndRoute"];

export function Route({ data, view, actions, names, submit }: {
  data: T2038Data; view: T2038View; actions: Command[]; names: Record<string, string>; submit: (c: Command) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const flight = view.flight;
  if (!flight) return null;
  const proposals = view.route_proposals ?? [];
  const next = actions.length && STEPS.includes(actions[0].type) && proposals.length ? actions[0] : null;
  const send = (command: Command) => {
    setBusy(true);
    submit(command).then(() => setError(null), setError).finally(() => setBusy(false));
  };
  return (
    <div class="route" aria-labelledby="route-title">
      <h4 id="route-title">{t("t2038.flight", { ship: flight.ship, hex: flight.hex })}</h4>
      <p>{t("t2038.flightState", { movement: flight.movement, start: flight.start_movement, holds: flight.holds })}
        {" "}{flight.cargo.length ? t("t2038.cargo", { cargo: flight.cargo.map(([hex, , value, ore]) =>
          `${tx(`t2038.ore.${ore}`, ore)} ${value} (${hex})`).join(", ") }) : t("t2038.noCargo")}</p>
      {proposals.length > 0 && (
        <ol class="proposals-list">
          {proposals.map((proposal, i) => (
            <li key={i} class={i === 0 ? "best" : ""}>{t("t2038.proposal", {
              path: [flight.hex, ...proposal.path].join(" → "), value: proposal.value,
              pickups: proposal.pickups.map(([hex, mine]) => `${hex}/${mine}`).join(", ") || t("common.none") })}</li>
          ))}
        </ol>
      )}
      {next && (
        <button type="button" data-action="follow" data-command={JSON.stringify(next)} disabled={busy} onClick={() => send(next)}>
          {t("t2038.follow", { step: describeMapAction(data, view, next, names) })}</button>
      )}
      <ErrorNote error={error} />
    </div>
  );
}
