/**
 * The card step: Stripe's Payment Element mounted with the client secret the payments API
 * returned, and the "Give" button that confirms it. Confirmation redirects to the thank-you page;
 * an error (a declined card, a failed 3-D Secure) comes back here and the donor can try again:
 * the intent is the same one, so nothing is charged twice.
 */
import { useEffect, useRef, useState } from "react";
import type { Stripe, StripeElements } from "@stripe/stripe-js";
import { formatDollarsAndCents } from "../../payments/money.js";
import type { DonationCreated } from "../../payments/types.js";
import { formatDate } from "./summary.js";

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
}

/** Matches the site's colours (templates/styles/site.css) inside Stripe's frame. */
const APPEARANCE = {
  theme: "stripe" as const,
  variables: { colorPrimary: "#663399", borderRadius: "6px", fontFamily: "system-ui, sans-serif" },
};

export function PaymentStep({ idPrefix, stripe, created, returnUrl, beforeConfirm, onPaid, onBack }: PaymentStepProps) {
  const mountRef = useRef<HTMLDivElement>(null);
  const elementsRef = useRef<StripeElements | null>(null);
  const busy = useRef(false);
  const [ready, setReady] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const elements = stripe.elements({ clientSecret: created.clientSecret, appearance: APPEARANCE });
    const element = elements.create("payment");
    element.on("ready", () => setReady(true));
    element.on("change", () => setError(null));
    element.mount(mountRef.current!);
    elementsRef.current = elements;
    return () => {
      element.destroy();
      elementsRef.current = null;
    };
  }, [stripe, created.clientSecret]);

  async function give() {
    const elements = elementsRef.current;
    if (!elements || busy.current) return;
    busy.current = true;
    setConfirming(true);
    setError(null);
    try {
      const submitted = await elements.submit();
      if (submitted.error) {
        setError(submitted.error.message ?? "Please check your card details.");
        return;
      }
      beforeConfirm();
      const confirmParams = { return_url: returnUrl };
      // Cards confirm in place ("if_required"): the page then replaces itself with the thank-you
      // page, so Back does not return to the filled form. Bank redirects still use return_url.
      if (created.intentType === "payment") {
        const result = await stripe.confirmPayment({ elements, confirmParams, redirect: "if_required" });
        if (result.error)
          setError(
            `${result.error.message ?? "Your payment did not go through."} Nothing was charged. Check the details or use another card, then try again.`,
          );
        else onPaid("payment", result.paymentIntent.id);
      } else {
        const result = await stripe.confirmSetup({ elements, confirmParams, redirect: "if_required" });
        if (result.error)
          setError(
            `${result.error.message ?? "Your card could not be saved."} Nothing was charged. Check the details or use another card, then try again.`,
          );
        else onPaid("setup", result.setupIntent.id);
      }
    } catch (e) {
      setError(`Your payment could not be completed (${(e as Error).message}). Nothing was charged. Please try again.`);
    } finally {
      busy.current = false;
      setConfirming(false);
    }
  }

  const first = created.schedule[0];
  const today = created.intentType === "payment";
  const plan = created.instalments;
  const label = !today
    ? `Save card for ${formatDollarsAndCents(created.totalCents)} from ${first ? formatDate(first.date) : "the first date"}`
    : plan
      ? `Give ${formatDollarsAndCents(created.totalCents)} now, payment 1 of ${plan.count}`
      : `Give ${formatDollarsAndCents(created.totalCents)}`;
  return (
    <section className="don-pay" aria-labelledby={`${idPrefix}pay-heading`}>
      <h4 id={`${idPrefix}pay-heading`}>Card details</h4>
      <p className="don-hint">
        Reference <strong>{created.reference}</strong>. Your card is handled by Stripe; we never see its number.
      </p>
      <div ref={mountRef} className="don-payment-element" />
      {!ready ? <p role="status">Loading the secure card form…</p> : null}
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
          {confirming ? "Processing…" : label}
        </button>
        <button type="button" className="don-link-button" onClick={onBack} disabled={confirming}>
          Change my gift or details
        </button>
      </div>
    </section>
  );
}
