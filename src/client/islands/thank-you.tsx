/**
 * /pay/thank-you/?donation=<id>: reads the outcome and shows the reference, or what went wrong and
 * the way back to the form (whose values are still in sessionStorage). Stripe adds its own
 * `redirect_status` to the return URL; the payments API's `GET /donations/{id}` is the authority,
 * and Stripe's parameter is used only when the API cannot be reached.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { createPaymentsClient } from "../../payments/client.js";
import { PaymentsApiError, PaymentsError } from "../../payments/errors.js";
import { formatDollarsAndCents } from "../../payments/money.js";
import type { DonationState } from "../../payments/types.js";
import { LAST_ATTEMPT_KEY, STORAGE_PREFIX } from "../donation/form-state.js";
import { formatDate } from "../donation/summary.js";

export interface ThankYouProps {
  payments: { apiUrl: string; timeoutMs?: number } | null;
  /** Where to send the donor back to when nothing else is known. */
  fallbackPath: string;
}

type View =
  | { kind: "checking" }
  | { kind: "no-donation" }
  | { kind: "done"; donation: DonationState }
  | { kind: "error"; message: string; stripeSaysPaid: boolean };

function lastAttempt(): { path?: string; donationId?: string } {
  try {
    return JSON.parse(window.sessionStorage.getItem(LAST_ATTEMPT_KEY) ?? "{}") as { path?: string; donationId?: string };
  } catch {
    return {};
  }
}

/** A successful gift: forget the saved form, so the next visit starts clean. */
function forgetSavedForms() {
  try {
    const storage = window.sessionStorage;
    for (const key of Object.keys(storage)) if (key.startsWith(STORAGE_PREFIX)) storage.removeItem(key);
  } catch {
    // nothing kept, nothing to forget
  }
}

export default function ThankYou({ payments, fallbackPath }: ThankYouProps) {
  const [view, setView] = useState<View>({ kind: "checking" });
  const [backPath, setBackPath] = useState(fallbackPath);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const check = useCallback(async () => {
    const params = new URLSearchParams(window.location.search);
    const id = params.get("donation");
    const last = lastAttempt();
    if (last.path) setBackPath(last.path);
    if (!id || !payments) return setView({ kind: "no-donation" });
    setView({ kind: "checking" });
    try {
      const donation = await createPaymentsClient({ baseUrl: payments.apiUrl, timeoutMs: payments.timeoutMs }).getDonation(id);
      if (!last.path) setBackPath(`/pay/${donation.fund}/`);
      if (donation.status === "succeeded" || donation.status === "processing") forgetSavedForms();
      setView({ kind: "done", donation });
    } catch (error) {
      const message = error instanceof PaymentsApiError && error.status === 404 ? error.message : error instanceof PaymentsError ? error.message.replace(/ Nothing was charged\./, "") : String(error);
      setView({ kind: "error", message, stripeSaysPaid: params.get("redirect_status") === "succeeded" });
    }
  }, [payments]);

  useEffect(() => {
    void check();
  }, [check]);
  useEffect(() => {
    if (view.kind !== "checking") headingRef.current?.focus();
  }, [view.kind]);

  if (view.kind === "checking") return <p role="status">Checking your payment…</p>;
  if (view.kind === "no-donation") {
    return (
      <div className="thanks">
        <h2 ref={headingRef} tabIndex={-1}>May Allah accept your gift</h2>
        <p>Your receipt is on its way to your e-mail. It has your reference number.</p>
      </div>
    );
  }
  if (view.kind === "error") {
    return (
      <div className="thanks">
        <h2 ref={headingRef} tabIndex={-1}>We could not check your payment</h2>
        <p role="alert">{view.message}</p>
        <p>{view.stripeSaysPaid ? "Stripe reported your payment as successful; your receipt will arrive by e-mail with your reference." : "If your payment went through, your receipt will arrive by e-mail."}</p>
        <p>
          <button type="button" className="button" onClick={() => void check()}>
            Check again
          </button>
        </p>
      </div>
    );
  }
  const d = view.donation;
  if (d.status === "succeeded" || d.status === "processing") {
    const recurring = d.schedule.length > 1 || d.openEnded;
    return (
      <div className="thanks">
        <h2 ref={headingRef} tabIndex={-1}>{d.status === "succeeded" ? "Thank you: your gift is received" : "Thank you: your payment is being processed"}</h2>
        <p className="thanks-reference">
          Your reference: <strong>{d.reference}</strong>
        </p>
        <p>
          {recurring ? `${formatDollarsAndCents(d.totalCents)} on each date from ${formatDate(d.schedule[0]!.date)}` : `${formatDollarsAndCents(d.totalCents)}`}
          {d.feeCents > 0 ? `, including ${formatDollarsAndCents(d.feeCents)} to cover the card fee` : ""}.
        </p>
        <p>{d.status === "succeeded" ? "May Allah accept your gift and reward you. Your receipt is on its way to your e-mail." : "We will e-mail you as soon as it has gone through."}</p>
      </div>
    );
  }
  return (
    <div className="thanks">
      <h2 ref={headingRef} tabIndex={-1}>Your payment did not go through</h2>
      <p role="alert">{d.status === "failed" ? "The payment was cancelled." : "Your card was not charged."} Reference {d.reference}.</p>
      <p>
        <a href={backPath}>Go back to your gift and try again</a>: everything you entered is still there.
      </p>
    </div>
  );
}
