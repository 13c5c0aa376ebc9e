/**
 * Every plan managed in place (monthly and weekly gifts, instalments, seasonal series), with its
 * schedule, "3 of 12 paid", the next and the last date: pause, resume, change the amount, change
 * the card, cancel. Every action asks first (a confirmation step inside the gift), then shows the
 * API's own sentence as the result; focus goes to the question, then to the result (or to the
 * alert saying why it was refused), so keyboard and screen-reader users follow. A new card is entered here, in Stripe's card form (card-form.tsx,
 * loaded on demand); a new PayPal amount continues on PayPal's page, where the donor agrees to it.
 */
import { type ComponentType, useContext, useEffect, useRef, useState } from "react";
import type { CardFormProps } from "./card-form.js";
import type { PayPalReturn } from "./paypal-return.js";
import { StripeKey } from "./stripe-key.js";
import { useIslandId } from "../island-id.js";
import { Actions } from "./field.js";
import {
  fundName,
  giftKind,
  giftPer,
  giftProgress,
  giftStatusName,
  longDate,
  money,
  parseDollars,
  scheduleName,
  type GiftAction,
  type GiftData,
} from "./giving-queries.js";

export interface RegularGiftsProps {
  gifts: GiftData[];
  changeGift: (
    id: string,
    action: GiftAction,
    amountCents?: number,
    date?: string,
  ) => Promise<{ message: string; url?: string | null; clientSecret?: string | null }>;
  /** Reads a gift again until `changed` holds (a new card, once Stripe's webhook saved it). */
  reloadGift?: (id: string, changed: (gift: GiftData) => boolean) => Promise<void>;
  /** What happened at PayPal, for the gift the donor came back from PayPal's window about. */
  returned?: PayPalReturn | null;
}

export function RegularGifts({ gifts, changeGift, reloadGift, returned }: RegularGiftsProps) {
  if (gifts.length === 0)
    return (
      <p>
        You have no regular gifts. Monthly and weekly gifts, instalments, and Ramadan or Dhul Hijjah series you start
        while signed in show here.
      </p>
    );
  return (
    <ul className="account-gifts">
      {gifts.map((gift) => (
        <GiftItem
          key={gift.id}
          gift={gift}
          changeGift={changeGift}
          reloadGift={reloadGift}
          returned={returned?.giftId === gift.id ? returned.message : null}
        />
      ))}
    </ul>
  );
}

const QUESTION: Record<GiftAction, (g: GiftData) => string> = {
  pause: (g) =>
    `Pause your ${giftKind(g.schedule)} to ${fundName(g.fund)}? Nothing more is charged until you resume it.`,
  resume: (g) => `Resume your ${giftKind(g.schedule)} to ${fundName(g.fund)}? Charges start again from the next date.`,
  change: (g) =>
    `Change the amount of your ${giftKind(g.schedule)} to ${fundName(g.fund)}? The new amount applies from the next charge.`,
  card: (g) =>
    `Change the card for your ${giftKind(g.schedule)} to ${fundName(g.fund)}? You enter the new card here, in Stripe's secure card form; nothing changes until it is saved.`,
  skip: (g) => skipQuestion(g),
  cancel: (g) =>
    `Cancel your ${giftKind(g.schedule)} to ${fundName(g.fund)} for good? To give regularly again later you would start a new gift.`,
};

/** The skip, with the dates it leads to (worked out by the service, as it will charge them). */
function skipQuestion(g: GiftData): string {
  const skipped = g.nextChargeDate ? longDate(g.nextChargeDate) : "the next date";
  const next = g.afterSkip?.nextChargeDate;
  const end = g.afterSkip?.endDate;
  const after = next
    ? ` The payment after it is on ${longDate(next)}${end ? `, and the last on ${longDate(end)}` : ""}.`
    : "";
  return `Skip the payment of ${skipped}? Nothing is charged then.${after}`;
}

/**
 * Why card instalments have no Pause before their first payment is made (Stripe holds nothing a
 * pause could stop yet: the service refuses it), and what works instead.
 */
export const NOT_YET_PAUSABLE = "This plan can be paused once its first payment is made. To stop the plan, cancel it.";

/** Why a PayPal gift has no "Skip next payment", and what to do instead. */
export const PAYPAL_NO_SKIP =
  "PayPal cannot skip a single payment. To miss one, pause this gift and resume it when you are ready.";

const CONFIRM: Record<GiftAction, string> = {
  pause: "Yes, pause this gift",
  resume: "Yes, resume this gift",
  change: "Save the new amount",
  card: "Enter a new card",
  skip: "Yes, skip this payment",
  cancel: "Yes, cancel this gift",
};

function GiftItem({
  gift,
  changeGift,
  reloadGift,
  returned,
}: {
  gift: GiftData;
  changeGift: RegularGiftsProps["changeGift"];
  reloadGift?: RegularGiftsProps["reloadGift"] | undefined;
  /** The sentence for a donor back from PayPal's window about this gift. */
  returned?: string | null;
}) {
  const id = useIslandId(`gift-${gift.id}`);
  const [asking, setAsking] = useState<GiftAction | null>(null);
  const [result, setResult] = useState<string | null>(returned ?? null);
  const [error, setError] = useState<string | null>(null);
  const [amountError, setAmountError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const question = useRef<HTMLParagraphElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const amount = useRef<HTMLInputElement>(null);
  const stripeKey = useContext(StripeKey);
  const [cardSecret, setCardSecret] = useState<string | null>(null);
  const [CardForm, setCardForm] = useState<ComponentType<CardFormProps> | null>(null);

  useEffect(() => {
    if (asking === "change") amount.current?.focus();
    else if (asking) question.current?.focus();
  }, [asking]);
  // The outcome takes focus where its words are: the status for a result, the alert for an error
  // (the status is empty then; focused, it was an empty outlined box and said nothing).
  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result]);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const ask = (action: GiftAction) => {
    setAsking(action);
    setResult(null);
    setError(null);
    setAmountError(null);
  };

  const confirm = async () => {
    if (!asking || busy) return;
    let cents: number | undefined;
    if (asking === "change") {
      const parsed = parseDollars(amount.current?.value ?? "");
      if (parsed === null || parsed <= 0) {
        setAmountError("Enter the new amount in dollars, for example 25 or 25.50.");
        amount.current?.focus();
        return;
      }
      cents = parsed;
    }
    setBusy(true);
    try {
      if (asking === "card" && !stripeKey) throw new Error("The card cannot be changed on this site yet.");
      const { message, url, clientSecret } = await changeGift(
        gift.id,
        asking,
        cents,
        asking === "skip" ? (gift.nextChargeDate ?? undefined) : undefined,
      );
      if (asking === "card" && clientSecret) {
        // Stripe's card form, in a chunk of its own with Stripe.js.
        const { default: form } = await import("./card-form.js");
        setCardForm(() => form);
        setCardSecret(clientSecret);
      }
      setAsking(null);
      setResult(message);
      // PayPal's page, where the donor agrees to a new amount.
      if (url) window.location.assign(url);
    } catch (e) {
      // A refused amount (below the fund's minimum, above its maximum) belongs beside the field.
      if (asking === "change") setAmountError((e as Error).message);
      else {
        setAsking(null);
        setError((e as Error).message);
      }
    } finally {
      setBusy(false);
    }
  };

  const active = gift.status === "ACTIVE" || gift.status === "PENDING";
  return (
    <li className="account-gift" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>
        {fundName(gift.fund)}: {money(gift.totalCents)} {giftPer(gift.schedule)}
      </h4>
      <dl className="account-facts">
        <dt>Status</dt>
        <dd>{giftStatusName(gift.status)}</dd>
        <dt>Schedule</dt>
        <dd>
          {scheduleName(gift.schedule)}
          {gift.chargeCount !== null ? `, ${gift.chargeCount} payments` : ""}
          {gift.scheduleTotalCents !== null ? ` (${money(gift.scheduleTotalCents)} in all)` : ""}
        </dd>
        <dt>Payments</dt>
        <dd>{giftProgress(gift)}</dd>
        <dt>Gift</dt>
        <dd>
          {money(gift.amountCents)}
          {gift.coversFees ? ` plus ${money(gift.feeCents)} to cover fees` : ""}
          {gift.pendingAmountCents !== null
            ? ` (${money(gift.pendingAmountCents)} once you agree to it on PayPal's page)`
            : ""}
        </dd>
        <dt>Paid with</dt>
        <dd>{gift.paidWith}</dd>
        <dt>Started</dt>
        <dd>{longDate(gift.startDate)}</dd>
        <dt>Next charge</dt>
        <dd>{gift.nextChargeDate ? longDate(gift.nextChargeDate) : "None"}</dd>
        <dt>Ends</dt>
        <dd>{gift.endDate ? longDate(gift.endDate) : "When you cancel it"}</dd>
        <dt>Reference</dt>
        <dd>{gift.reference}</dd>
      </dl>
      <div role="status" className="account-notice" ref={resultRef} tabIndex={-1}>
        {busy ? "Please wait…" : result}
      </div>
      <div role="alert" className="account-error" ref={errorRef} tabIndex={-1}>
        {error ? (
          <p>
            <strong>Error:</strong> {error}
          </p>
        ) : null}
      </div>
      {cardSecret && CardForm && stripeKey ? (
        <CardForm
          idPrefix={id}
          stripeKey={stripeKey}
          clientSecret={cardSecret}
          onSaved={(message) => {
            setCardSecret(null);
            setResult(message);
            // The new card shows once Stripe's signed webhook has made it the gift's.
            const before = gift.paidWith;
            void reloadGift?.(gift.id, (g) => g.paidWith !== before);
          }}
          onCancel={() => {
            setCardSecret(null);
            setResult("Nothing was changed: your gift is charged to the card it had.");
          }}
        />
      ) : asking ? (
        <div className="account-confirm" role="group" aria-labelledby={`${id}-question`}>
          <p id={`${id}-question`} ref={question} tabIndex={-1}>
            {QUESTION[asking](gift)}
          </p>
          {asking === "change" ? (
            <div className="account-field">
              <label htmlFor={`${id}-amount`}>New amount per gift (AUD, before fees)</label>
              <input
                id={`${id}-amount`}
                ref={amount}
                type="text"
                inputMode="decimal"
                autoComplete="off"
                defaultValue={(gift.amountCents / 100).toFixed(2)}
                aria-invalid={amountError ? true : undefined}
                aria-describedby={amountError ? `${id}-amount-error` : undefined}
                onKeyDown={(e) => {
                  if (e.key === "Enter") void confirm();
                }}
              />
              {amountError ? (
                <p id={`${id}-amount-error`} className="account-field-error">
                  <strong>Error:</strong> {amountError}
                </p>
              ) : null}
            </div>
          ) : null}
          <Actions>
            <button type="button" onClick={() => void confirm()} aria-disabled={busy ? true : undefined}>
              {CONFIRM[asking]}
            </button>
            <button type="button" className="account-secondary" onClick={() => setAsking(null)}>
              No, keep it as it is
            </button>
          </Actions>
        </div>
      ) : gift.status === "CANCELLED" || gift.status === "COMPLETED" ? null : (
        <>
          {gift.paymentMethod === "paypal" && gift.status === "ACTIVE" ? (
            <p className="account-hint">{PAYPAL_NO_SKIP}</p>
          ) : null}
          {active && !gift.canPause ? <p className="account-hint">{NOT_YET_PAUSABLE}</p> : null}
          <Actions>
            {active ? (
              gift.canPause ? (
                <button type="button" onClick={() => ask("pause")}>
                  Pause
                </button>
              ) : null
            ) : (
              <button type="button" onClick={() => ask("resume")}>
                Resume
              </button>
            )}
            <button type="button" onClick={() => ask("change")}>
              Change amount
            </button>
            {gift.canSkip && gift.status === "ACTIVE" && gift.nextChargeDate ? (
              <button type="button" onClick={() => ask("skip")}>
                Skip next payment
              </button>
            ) : null}
            {gift.paymentMethod === "card" ? (
              <button type="button" onClick={() => ask("card")}>
                Change card
              </button>
            ) : null}
            <button type="button" onClick={() => ask("cancel")}>
              Cancel gift
            </button>
          </Actions>
        </>
      )}
    </li>
  );
}
