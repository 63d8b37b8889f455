// A new table: the game, the seats (the engine's player range), public or private, and the game's
// options as the engine declares them (GET /engines). An option left empty is not sent (its default).
import { useState } from "preact/hooks";
import { api } from "../api/client";
import type { Engine, EngineOption } from "../api/types";
import { t, tx } from "../i18n";
import { go } from "../router";
import { ErrorNote } from "../ui/ErrorNote";
import { gameName, useEngines } from "../ui/engines";
import { useAction, useSession } from "../ui/hooks";
import { SignIn } from "./Account";

type Values = Record<string, string | boolean>;

export function CreateTableScreen() {
  const me = useSession();
  const engines = useEngines();
  const [game, setGame] = useState("");
  const engine = engines.data?.find((e) => e.name === game) ?? engines.data?.[0];
  if (!me) return <SignIn />;
  return (
    <section class="panel" aria-labelledby="create-title">
      <h2 id="create-title">{t("create.title")}</h2>
      <ErrorNote error={engines.error} />
      {engine && (
        <>
          <label for="create-game">{t("create.game")}</label>
          <select id="create-game" value={engine.name} onChange={(e) => setGame(e.currentTarget.value)}>
            {engines.data!.map((e) => <option value={e.name}>{gameName(e.name)}</option>)}
          </select>
          <TableForm key={engine.name} engine={engine} />
        </>
      )}
    </section>
  );
}

// Keyed by the engine (above): a new game mounts a new form, so its state starts from that engine's
// defaults in the same render. (An effect that reset the seats after the render could overwrite what the
// person typed in between: a browser test on a loaded machine caught a 3-seat table opened with 1.)
function TableForm({ engine }: { engine: Engine }) {
  const [seats, setSeats] = useState(engine.min_players);
  const [isPrivate, setPrivate] = useState(false);
  const [values, setValues] = useState<Values>(() => defaults(engine.options));
  const [problem, setProblem] = useState<string | null>(null);
  const creating = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    const options = collect(engine.options, values);
    if (typeof options === "string") return setProblem(options);
    setProblem(null);
    void creating.run(async () => {
      const table = await api.createTable({ game: engine.name, seats, options, private: isPrivate });
      go({ name: "table", id: table.table_id });
    });
  };

  return (
    <form class="create" onSubmit={submit}>
      <label for="create-seats">{t("create.seats", { min: engine.min_players, max: engine.max_players })}</label>
      <input id="create-seats" type="number" required min={engine.min_players} max={engine.max_players} value={seats}
             onInput={(e) => setSeats(Number(e.currentTarget.value))} />
      <label class="check"><input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.currentTarget.checked)} />
        {t("create.private")}</label>
      {engine.options.length > 0 && (
        <fieldset>
          <legend>{t("create.options")}</legend>
          {engine.options.map((option) => (
            <OptionField key={option.name} game={engine.name} option={option} value={values[option.name]}
                         onChange={(value) => setValues({ ...values, [option.name]: value })} />
          ))}
        </fieldset>
      )}
      {problem && <p class="error" role="alert">{problem}</p>}
      <ErrorNote error={creating.error} />
      <button type="submit" disabled={creating.busy}>{t("create.submit")}</button>
    </form>
  );
}

const optionLabel = (game: string, option: EngineOption) =>
  tx(`option.${game}.${option.name}`, tx(`option.${option.name}`, option.description ?? option.name));

function OptionField({ game, option, value, onChange }:
  { game: string; option: EngineOption; value: string | boolean | undefined; onChange: (v: string | boolean) => void }) {
  const id = `option-${option.name}`;
  const label = optionLabel(game, option);
  if (option.type === "boolean") {
    return <label class="check"><input id={id} type="checkbox" checked={value === true}
                                       onChange={(e) => onChange(e.currentTarget.checked)} />{label}</label>;
  }
  if (option.choices) {
    return (
      <>
        <label for={id}>{label}</label>
        <select id={id} value={String(value ?? "")} onChange={(e) => onChange(e.currentTarget.value)}>
          <option value="">{t("create.default")}</option>
          {option.choices.map((choice) => <option value={JSON.stringify(choice)}>{String(choice)}</option>)}
        </select>
      </>
    );
  }
  const numeric = option.type === "integer" || option.type === "number";
  return (
    <>
      <label for={id}>{label}</label>
      <input id={id} type={numeric ? "number" : "text"} step={option.type === "integer" ? 1 : "any"}
             min={option.minimum ?? undefined} max={option.maximum ?? undefined}
             placeholder={option.default === null || option.default === undefined ? t("create.default") : String(option.default)}
             value={String(value ?? "")} onInput={(e) => onChange(e.currentTarget.value)} />
    </>
  );
}

function defaults(options: EngineOption[]): Values {
  return Object.fromEntries(options.filter((o) => o.type === "boolean").map((o) => [o.name, o.default === true]));
}

/** The options to send, or a sentence saying which one is wrong. */
function collect(options: EngineOption[], values: Values): Record<string, unknown> | string {
  const out: Record<string, unknown> = {};
  for (const option of options) {
    const value = values[option.name];
    if (option.type === "boolean") {
      if (value !== (option.default === true)) out[option.name] = value;
    } else if (option.choices) {
      if (value) out[option.name] = JSON.parse(String(value));
    } else if (value !== undefined && value !== "") {
      if (option.type === "integer" || option.type === "number") {
        const number = Number(value);
        if (!Number.isFinite(number) || (option.type === "integer" && !Number.isInteger(number))) {
          return t("create.badNumber", { option: option.name });
        }
        out[option.name] = number;
      } else {
        out[option.name] = value;
      }
    }
  }
  return out;
}
