/**
 * /pay/thank-you/?donation=<id>: what was given, to which fund, on what schedule, how to change or
 * cancel it and when the receipt comes, or what went wrong and the way back to the form. The
 * payments API's `GET /donations/{id}` is the authority; Stripe's `redirect_status` is used only
 * when the API cannot be reached. Opened with no gift to show, it says so and claims nothing.
 * One heading (h1) in every state, focused when the state is known.
 */
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { createPaymentsClient } from "../../payments/client.js";
import { PaymentsApiError, PaymentsError } from "../../payments/errors.js";
import type { DonationState } from "../../payments/types.js";
import { fill, formatsFor } from "../donation/format.js";
import { LAST_ATTEMPT_KEY, markGiven } from "../donation/form-state.js";
import type { ThankYouWords } from "../donation/words/thanks-en.js";
import { scheduleSentence } from "./thank-you-words.js";
import { SiteLink } from "../link-lang.js";

export interface ThankYouProps {
  payments: { apiUrl: string } | null;
  /** Where to send the donor back to when nothing else is known. */
  fallbackPath: string;
  /** Where the donor care team's phone and e-mail are. */
  contactPath?: string;
  /** The page's language ("ar-ae"): a link from it to a page only in English is marked (link-lang.tsx). */
  lang?: string;
  /** The page's words in its language (templates pick them by language at build time). */
  words: ThankYouWords;
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

/**
 * Stripe redirected here saying the payment succeeded while the payments API still says it awaits
 * a payment method: the API's record of the payment is late (a webhook not yet arrived). The page
 * must not say "not charged" then, or the donor pays again.
 */
function stripeSaysPaidOf(params: URLSearchParams, donation: DonationState): boolean {
  return donation.status === "requires_payment_method" && params.get("redirect_status") === "succeeded";
}

/**
 * A sentence with the donation's reference in it, the reference kept whole and left to right: in an
 * Arabic sentence "NZF-8C49-5H2W" was broken at a hyphen and its parts reordered ("-NZF 8C49-5H2W").
 */
function withReference(template: string, reference: string): ReactNode {
  const at = template.indexOf("{reference}");
  if (at < 0) return template;
  return (
    <>
      {template.slice(0, at)}
      <bdi dir="ltr" className="thanks-ref">
        {reference}
      </bdi>
      {template.slice(at + "{reference}".length)}
    </>
  );
}

function lastAttempt(): { path?: string; donationId?: string } {
  try {
    return JSON.parse(sessionStore()?.getItem(LAST_ATTEMPT_KEY) ?? "{}") as { path?: string; donationId?: string };
  } catch {
    return {};
  }
}

export default function ThankYou({ payments, fallbackPath, contactPath = "/contact/", lang, words: t }: ThankYouProps) {
  const f = formatsFor(t);
  const contact = (
    <SiteLink href={contactPath} lang={lang} said={t.inEnglish}>
      {t.contactLink}
    </SiteLink>
  );
  // Without payments there is no gift to check: the page says so from the server's HTML, and the
  // template renders it as plain markup, no island (templates/pages/giving.tsx).
  const [view, setView] = useState<View>(payments ? { kind: "checking" } : { kind: "no-donation" });
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
      const donation = await createPaymentsClient({ baseUrl: payments.apiUrl }).getDonation(id);
      const formPath = last.path ?? `/pay/${donation.fund}/`;
      if (!last.path) setBackPath(formPath);
      // Made: the form's saved values go, and Back to it says the gift is made instead of inviting another.
      // So when Stripe sent the donor here as paid and the API has not recorded it yet: no second gift.
      if (donation.status === "succeeded" || donation.status === "processing" || stripeSaysPaidOf(params, donation))
        markGiven(sessionStore(), { path: formPath, reference: donation.reference });
      setView({ kind: "done", donation });
    } catch (error) {
      const message =
        error instanceof PaymentsApiError && error.status === 404
          ? t.errorText || error.message
          : error instanceof PaymentsError
            ? t.errorText || error.message.replace(/ Nothing was charged\./, "")
            : String(error);
      setView({ kind: "error", message, stripeSaysPaid: params.get("redirect_status") === "succeeded" });
    }
  }, [payments, t]);

  useEffect(() => {
    void check();
  }, [check]);
  useEffect(() => {
    if (view.kind !== "checking") headingRef.current?.focus();
  }, [view.kind]);

  const checkAgain = (
    <p>
      <button type="button" className="button" onClick={() => void check()}>
        {t.checkAgain}
      </button>
    </p>
  );
  const heading = (text: string) => (
    <h1 ref={headingRef} tabIndex={-1}>
      {text}
    </h1>
  );

  if (view.kind === "checking") {
    return (
      <div className="thanks">
        {heading(t.yourGift)}
        <p role="status">{t.checking}</p>
      </div>
    );
  }
  if (view.kind === "no-donation") {
    return (
      <div className="thanks">
        {heading(t.noGiftHeading)}
        <p>{t.noGiftText}</p>
        <p>
          {t.noGiftReceipt}
          {contact}.
        </p>
        <p>
          <SiteLink className="button button-primary" href={backPath} lang={lang} said={t.inEnglish}>
            {t.giveNow}
          </SiteLink>
        </p>
      </div>
    );
  }
  if (view.kind === "error") {
    return (
      <div className="thanks">
        {heading(t.errorHeading)}
        <p role="alert">{view.message}</p>
        <p>{view.stripeSaysPaid ? t.stripeSaysPaid : t.mayHavePaid}</p>
        {checkAgain}
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
        {heading(t.thankYou)}
        <p className="thanks-lead">
          {`${d.status === "succeeded" ? (later ? t.saved : t.received) : t.processing} ${t.blessings[d.fund]}`}
        </p>
        <dl className="thanks-details">
          <dt>{t.givenTo}</dt>
          <dd>{t.fundNames[d.fund]}</dd>
          <dt>{recurring ? t.schedule : t.payment}</dt>
          <dd>
            {`${scheduleSentence(d, f)}${
              d.feeCents > 0 ? fill(recurring ? t.feeIncludedEach : t.feeIncluded, { fee: f.money(d.feeCents) }) : ""
            }.`}
          </dd>
          <dt>{t.yourReference}</dt>
          <dd className="thanks-reference">
            <strong>{d.reference}</strong>
          </dd>
        </dl>
        <h2>{t.receiptHeading}</h2>
        <p>
          {d.status !== "succeeded"
            ? t.receiptPending
            : later && first
              ? fill(t.receiptLater, { date: f.shortDate(first.date) })
              : recurring
                ? t.receiptRecurring
                : t.receiptOnce}
        </p>
        <h2>{recurring ? t.changeHeadingRecurring : t.changeHeadingOnce}</h2>
        {recurring ? (
          <p>
            {t.manageBefore}
            <SiteLink href="/account/#regular-gifts" lang={lang} said={t.inEnglish}>
              {t.manageLink}
            </SiteLink>
            {t.manageAfter}
          </p>
        ) : null}
        <p>
          {recurring ? (d.instalments ? t.changeRemaining : t.changePayments) : t.changeOnce}
          {contact}
          {withReference(recurring ? t.changeRecurringAfter : t.changeOnceAfter, d.reference)}
        </p>
      </div>
    );
  }
  if (stripeSaysPaidOf(new URLSearchParams(window.location.search), d)) {
    return (
      <div className="thanks">
        {heading(t.confirmingHeading)}
        <p role="status">
          {t.confirmingText}
          {contact}
          {withReference(t.confirmingAfter, d.reference)}
        </p>
        {checkAgain}
      </div>
    );
  }
  return (
    <div className="thanks">
      {heading(t.failedHeading)}
      <p role="alert">
        {d.status === "failed" ? t.failedCancelled : t.failedNotCharged}
        {withReference(t.failedReference, d.reference)}
      </p>
      <p>
        <SiteLink href={backPath} lang={lang} said={t.inEnglish}>
          {t.goBack}
        </SiteLink>
        {t.goBackAfter}
      </p>
    </div>
  );
}
