/**
 * /pay/thank-you/?donation=<id>: what was given, to which fund, on what schedule, how to change or
 * cancel it and when the receipt comes, or what went wrong and the way back to the form. The
 * payments API's `GET /donations/{id}` is the authority; Stripe's `redirect_status` is used only
 * when the API cannot be reached. Opened with no gift to show, it says so and claims nothing.
 * One heading (h1) in every state, focused when the state is known.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { createPaymentsClient } from "../../payments/client.js";
import { PaymentsApiError, PaymentsError } from "../../payments/errors.js";
import { formatDollarsAndCents } from "../../payments/money.js";
import type { DonationState } from "../../payments/types.js";
import { LAST_ATTEMPT_KEY, markGiven } from "../donation/form-state.js";
import { formatShortDate } from "../donation/summary.js";
import { FUND_BLESSING, FUND_NAMES, scheduleSentence } from "./thank-you-words.js";

export interface ThankYouProps {
  payments: { apiUrl: string; timeoutMs?: number } | null;
  /** Where to send the donor back to when nothing else is known. */
  fallbackPath: string;
  /** Where the donor care team's phone and e-mail are. */
  contactPath?: string;
}

type View =
  | { kind: "checking" }
  | { kind: "no-donation" }
  | { kind: "done"; donation: DonationState }
  | { kind: "error"; message: string; stripeSaysPaid: boolean };

const sessionStore = () => {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
};

function lastAttempt(): { path?: string; donationId?: string } {
  try {
    return JSON.parse(sessionStore()?.getItem(LAST_ATTEMPT_KEY) ?? "{}") as { path?: string; donationId?: string };
  } catch {
    return {};
  }
}

export default function ThankYou({ payments, fallbackPath, contactPath = "/contact/" }: ThankYouProps) {
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
      const donation = await createPaymentsClient({
        baseUrl: payments.apiUrl,
        timeoutMs: payments.timeoutMs,
      }).getDonation(id);
      const formPath = last.path ?? `/pay/${donation.fund}/`;
      if (!last.path) setBackPath(formPath);
      // Made: the form's saved values go, and Back to it says the gift is made instead of inviting another.
      if (donation.status === "succeeded" || donation.status === "processing")
        markGiven(sessionStore(), { path: formPath, reference: donation.reference });
      setView({ kind: "done", donation });
    } catch (error) {
      const message =
        error instanceof PaymentsApiError && error.status === 404
          ? error.message
          : error instanceof PaymentsError
            ? error.message.replace(/ Nothing was charged\./, "")
            : String(error);
      setView({ kind: "error", message, stripeSaysPaid: params.get("redirect_status") === "succeeded" });
    }
  }, [payments]);

  useEffect(() => {
    void check();
  }, [check]);
  useEffect(() => {
    if (view.kind !== "checking") headingRef.current?.focus();
  }, [view.kind]);

  const heading = (text: string) => (
    <h1 ref={headingRef} tabIndex={-1}>
      {text}
    </h1>
  );

  if (view.kind === "checking") {
    return (
      <div className="thanks">
        {heading("Your gift")}
        <p role="status">Checking your payment…</p>
      </div>
    );
  }
  if (view.kind === "no-donation") {
    return (
      <div className="thanks">
        {heading("No recent gift to show")}
        <p>There is no gift made from this browser just now to confirm here.</p>
        <p>
          {"If you gave earlier, your receipt was sent to the e-mail address you gave. For a copy, "}
          <a href={contactPath}>contact our donor care team</a>.
        </p>
        <p>
          <a className="button button-primary" href={backPath}>
            Give now
          </a>
        </p>
      </div>
    );
  }
  if (view.kind === "error") {
    return (
      <div className="thanks">
        {heading("We could not check your payment")}
        <p role="alert">{view.message}</p>
        <p>
          {view.stripeSaysPaid
            ? "Stripe reported your payment as successful; your receipt will arrive by e-mail with your reference."
            : "If your payment went through, your receipt will arrive by e-mail."}
        </p>
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
    const first = d.schedule[0];
    // Weekly and seasonal gifts may start on a later date: Stripe saved the card (a SetupIntent) and took nothing today.
    const later = first !== undefined && new URLSearchParams(window.location.search).has("setup_intent");
    return (
      <div className="thanks">
        {heading("Thank you")}
        <p className="thanks-lead">
          {d.status === "succeeded"
            ? later
              ? "Your card is saved and your gift is set up."
              : "Your gift is received."
            : "Your payment is being processed."}{" "}
          {FUND_BLESSING[d.fund]}
        </p>
        <dl className="thanks-details">
          <dt>Given to</dt>
          <dd>{FUND_NAMES[d.fund]}</dd>
          <dt>{recurring ? "Schedule" : "Payment"}</dt>
          <dd>
            {scheduleSentence(d)}
            {d.feeCents > 0
              ? `, including ${formatDollarsAndCents(d.feeCents)} ${recurring ? "each time " : ""}to cover the card fee`
              : ""}
            .
          </dd>
          <dt>Your reference</dt>
          <dd className="thanks-reference">
            <strong>{d.reference}</strong>
          </dd>
        </dl>
        <h2>Your receipt</h2>
        <p>
          {d.status !== "succeeded"
            ? "We will e-mail your receipt as soon as the payment has gone through."
            : later && first
              ? `We e-mail a receipt after each payment is taken, the first on ${formatShortDate(first.date)}.`
              : recurring
                ? "Your receipt for today's payment is on its way to your e-mail, and a receipt follows each later payment."
                : "Your receipt is on its way to your e-mail. It has your reference number."}
        </p>
        <h2>{recurring ? "Changing or cancelling" : "Need to change something?"}</h2>
        <p>
          {recurring ? (
            <>
              To change or cancel the {d.instalments ? "remaining payments" : "payments"}
              {", "}
              <a href={contactPath}>contact our donor care team</a> with your reference {d.reference}. We stop or change
              them before the next date.
            </>
          ) : (
            <>
              If anything is wrong, <a href={contactPath}>contact our donor care team</a>
              {" with your reference "}
              {d.reference}.
            </>
          )}
        </p>
      </div>
    );
  }
  return (
    <div className="thanks">
      {heading("Your payment did not go through")}
      <p role="alert">
        {d.status === "failed" ? "The payment was cancelled." : "Your card was not charged."} Reference {d.reference}.
      </p>
      <p>
        <a href={backPath}>Go back to your gift and try again</a>: everything you entered is still there.
      </p>
    </div>
  );
}
