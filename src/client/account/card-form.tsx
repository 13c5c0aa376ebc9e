/**
 * "Change card" for a regular gift: Stripe's Payment Element for the SetupIntent the account API
 * started (changeRegularGiftCard), confirmed in place with stripe.confirmSetup. A chunk of its
 * own, with Stripe.js (loaded from js.stripe.com only now): the account page's up-front code does
 * not carry it. Saved here means Stripe saved the card; the gift uses it once Stripe's signed
 * webhook reaches the payments service, which is what the page says.
 */
import type { StripeElements } from "@stripe/stripe-js";
import { useEffect, useRef, useState } from "react";
import { loadStripeJs, StripeLoadError } from "../stripe/load-stripe.js";
import { Actions } from "./field.js";

export interface CardFormProps {
  idPrefix: string;
  stripeKey: string;
  clientSecret: string;
  /** Saved: the sentence for the donor. */
  onSaved(message: string): void;
  onCancel(): void;
}

export default function CardForm({ idPrefix, stripeKey, clientSecret, onSaved, onCancel }: CardFormProps) {
  const mountRef = useRef<HTMLDivElement>(null);
  const elementsRef = useRef<StripeElements | null>(null);
  const stripeRef = useRef<Awaited<ReturnType<typeof loadStripeJs>> | null>(null);
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    let destroy = () => {};
    loadStripeJs(stripeKey).then(
      (stripe) => {
        if (!live || !mountRef.current) return;
        stripeRef.current = stripe;
        const elements = stripe.elements({ clientSecret });
        const element = elements.create("payment", { layout: "tabs" });
        element.on("ready", () => live && setReady(true));
        element.on("change", () => live && setError(null));
        element.mount(mountRef.current);
        elementsRef.current = elements;
        destroy = () => element.destroy();
      },
      (e: unknown) => live && setError(e instanceof StripeLoadError ? e.donorMessage : (e as Error).message),
    );
    return () => {
      live = false;
      destroy();
    };
  }, [stripeKey, clientSecret]);

  async function save() {
    const stripe = stripeRef.current;
    const elements = elementsRef.current;
    if (!stripe || !elements || busy) return;
    setBusy(true);
    setError(null);
    try {
      const submitted = await elements.submit();
      if (submitted.error) {
        setError(submitted.error.message ?? "Check the card details.");
        return;
      }
      const result = await stripe.confirmSetup({
        elements,
        confirmParams: { return_url: `${location.origin}${location.pathname}#regular-gifts` },
        redirect: "if_required",
      });
      if (result.error)
        setError(`The card was not saved: ${result.error.message ?? "it was declined"}. Nothing was changed.`);
      else onSaved("Your new card is saved. Your gift is charged to it from the next payment.");
    } catch (e) {
      setError(`The card was not saved (${(e as Error).message}). Nothing was changed; please try again.`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="account-card-form">
      <div ref={mountRef} id={`${idPrefix}-card`} />
      {error ? (
        <p role="alert" className="account-field-error">
          <strong>Error:</strong> {error}
        </p>
      ) : null}
      <Actions>
        <button type="button" onClick={() => void save()} aria-disabled={!ready || busy ? true : undefined}>
          {busy ? "Saving the card…" : "Save this card"}
        </button>
        <button type="button" className="account-secondary" onClick={onCancel}>
          No, keep the card I have
        </button>
      </Actions>
    </div>
  );
}
