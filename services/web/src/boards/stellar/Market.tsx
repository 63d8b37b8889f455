// Stellar Ventures' auction (with a bid between the lowest and highest legal amounts) and the powers:
// the face-up row, the face-down pile, and drafting one when the engine asks for it.
import { useState } from "preact/hooks";
import type { Command } from "../../api/types";
import { t, tx } from "../../i18n";
import { ErrorNote } from "../../ui/ErrorNote";
import { corpName, CORP_COLOURS, powerName, type StellarData } from "./data";
import type { StellarView } from "./view";

export const AUCTION_ACTIONS = ["Bid", "PassBid", "DraftPower"];

function useSend(submit: (c: Command) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const send = (command: Command) => {
    setBusy(true);
    submit(command).then(() => setError(null), setError).finally(() => setBusy(false));
  };
  return { busy, error, send };
}

export function AuctionPanel({ data, view, actions, names, submit }: {
  data: StellarData; view: StellarView; actions: Command[]; names: Record<string, string>; submit: (c: Command) => Promise<void>;
}) {
  const bids = actions.filter((a) => a.type === "Bid").map((a) => Number(a.amount));
  const pass = actions.find((a) => a.type === "PassBid");
  const low = bids.length ? Math.min(...bids) : 0, high = bids.length ? Math.max(...bids) : 0;
  const [amount, setAmount] = useState<string>("");
  const { busy, error, send } = useSend(submit);
  const auction = view.auction;
  if (!auction) return null;
  const next = auction.order[auction.turn];
  const value = amount === "" ? low : Number(amount);
  return (
    <section class="panel auction" aria-labelledby="auction-title" data-auction={auction.corp}>
      <h3 id="auction-title"><span class="swatch" aria-hidden="true" style={{ background: CORP_COLOURS[auction.corp] }} />{" "}
        {t("stellar.auctionOf", { corp: corpName(data, auction.corp), purpose: tx(`stellar.purpose.${auction.purpose}`, auction.purpose) })}</h3>
      <p>{auction.high_bid === null ? t("stellar.noBid") : t("stellar.highBid", { amount: auction.high_bid, who: names[auction.high_bidder ?? ""] ?? auction.high_bidder })}
        {" · "}{t("stellar.nextBidder", { who: names[next] ?? next })}
        {auction.passed.length > 0 && <> · {t("stellar.passedBidders", { who: auction.passed.map((p) => names[p] ?? p).join(", ") })}</>}</p>
      {bids.length > 0 && (
        <form class="row" onSubmit={(e) => { e.preventDefault(); send({ type: "Bid", amount: value }); }}>
          <label for="bid-amount">{t("stellar.bidAmount", { low, high })}</label>
          <input id="bid-amount" type="number" min={low} max={high} step={1} class="short" value={amount === "" ? String(low) : amount}
                 onInput={(e) => setAmount(e.currentTarget.value)} />
          <button type="submit" disabled={busy || !(value >= low && value <= high)} data-action="bid">{t("stellar.bid")}</button>
          {pass && <button type="button" class="secondary" disabled={busy} data-action="pass-bid" onClick={() => send(pass)}>{t("stellar.passBid")}</button>}
        </form>
      )}
      <ErrorNote error={error} />
    </section>
  );
}

export function PowersPanel({ data, view, actions, submit }: {
  data: StellarData; view: StellarView; actions: Command[]; submit: (c: Command) => Promise<void>;
}) {
  const drafts = new Map(actions.filter((a) => a.type === "DraftPower").map((a) => [String(a.power), a]));
  const { busy, error, send } = useSend(submit);
  const drafting = view.pending.find((p) => p.kind === "draft_power");
  return (
    <section class="panel powers" aria-labelledby="powers-title">
      <h3 id="powers-title">{t("stellar.powers", { pile: view.powers_pile })}</h3>
      {drafting && <p class="hint">{t("stellar.drafting", { corp: corpName(data, drafting.corp ?? "") })}</p>}
      <ul class="power-row">
        {view.powers_row.map((power) => {
          const fact = data.powers[power];
          const draft = drafts.get(power);
          return (
            <li key={power} data-power={power} class={draft ? "draftable" : ""}>
              <strong>{powerName(power)}</strong>
              {fact && <small>{tx(`stellar.timing.${fact.timing}`, fact.timing.replace(/_/g, " "))}{fact.effect ? `: ${fact.effect}` : ""}</small>}
              {draft && <button type="button" disabled={busy} data-action="draft" onClick={() => send(draft)}>{t("stellar.draft")}</button>}
            </li>
          );
        })}
      </ul>
      <ErrorNote error={error} />
    </section>
  );
}
