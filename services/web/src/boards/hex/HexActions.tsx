// What I may do at the hex I picked on a map: each legal action there as a button, in the board's words.
import { useState } from "preact/hooks";
import type { Command } from "../../api/types";
import { t } from "../../i18n";
import { ErrorNote } from "../../ui/ErrorNote";

export function HexActions({ title, options, describe, submit, onClose }: {
  title: string; options: Command[]; describe: (command: Command) => string;
  submit: (command: Command) => Promise<void>; onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const send = (command: Command) => {
    setBusy(true);
    submit(command).then(() => { setError(null); onClose(); }, setError).finally(() => setBusy(false));
  };
  return (
    <div class="hex-actions" role="group" aria-labelledby="hex-actions-title">
      <h4 id="hex-actions-title">{title}</h4>
      <div class="row">
        {options.map((command, i) => (
          <button type="button" key={i} disabled={busy} data-map-command={JSON.stringify(command)}
                  onClick={() => send(command)}>{describe(command)}</button>
        ))}
        <button type="button" class="secondary" onClick={onClose}>{t("common.cancel")}</button>
      </div>
      <ErrorNote error={error} />
    </div>
  );
}
