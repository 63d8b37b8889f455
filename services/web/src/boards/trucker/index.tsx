// The Trucker board module. Building is real time: the moves go over the Trucker service's socket (the
// table's realtime link; the adjudicator refuses them), the view and my legal actions come from the
// lobby, which follows the same stream. Drawn: the shared warehouse, my hand with its rotation, my ship
// with the squares where the hand may go, the reserve, the hourglass and finishing, everyone else's
// ship; then the flight board, the card and the players. The flight's decisions that use pieces of my
// ship (cannons, engines, the part to keep, crew, goods, aliens, cargo) are chosen by clicking them on my
// drawn ship (Decision.tsx); repairs, planets, offers, defending and giving up stay in the action list.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Command, GameEvent } from "../../api/types";
import { t, tx } from "../../i18n";
import { ErrorNote } from "../../ui/ErrorNote";
import type { BoardModule, BoardProps } from "../types";
import "./trucker.css";
import { Hand, Hourglass, Warehouse } from "./Building";
import { loadData, type TruckerData } from "./data";
import { cabinColour, FlightBoard, Players } from "./Flight";
import { ShipDecision } from "./Decision";
import { PICKED_ON_SHIP, shipAnswers } from "./picking";
import { ShipSvg, shipLabel } from "./Ship";
import type { TruckerView } from "./view";

const BUILDING_ACTIONS = ["StartBuilding", "GrabFaceDown", "GrabFaceUp", "TakeReserved", "PlaceComponent", "MoveNewest",
  "ReturnComponent", "ReserveComponent", "LookAtPile", "PutBackPile", "TurnTimer", "CallTimeUp", "Finish"];

function TruckerBoard({ view: raw, actions, submit, names, me, reviewing, realtime }: BoardProps) {
  const [data, setData] = useState<TruckerData | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [rotation, setRotation] = useState(0);
  const [sending, setSending] = useState(false);
  useEffect(() => { loadData().then(setData, setError); }, []);
  const view = raw as unknown as TruckerView;
  const building = view.phase === "building";
  const mine = reviewing ? [] : actions;

  const send = (command: Command) => {
    setRefusal(null);
    setSending(true);
    // Building moves go to the real-time service; everything else (repairs, the flight) to the lobby.
    const sent = building && realtime ? realtime.send(command) : submit(command);
    sent.catch(setRefusal).finally(() => setSending(false));
  };
  const targets = useMemo(() => {
    const player = view.players?.[me ?? ""];
    const type = player?.hand ? "PlaceComponent" : "MoveNewest";
    return new Set(mine.filter((a) => a.type === type && a.rotation === rotation).map((a) => (a.square as number[]).join(",")));
  }, [mine, rotation, view]);

  if (error) return <ErrorNote error={error} />;
  if (!data || !view.players) return <p class="panel">{t("common.loading")}</p>;
  const myShip = me ? view.players[me]?.ship : null;
  const pick = (square: [number, number]) => {
    const hand = view.players[me!]?.hand;
    send({ type: hand ? "PlaceComponent" : "MoveNewest", square, rotation });
  };
  const others = Object.keys(view.players).filter((id) => id !== me);
  return (
    <div class="trucker" data-board="trucker" data-phase={view.phase} data-round={view.round}>
      <p class="panel phase">{t("trucker.phaseLine", { round: view.round, phase: tx(`trucker.phase.${view.phase}`, view.phase) })}</p>
      <ErrorNote error={refusal} />
      {building && (
        <div class="build-grid">
          {me && myShip && (
            <section class="panel my-ship" aria-labelledby="trucker-my-ship-title" data-player={me}>
              <h3 id="trucker-my-ship-title">{t("trucker.myShip")}</h3>
              <ShipSvg data={data} ship={myShip} targets={targets} onPick={pick} label={shipLabel(names[me] ?? me, myShip)} />
              <Hand data={data} view={view} me={me} actions={mine} rotation={rotation} setRotation={setRotation} send={send} />
            </section>
          )}
          <div>
            <Warehouse data={data} view={view} actions={mine} send={send} />
            <Hourglass view={view} actions={mine} send={send} />
          </div>
        </div>
      )}
      {!building && me && myShip && shipAnswers(mine).length > 0 && (
        <ShipDecision data={data} ship={myShip} answers={shipAnswers(mine)} busy={sending} send={send} name={names[me] ?? me} />
      )}
      {!building && <FlightBoard data={data} view={view} names={names} />}
      <section class="panel ships" aria-labelledby="trucker-ships-title">
        <h3 id="trucker-ships-title">{building ? t("trucker.otherShips") : t("trucker.ships")}</h3>
        <div class="ship-list">
          {(building ? others : Object.keys(view.players)).map((id) => {
            const player = view.players[id];
            if (!player.ship) return null;
            return (
              <figure key={id} class="other-ship" data-player={id}>
                <figcaption>
                  <span class="swatch" style={{ background: cabinColour(data, player.cabin) }} /> {names[id] ?? id}
                  {player.order_tile !== null && <> · {t("trucker.finishedWith", { tile: player.order_tile })}</>}
                  {building && player.hand && <> · {t("trucker.holding")}</>}
                </figcaption>
                <ShipSvg data={data} ship={player.ship} label={shipLabel(names[id] ?? id, player.ship)} small />
              </figure>
            );
          })}
        </div>
      </section>
      <Players data={data} view={view} names={names} />
      <p class="legend">{t("trucker.legend")}</p>
    </div>
  );
}

function describe(event: GameEvent, names: Record<string, string>): string | null {
  const d = (event.data ?? {}) as Record<string, unknown>;
  const who = names[String(d.player)] ?? String(d.player ?? "");
  switch (event.type) {
    case "ComponentGrabbed": return t("trucker.log.grabbed", { who, source: tx(`trucker.source.${String(d.source)}`, String(d.source)) });
    case "ComponentPlaced": return t("trucker.log.placed", { who, column: (d.square as number[])[0], row: (d.square as number[])[1] });
    case "ShipFinished": return t("trucker.log.finished", { who, tile: String(d.order_tile) });
    default: return null;
  }
}

export const board: BoardModule = { Board: TruckerBoard, describe, handles: [...BUILDING_ACTIONS, ...PICKED_ON_SHIP] };
