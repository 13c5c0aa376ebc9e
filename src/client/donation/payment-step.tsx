/**
 * The card step: Stripe's Payment Element mounted with the client secret the payments API
 * returned, and the "Give" button that confirms it. Confirmation redirects to the thank-you page;
 * an error (a declined card, a failed 3-D Secure) comes back here and the donor can try again:
 * the intent is the same one, so nothing is charged twice.
 */
import { useEffect, useRef, useState } from "react";
import type { Stripe, StripeElements } from "@stripe/stripe-js";
import type { DonationCreated } from "../../payments/types.js";
import { fill, type Formats } from "./format.js";

export interface PaymentStepProps {
  idPrefix: string;
  stripe: Stripe;
  created: DonationCreated;
  returnUrl: string;
  /** Called just before confirming (the page may leave for the thank-you page). */
  beforeConfirm(): void;
  /** Confirmed without a redirect (cards): the page moves on itself. */
  onPaid(kind: "payment" | "setup", intentId: string): void;
  onBack(): void;
  f: Formats;
}

/** Matches the site's colours (templates/styles/site.css) inside Stripe's frame. */
const APPEARANCE = {
  theme: "stripe" as const,
  variables: { colorPrimary: "#663399", borderRadius: "6px", fontFamily: "system-ui, sans-serif" },
};

/**
 * Wallets (Apple Pay, Google Pay, Link) appear inside the Payment Element when the Stripe account
 * has them on, the browser and device support them and, for Apple Pay, the site's domain is
 * registered with Stripe (docs/payments-api.md, "Wallets"). "auto" lets Stripe decide per browser;
 * the payment methods themselves come from the intent (automatic payment methods, set by the API).
 */
const PAYMENT_ELEMENT_OPTIONS = {
  wallets: { applePay: "auto", googlePay: "auto" },
  layout: { type: "tabs", defaultCollapsed: false },
} as const;

export function PaymentStep({
  idPrefix,
  stripe,
  created,
  returnUrl,
  beforeConfirm,
  onPaid,
  onBack,
  f,
}: PaymentStepProps) {
  const w = f.words;
  const mountRef = useRef<HTMLDivElement>(null);
  const elementsRef = useRef<StripeElements | null>(null);
  const busy = useRef(false);
  const [ready, setReady] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const elements = stripe.elements({
      clientSecret: created.clientSecret,
      appearance: APPEARANCE,
      // Stripe's own labels in the page's language ("ar", "en").
      locale: w.locale.slice(0, 2) as "ar" | "en",
    });
    const element = elements.create("payment", PAYMENT_ELEMENT_OPTIONS);
    element.on("ready", () => setReady(true));
    element.on("change", () => setError(null));
    element.mount(mountRef.current!);
    elementsRef.current = elements;
    return () => {
      element.destroy();
      elementsRef.current = null;
    };
  }, [stripe, created.clientSecret, w.locale]);

  async function give() {
    const elements = elementsRef.current;
    if (!elements || busy.current) return;
    busy.current = true;
    setConfirming(true);
    setError(null);
    try {
      const submitted = await elements.submit();
      if (submitted.error) {
        setError(submitted.error.message ?? w.checkCard);
        return;
      }
      beforeConfirm();
      const confirmParams = { return_url: returnUrl };
      // Cards confirm in place ("if_required"): the page then replaces itself with the thank-you
      // page, so Back does not return to the filled form. Bank redirects still use return_url.
      if (created.intentType === "payment") {
        const result = await stripe.confirmPayment({ elements, confirmParams, redirect: "if_required" });
        if (result.error) setError(fill(w.declinedAdvice, { reason: result.error.message ?? w.notThrough }));
        else onPaid("payment", result.paymentIntent.id);
      } else {
        const result = await stripe.confirmSetup({ elements, confirmParams, redirect: "if_required" });
        if (result.error) setError(fill(w.declinedAdvice, { reason: result.error.message ?? w.notSaved }));
        else onPaid("setup", result.setupIntent.id);
      }
    } catch (e) {
      setError(fill(w.notCompleted, { detail: (e as Error).message }));
    } finally {
      busy.current = false;
      setConfirming(false);
    }
  }

  const first = created.schedule[0];
  const today = created.intentType === "payment";
  const plan = created.instalments;
  const amount = f.money(created.totalCents);
  const label = !today
    ? fill(w.saveCard, { amount, date: first ? f.date(first.date) : w.firstDate })
    : plan
      ? fill(w.giveNowOf, { amount, count: plan.count })
      : fill(w.giveAmount, { amount });
  return (
    <section className="don-pay" aria-labelledby={`${idPrefix}pay-heading`}>
      <h4 id={`${idPrefix}pay-heading`}>{w.cardDetails}</h4>
      <p className="don-hint">
        {w.referenceBefore}
        <strong>{created.reference}</strong>
        {w.referenceAfter}
      </p>
      <div ref={mountRef} className="don-payment-element" />
      {!ready ? <p role="status">{w.loadingCard}</p> : null}
      {error ? (
        <p className="don-alert" role="alert" id={`${idPrefix}pay-error`}>
          {error}
        </p>
      ) : null}
      <div className="don-actions">
        <button
          type="button"
          className="button"
          onClick={give}
          disabled={!ready || confirming}
          aria-describedby={error ? `${idPrefix}pay-error` : undefined}
        >
          {confirming ? w.processing : label}
        </button>
        <button type="button" className="don-link-button" onClick={onBack} disabled={confirming}>
          {w.changeGift}
        </button>
      </div>
    </section>
  );
}
