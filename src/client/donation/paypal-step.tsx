/**
 * The PayPal step: the deferred PayPal kit (startPayPal) renders PayPal's buttons, what is happening
 * and what went wrong into this step's container once the payments API has created the donation;
 * the step itself offers the ways on: pay by card instead (the form as typed, card chosen) or
 * change the gift. Failures never lose the form behind, and never charge twice (paypal-session.ts).
 */
import { useEffect, useRef, useState } from "react";
import type { PaymentsClient } from "../../payments/client.js";
import type { DonationCreated } from "../../payments/types.js";
import type { startPayPal } from "../paypal/paypal-session.js";
import type { Formats } from "./format.js";

export interface PayPalStepProps {
  idPrefix: string;
  clientId: string;
  client: PaymentsClient;
  created: DonationCreated;
  start: typeof startPayPal;
  onPaid(): void;
  onBack(): void;
  onCard(): void;
  f: Formats;
}

export function PayPalStep({ idPrefix, clientId, client, created, start, onPaid, onBack, onCard, f }: PayPalStepProps) {
  const w = f.words;
  const mountRef = useRef<HTMLDivElement>(null);
  const [capturing, setCapturing] = useState(false);
  const once = created.frequency === "once";
  const paidRef = useRef(onPaid);
  paidRef.current = onPaid;

  useEffect(() => {
    const session = start({
      clientId,
      client,
      donationId: created.donationId,
      once,
      container: mountRef.current!,
      words: w,
      onCapturing: setCapturing,
      onPaid: () => paidRef.current(),
    });
    return () => session.close();
  }, [start, clientId, client, created.donationId, once, w]);

  return (
    <section className="don-pay" aria-labelledby={`${idPrefix}paypal-heading`}>
      <h4 id={`${idPrefix}paypal-heading`}>{w.paypalHeading}</h4>
      <p className="don-hint">
        {w.referenceBefore}
        <strong>{created.reference}</strong>
        {`. ${once ? w.paypalHintOnce : w.paypalHintMonthly}`}
      </p>
      <div ref={mountRef} />
      <div className="don-actions">
        <button type="button" className="don-link-button" onClick={onCard} disabled={capturing}>
          {w.payByCardInstead}
        </button>
        <button type="button" className="don-link-button" onClick={onBack} disabled={capturing}>
          {w.changeGift}
        </button>
      </div>
    </section>
  );
}
