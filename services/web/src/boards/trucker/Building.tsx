// Building, for the player: the shared warehouse (the face-down tiles to grab from, the face-up ones),
// the component in hand with its rotation, the reserve, the adventure piles, the hourglass and
// finishing with an order tile. Every button is one of my legal actions; the ship grid takes the rest.
import { useEffect, useState } from "preact/hooks";
import type { Command } from "../../api/types";
import { t } from "../../i18n";
import type { TruckerData } from "./data";
import { TileShape, tileWords } from "./Tile";
import type { TruckerView } from "./view";

const SMALL = 44;

export function Warehouse({ data, view, actions, send }: { data: TruckerData; view: TruckerView; actions: Command[]; send: (c: Command) => void }) {
  const grab = actions.find((a) => a.type === "GrabFaceDown");
  const faceUp = new Set(actions.filter((a) => a.type === "GrabFaceUp").map((a) => String(a.component)));
  return (
    <section class="panel warehouse" aria-labelledby="trucker-warehouse-title" data-face-down={view.face_down_count}>
      <h3 id="trucker-warehouse-title">{t("trucker.warehouse")}</h3>
      <div class="row">
        <button type="button" disabled={!grab} onClick={() => grab && send(grab)}>
          {t("trucker.grabFaceDown", { count: view.face_down_count })}
        </button>
      </div>
      <div class={grab ? "face-down can-grab" : "face-down"} aria-hidden="true" onClick={() => grab && send(grab)}>
        {Array.from({ length: view.face_down_count }, (_, i) => <span key={i} class="back" />)}
      </div>
      <h4>{t("trucker.faceUp", { count: view.face_up.length })}</h4>
      {view.face_up.length === 0 && <p class="muted">{t("trucker.noneFaceUp")}</p>}
      <ul class="tiles plain">
        {view.face_up.map((id) => {
          const fact = data.components[id];
          const words = fact ? tileWords(fact, 0) : id;
          return (
            <li key={id}>
              <button type="button" class="tile-button secondary" disabled={!faceUp.has(id)} data-component={id}
                      aria-label={t("trucker.grabThis", { tile: words })} title={words}
                      onClick={() => send({ type: "GrabFaceUp", component: id })}>
                <svg viewBox={`0 0 ${SMALL} ${SMALL}`} width={SMALL} height={SMALL} aria-hidden="true">
                  {fact && <TileShape fact={fact} x={0} y={0} size={SMALL} rotation={0} />}
                </svg>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The component in hand (or the newest placed, which may still be moved or turned) and what to do with it. */
export function Hand({ data, view, me, actions, rotation, setRotation, send }: {
  data: TruckerData; view: TruckerView; me: string; actions: Command[]; rotation: number;
  setRotation: (r: number) => void; send: (c: Command) => void;
}) {
  const player = view.players[me];
  const hand = player?.hand ?? null;
  const newest = player?.ship?.newest ? player.ship.tiles.find((tile) => tile.square.join(",") === player.ship!.newest!.join(",")) : undefined;
  useEffect(() => setRotation(newest && !hand ? newest.rotation : 0), [hand, newest?.component]);
  const simple = (type: string) => actions.find((a) => a.type === type);
  const reserve = simple("ReserveComponent"), giveBack = simple("ReturnComponent");
  const held = hand ?? (actions.some((a) => a.type === "MoveNewest") ? newest?.component ?? null : null);
  const fact = held ? data.components[held] : undefined;
  const placing = actions.filter((a) => a.type === (hand ? "PlaceComponent" : "MoveNewest") && a.rotation === rotation).length;
  return (
    <section class="panel hand" aria-labelledby="trucker-hand-title" data-hand={hand ?? ""} data-rotation={rotation}>
      <h3 id="trucker-hand-title">{hand ? t("trucker.inHand") : t("trucker.noHand")}</h3>
      {fact && (
        <div class="row">
          <svg viewBox="0 0 64 64" width={64} height={64} role="img" aria-label={tileWords(fact, rotation)}>
            <TileShape fact={fact} x={0} y={0} size={64} rotation={rotation} />
          </svg>
          <button type="button" class="secondary" onClick={() => setRotation((rotation + 3) % 4)}>{t("trucker.rotateLeft")}</button>
          <button type="button" class="secondary" onClick={() => setRotation((rotation + 1) % 4)}>{t("trucker.rotateRight")}</button>
        </div>
      )}
      {fact && <p class="hint">{placing > 0 ? t(hand ? "trucker.placeHint" : "trucker.moveHint", { count: placing })
                                              : t("trucker.noPlaceAtRotation")}</p>}
      <div class="row">
        {reserve && <button type="button" class="secondary" onClick={() => send(reserve)}>{t("trucker.reserve")}</button>}
        {giveBack && <button type="button" class="secondary" onClick={() => send(giveBack)}>{t("trucker.return")}</button>}
      </div>
      <Reserve data={data} view={view} me={me} actions={actions} send={send} />
    </section>
  );
}

function Reserve({ data, view, me, actions, send }: { data: TruckerData; view: TruckerView; me: string; actions: Command[]; send: (c: Command) => void }) {
  const kept = view.players[me]?.ship?.reserve ?? [];
  if (kept.length === 0) return null;
  const takable = new Set(actions.filter((a) => a.type === "TakeReserved").map((a) => String(a.component)));
  return (
    <div>
      <h4>{t("trucker.reserved")}</h4>
      <ul class="tiles plain">{kept.map((id) => {
        const fact = data.components[id];
        return (
          <li key={id}>
            <button type="button" class="tile-button secondary" disabled={!takable.has(id)} data-component={id}
                    aria-label={t("trucker.takeReserved", { tile: fact ? tileWords(fact, 0) : id })}
                    onClick={() => send({ type: "TakeReserved", component: id })}>
              <svg viewBox={`0 0 ${SMALL} ${SMALL}`} width={SMALL} height={SMALL} aria-hidden="true">
                {fact && <TileShape fact={fact} x={0} y={0} size={SMALL} rotation={0} />}
              </svg>
            </button>
          </li>
        );
      })}</ul>
    </div>
  );
}

/** The hourglass (its space and the sand left, counted down), the adventure piles and finishing. */
export function Hourglass({ view, actions, send }: { view: TruckerView; actions: Command[]; send: (c: Command) => void }) {
  const left = useSecondsLeft(view.timer.runs_out_at);
  const turn = actions.find((a) => a.type === "TurnTimer");
  const piles = actions.filter((a) => a.type === "LookAtPile");
  const putBack = actions.find((a) => a.type === "PutBackPile");
  const finishes = actions.filter((a) => a.type === "Finish");
  return (
    <section class="panel hourglass" aria-labelledby="trucker-timer-title">
      <h3 id="trucker-timer-title">{t("trucker.hourglass")}</h3>
      <p role="timer" aria-live="off">{left === null ? t("trucker.sandNotRunning")
        : left > 0 ? t("trucker.sandLeft", { space: view.timer.space, seconds: left }) : t("trucker.sandOut", { space: view.timer.space })}</p>
      <div class="row">
        {turn && <button type="button" class="secondary" onClick={() => send(turn)}>{t("trucker.turnTimer")}</button>}
        {piles.map((a) => <button key={String(a.pile)} type="button" class="secondary" onClick={() => send(a)}>{t("trucker.lookAtPile", { pile: String(a.pile) })}</button>)}
        {putBack && <button type="button" class="secondary" onClick={() => send(putBack)}>{t("trucker.putBackPile")}</button>}
      </div>
      {view.pile && <p>{t("trucker.pileCards", { cards: view.pile.join(", ") })}</p>}
      {finishes.length > 0 && <h4>{t("trucker.finishTitle")}</h4>}
      <div class="row">
        {finishes.map((a) => (
          <button key={String(a.order_tile)} type="button" onClick={() => send(a)}>
            {a.order_tile ? t("trucker.finishWith", { tile: String(a.order_tile) }) : t("trucker.finish")}
          </button>
        ))}
      </div>
    </section>
  );
}

function useSecondsLeft(until: number | null): number | null {
  const [now, setNow] = useState(() => Date.now() / 1000);
  useEffect(() => {
    if (until === null) return;
    const timer = window.setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  return until === null ? null : Math.max(0, Math.ceil(until - now));
}
